/**
 * PATCH organizations/{orgId}/affiliations/admins/{adminId} (SPEC §7 Name change): the signed-in admin changes their
 * own name. The caller must belong to the organisation (joined through the affiliation) and may change only their own
 * name here; changing someone else's role (a manager's call, a later issue) will share the path.
 */
import type { FastifyPluginAsync } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { affiliationAnswerSchema, type AffiliationAnswer } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { updateAdminName } from '../domain/admins.js';
import { requireAffiliation, requireRecentAuthentication, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { TAG } from './openapi.js';
import { errorAnswers, organizationAdminParams, wire, type OrganizationAdminParams } from './schemas.js';
import { formBody } from './validation.js';

export const affiliationsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.patch<{ Params: OrganizationAdminParams; Body: Forms['admin-name']; Reply: AffiliationAnswer }>(
    '/organizations/:orgId/affiliations/admins/:adminId',
    {
      schema: {
        tags: [TAG.account],
        summary: "Change the signed-in admin's own name (first, last, kana first, kana last)",
        params: organizationAdminParams,
        body: formBody('admin-name'),
        response: {
          200: wire(affiliationAnswerSchema),
          ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired] }),
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
