/** GET /api/v1/notices: the notices in effect now (SPEC §2.2, §7). */
import type { FastifyPluginAsync } from 'fastify';
import { listNoticesInEffect } from '../domain/notices.js';
import { commonResponses } from './schemas.js';

export const noticesRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Querystring: { target?: string } }>(
    '/notices',
    {
      schema: {
        tags: ['content'],
        summary: 'Notices in effect now',
        querystring: {
          type: 'object',
          properties: { target: { type: 'string', maxLength: 100, description: 'only notices for this target, e.g. enterprise_portal' } },
        },
        response: {
          200: {
            type: 'object',
            properties: {
              notices: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    target: { type: 'string' },
                    content_ja: { type: 'string' },
                    content_en: { type: 'string' },
                  },
                  required: ['id', 'target', 'content_ja', 'content_en'],
                },
              },
            },
            required: ['notices'],
          },
          ...commonResponses,
        },
      },
    },
    async (request) => ({ notices: await listNoticesInEffect(app.db, { target: request.query.target }) }),
  );
};
