/** GET /api/v1/notices: the notices in effect now (SPEC §2.2, §7). */
import type { FastifyPluginAsync } from 'fastify';
import { listNoticesInEffect } from '../domain/notices.js';
import { noticesAnswerSchema, type NoticesAnswer } from '../../common/api/answers.js';
import { TAG } from './openapi.js';
import { wire } from './schemas.js';

export const noticesRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { target?: string }; Reply: NoticesAnswer }>(
    '/notices',
    {
      schema: {
        tags: [TAG.content],
        summary: 'Notices in effect now',
        querystring: {
          type: 'object',
          properties: { target: { type: 'string', maxLength: 100, description: 'only notices for this target, e.g. enterprise_portal' } },
        },
        response: { 200: wire(noticesAnswerSchema) },
      },
    },
    async (request) => ({ notices: await listNoticesInEffect(app.db, { target: request.query.target }) }),
  );
};
