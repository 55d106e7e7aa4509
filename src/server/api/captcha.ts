/**
 * GET /api/v2/captcha/challenge: a new ALTCHA challenge for the captcha widget of the activation and reset mail
 * requests (domain/captcha.ts). ALTCHA's own JSON format (camelCase keys such as keyLength, which the widget reads),
 * so this route is registered beside the API's wire conventions, not inside them. Never cached.
 */
import type { FastifyPluginAsync } from 'fastify';
import { CHALLENGE_TTL_SECONDS, createCaptchaChallenge } from '../domain/captcha.js';
import { documentAnswers, TAG } from './openapi.js';
import { COMMON_ERRORS } from './schemas.js';

export const CAPTCHA_CHALLENGE_PATH = '/captcha/challenge';

export const captchaRoutes: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', documentAnswers(COMMON_ERRORS));
  const settings = { mode: app.config.captcha, secret: app.config.captchaSecret, cost: app.config.captchaCost };
  app.get(
    CAPTCHA_CHALLENGE_PATH,
    {
      schema: {
        tags: [TAG.activationAndReset],
        summary: `A signed proof-of-work challenge (ALTCHA), valid for ${CHALLENGE_TTL_SECONDS} s; its solution is sent as capy_answer, its data.challengeId as capy_challengekey`,
        response: {
          200: {
            type: 'object',
            description: "ALTCHA's own format (camelCase keys), outside the API's snake_case convention",
            properties: { parameters: { type: 'object', additionalProperties: true }, signature: { type: 'string' } },
            required: ['parameters', 'signature'],
          },
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return createCaptchaChallenge(app.db, settings);
    },
  );
};
