/** GET enabled_feature_flags/{name} (SPEC §7): whether a feature flag is enabled; an unknown flag is disabled. */
import type { FastifyPluginAsync } from 'fastify';
import { isFeatureEnabled } from '../domain/featureFlags.js';
import { useAuthentication } from './auth.js';
import { featureFlagAnswerSchema, type FeatureFlagAnswer } from '../../common/api/answers.js';
import { TAG } from './openapi.js';
import { wire } from './schemas.js';

export const featureFlagsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Params: { name: string }; Reply: FeatureFlagAnswer }>(
    '/enabled_feature_flags/:name',
    {
      schema: {
        tags: [TAG.servicesAndClasses],
        summary: 'Whether a feature flag (e.g. product_admin_roles) is enabled',
        params: { type: 'object', properties: { name: { type: 'string', maxLength: 100 } }, required: ['name'] },
        response: { 200: wire(featureFlagAnswerSchema) },
      },
    },
    async (request) => ({ enabled: await isFeatureEnabled(app.db, request.params.name) }),
  );
};
