/**
 * PATCH organizations/{orgId}/affiliations/admins/{adminId} (SPEC §7 Name change): the signed-in admin changes their
 * own name. The caller must belong to the organisation (joined through the affiliation) and may change only their own
 * name here; changing someone else's role (a manager's call, a later issue) will share the path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { updateAdminName, type AdminName } from '../domain/admins.js';
import { affiliationSchema } from './admins.js';
import { requireAffiliation, requireRecentAuthentication, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { commonResponses, errorResponse, validationErrorResponse } from './schemas.js';
import { formBody } from './validation.js';

export const affiliationsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.patch<{ Params: { orgId: number; adminId: number }; Body: AdminName }>(
    '/organizations/:orgId/affiliations/admins/:adminId',
    {
      schema: {
        tags: ['account'],
        summary: "Change the signed-in admin's own name (first, last, kana first, kana last)",
        params: {
          type: 'object',
          properties: { orgId: { type: 'integer', minimum: 1 }, adminId: { type: 'integer', minimum: 1 } },
          required: ['orgId', 'adminId'],
        },
        body: formBody('admin-name'),
        response: {
          200: { type: 'object', properties: { affiliation: affiliationSchema }, required: ['affiliation'] },
          401: errorResponse,
          403: errorResponse,
          422: validationErrorResponse,
          ...commonResponses,
        },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      await requireAffiliation(app.db, admin, request.params.orgId);
      if (request.params.adminId !== admin.id) throw new ApiError(403, API_ERROR.forbidden);
      requireRecentAuthentication(admin, app.config.reauthWindow);
      const affiliation = await updateAdminName(app.db, admin.id, request.params.orgId, request.body);
      if (!affiliation) throw new ApiError(403, API_ERROR.forbidden);
      return { affiliation };
    },
  );
};
