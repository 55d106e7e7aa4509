/** GET enabled_feature_flags/{name} (SPEC §7): whether a feature flag is enabled; an unknown flag is disabled. */
import type { FastifyPluginAsync } from 'fastify';
import { isFeatureEnabled } from '../domain/featureFlags.js';
import { useAuthentication } from './auth.js';
import { commonResponses, errorResponse } from './schemas.js';

export const featureFlagsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Params: { name: string } }>(
    '/enabled_feature_flags/:name',
    {
      schema: {
        tags: ['content'],
        summary: 'Whether a feature flag (e.g. product_admin_roles) is enabled',
        params: { type: 'object', properties: { name: { type: 'string', maxLength: 100 } }, required: ['name'] },
        response: {
          200: { type: 'object', properties: { enabled: { type: 'boolean' } }, required: ['enabled'] },
          401: errorResponse,
          ...commonResponses,
        },
      },
    },
    async (request) => ({ enabled: await isFeatureEnabled(app.db, request.params.name) }),
  );
};
