/**
 * The checks every request that sends a mail to an address the client names makes first (activation mail, reset mail,
 * registration request; issue 7 finding 8): the per-client limit (so a flood costs no captcha work), the captcha, then
 * the per-e-mail limit (counted for unknown addresses too, so the limit does not tell them apart). The counters are
 * shared by the three routes (MAIL_RATE_LIMIT_*). Past a limit: 429 too_many_requests with Retry-After; a captcha that
 * is missing, wrong, expired or replayed: 401 captcha_invalid.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { verifyCaptcha } from '../domain/captcha.js';
import { hitRateLimit } from '../domain/rateLimits.js';
import { ApiError } from './errors.js';

/** The captcha's fields (SPEC §7) in a form's body: checked here, never stored, mailed or answered. */
export const CAPTCHA_FIELDS: readonly string[] = ['capyChallengekey', 'capyAnswer'];

export interface MailRequestBody {
  email: string;
  capyChallengekey?: string;
  capyAnswer?: string;
}

export type MailRequestGuard = (request: FastifyRequest, reply: FastifyReply, body: MailRequestBody) => Promise<void>;

export function mailRequestGuard(app: FastifyInstance): MailRequestGuard {
  const { config, db } = app;
  const captchaSettings = { mode: config.captcha, secret: config.captchaSecret };
  const window = { windowSeconds: config.mailRateLimit.windowSeconds };

  return async (request, reply, body) => {
    const client = await hitRateLimit(db, `mail:client:${request.ip}`, { ...window, limit: config.mailRateLimit.perClient });
    if (!client.allowed) {
      request.log.warn({ client: request.ip }, 'mail requests: client rate limit reached');
      app.metrics.rateLimitRefusals.inc({ limit: 'mail_client' });
      reply.header('retry-after', String(client.retryAfterSeconds));
      throw new ApiError(429, API_ERROR.tooManyRequests);
    }
    const captcha = await verifyCaptcha(db, captchaSettings, { challengeKey: body.capyChallengekey, answer: body.capyAnswer });
    if (captcha !== 'ok') {
      request.log.info({ captcha }, 'mail requests: captcha refused');
      app.metrics.captchaRefusals.inc({ reason: captcha });
      throw new ApiError(401, API_ERROR.captchaInvalid);
    }
    const email = await hitRateLimit(db, `mail:email:${body.email.toLowerCase()}`, { ...window, limit: config.mailRateLimit.perEmail });
    if (!email.allowed) {
      request.log.warn('mail requests: e-mail address rate limit reached');
      app.metrics.rateLimitRefusals.inc({ limit: 'mail_email' });
      reply.header('retry-after', String(email.retryAfterSeconds));
      throw new ApiError(429, API_ERROR.tooManyRequests);
    }
  };
}
