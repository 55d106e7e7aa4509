/**
 * GET organizations/{orgId}/product_admin_roles?lang= (SPEC 2.14 Admin Permissions, §7 Organisation admins): the
 * signed-in admin's role per product in the session's organisation, members and managers alike. The screen shows only
 * while the feature flag product_admin_roles is enabled; the call answers regardless (the flag is the screen's).
 */
import type { FastifyPluginAsync } from 'fastify';
import { productAdminRolesAnswerSchema, type ProductAdminRolesAnswer } from '../../common/api/answers.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { DEFAULT_LANGUAGE, isLanguage } from '../../common/languages.js';
import { productAdminRoles } from '../domain/memberships.js';
import { requireAffiliation, signedIn, useAuthentication } from './auth.js';
import { TAG } from './openapi.js';
import { errorAnswers, languageQuery, organizationParams, wire, type OrganizationParams } from './schemas.js';

export const productAdminRolesRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Params: OrganizationParams; Querystring: { lang?: string }; Reply: ProductAdminRolesAnswer }>(
    '/organizations/:orgId/product_admin_roles',
    {
      schema: {
        tags: [TAG.organisationAdmins],
        summary: "The signed-in admin's role per product in the organisation",
        params: organizationParams,
        querystring: languageQuery('The language of the product names and roles (default ja)'),
        response: { 200: wire(productAdminRolesAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      await requireAffiliation(app.db, admin, request.params.orgId);
      const language = isLanguage(request.query.lang) ? request.query.lang : DEFAULT_LANGUAGE;
      return { productAdminRoles: await productAdminRoles(app.db, admin.id, request.params.orgId, language) };
    },
  );
};
