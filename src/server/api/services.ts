/** GET /api/v2/services: the services for the Home grid (SPEC 2.7); the list loads only when signed in. */
import type { FastifyPluginAsync } from 'fastify';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import { listServices } from '../domain/services.js';
import { useAuthentication } from './auth.js';
import { commonResponses, errorResponse, languageQuery } from './schemas.js';

const serviceCard = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    subtitle: { type: 'string' },
    summary: { type: 'string' },
    thumbnail_url: { type: ['string', 'null'] },
    service_group: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
  },
} as const;

export const servicesRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Querystring: { lang?: Language } }>(
    '/services',
    {
      schema: {
        tags: ['services'],
        summary: 'Services available to the organisation',
        querystring: languageQuery('The language of names and summaries (default ja)'),
        response: { 200: { type: 'object', properties: { services: { type: 'array', items: serviceCard } } }, 401: errorResponse, ...commonResponses },
      },
    },
    async (request) => ({ services: await listServices(app.db, request.query.lang ?? DEFAULT_LANGUAGE) }),
  );
};
