/** GET /api/v2/services: the services for the Home grid (SPEC 2.7); the list loads only when signed in. */
import type { FastifyPluginAsync } from 'fastify';
import { servicesAnswerSchema, type ServicesAnswer } from '../../common/api/answers.js';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import { listServices } from '../domain/services.js';
import { useAuthentication } from './auth.js';
import { TAG } from './openapi.js';
import { languageQuery, wire } from './schemas.js';

export const servicesRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Querystring: { lang?: Language }; Reply: ServicesAnswer }>(
    '/services',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'Services available to the organisation',
        querystring: languageQuery('The language of names and summaries (default ja)'),
        response: { 200: wire(servicesAnswerSchema) },
      },
    },
    async (request) => ({ services: await listServices(app.db, request.query.lang ?? DEFAULT_LANGUAGE) }),
  );
};
