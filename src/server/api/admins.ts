/**
 * The signed-in admin's own calls (SPEC §7 Account): GET admins/me/affiliations, GET admin/re_authentication_expiration
 * and PUT admins/{adminId}/password, which answers with a new session (a token response).
 */
import type { FastifyPluginAsync } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { affiliationsOfAdmin, changePassword } from '../domain/admins.js';
import { isReauthenticationExpired, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { requireStrongPassword } from './passwordStrength.js';
import { adminIdParams, commonResponses, errorResponse, validationErrorResponse } from './schemas.js';
import { formBody } from './validation.js';

export const affiliationSchema = {
  type: 'object',
  properties: {
    role: { type: 'string', enum: ['manager', 'member'] },
    organization: {
      type: 'object',
      properties: { id: { type: 'integer' }, glopla_id: { type: 'string' }, corporation_official_name: { type: 'string' } },
      required: ['id', 'glopla_id', 'corporation_official_name'],
    },
    admin: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        kana_first_name: { type: 'string' },
        kana_last_name: { type: 'string' },
        email: { type: 'string' },
      },
      required: ['id', 'first_name', 'last_name', 'kana_first_name', 'kana_last_name', 'email'],
    },
  },
  required: ['role', 'organization', 'admin'],
} as const;

const tokenResponseSchema = {
  type: 'object',
  description: 'A new session, as the token endpoint answers (SPEC §3 Session)',
  properties: {
    access_token: { type: 'string' },
    refresh_token: { type: 'string' },
    id_token: { type: 'string' },
    token_type: { type: 'string' },
    expires_in: { type: 'integer' },
    scope: { type: 'string' },
    created_at: { type: 'integer', description: 'epoch seconds' },
    refresh_token_expires_in: { type: 'integer' },
  },
  required: ['access_token', 'refresh_token', 'token_type', 'expires_in', 'created_at', 'refresh_token_expires_in'],
} as const;

const authResponses = { 401: errorResponse, 403: errorResponse } as const;

export const adminsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get(
    '/admins/me/affiliations',
    {
      schema: {
        tags: ['account'],
        summary: "The signed-in admin's organisations",
        response: {
          200: { type: 'object', properties: { affiliations: { type: 'array', items: affiliationSchema } }, required: ['affiliations'] },
          ...authResponses,
          ...commonResponses,
        },
      },
    },
    async (request) => ({ affiliations: await affiliationsOfAdmin(app.db, signedIn(request).id) }),
  );

  app.get(
    '/admin/re_authentication_expiration',
    {
      schema: {
        tags: ['account'],
        summary: 'Whether the last password entry is older than the re-authentication window (REAUTH_WINDOW)',
        response: {
          200: {
            type: 'object',
            properties: { is_re_authentication_expired: { type: 'boolean', description: 'true: the password must be entered again' } },
            required: ['is_re_authentication_expired'],
          },
          ...authResponses,
          ...commonResponses,
        },
      },
    },
    async (request) => ({ isReAuthenticationExpired: isReauthenticationExpired(signedIn(request), app.config.reauthWindow) }),
  );

  app.put<{ Params: { adminId: number }; Body: { current: string; new: string } }>(
    '/admins/:adminId/password',
    {
      schema: {
        tags: ['account'],
        summary: "Change the signed-in admin's password; answers with a new session, the admin's other sessions are revoked",
        params: adminIdParams,
        body: formBody('password-change'),
        response: { 200: tokenResponseSchema, 422: validationErrorResponse, ...authResponses, ...commonResponses },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      if (request.params.adminId !== admin.id) throw new ApiError(403, API_ERROR.forbidden);
      requireStrongPassword('new', request.body.new);
      // the organisation of the new session: the one of the current session, while the admin still belongs to it
      const affiliations = await affiliationsOfAdmin(app.db, admin.id);
      const affiliation = affiliations.find((candidate) => candidate.organization.gloplaId === admin.gloplaId) ?? affiliations[0];
      if (!affiliation) throw new ApiError(403, API_ERROR.forbidden);

      const authTime = Math.floor(Date.now() / 1000);
      const result = await changePassword(app.db, admin.id, request.body.current, request.body.new);
      if (result === 'current_password_mismatch') throw new ApiError(400, API_ERROR.currentPasswordMismatch);

      const { identityProvider } = app;
      await identityProvider.revokeAdmin(admin.id);
      return identityProvider.newSessionAfterPasswordChange({
        adminId: admin.id,
        organizationId: affiliation.organization.id,
        gloplaId: affiliation.organization.gloplaId,
        authTime,
      });
    },
  );
};
