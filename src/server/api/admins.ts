/**
 * The signed-in admin's own calls (SPEC §7 Account): GET admins/me/affiliations, GET admin/re_authentication_expiration
 * and PUT admins/{adminId}/password, which answers with a new session (a token response); its current-password check
 * is throttled like a sign-in (429 too_many_requests with Retry-After).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import { affiliationsAnswerSchema, reauthenticationAnswerSchema, sessionAnswerSchema, type AffiliationsAnswer, type ReauthenticationAnswer, type SessionAnswer } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { affiliationsOfAdmin, changePassword } from '../domain/admins.js';
import { tellOfSecurityEvent } from '../domain/securityMails.js';
import { beginAttempt, recordSuccess } from '../domain/signinThrottle.js';
import { hasSecondFactor } from '../domain/twoStep.js';
import { auditOf } from './audit.js';
import { isReauthenticationExpired, isSecondStepExpired, signedIn, useAuthentication } from './auth.js';
import { ApiError } from './errors.js';
import { replaceSession, sessionAffiliation, signInOf } from './sessionReplacement.js';
import { TAG } from './openapi.js';
import { adminIdParams, type AdminIdParams, errorAnswers, wire } from './schemas.js';
import { formBody } from './validation.js';

export const adminsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);

  app.get<{ Reply: AffiliationsAnswer }>(
    '/admins/me/affiliations',
    {
      schema: {
        tags: [TAG.account],
        summary: "The signed-in admin's organisations",
        response: { 200: wire(affiliationsAnswerSchema) },
      },
    },
    async (request) => ({ affiliations: await affiliationsOfAdmin(app.db, signedIn(request).id) }),
  );

  app.get<{ Reply: ReauthenticationAnswer }>(
    '/admin/re_authentication_expiration',
    {
      schema: {
        tags: [TAG.account],
        summary: 'Whether the last password entry (and, for an admin with a second factor, the last second step) is older than the re-authentication window (REAUTH_WINDOW)',
        response: { 200: wire(reauthenticationAnswerSchema) },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const window = app.config.reauthWindow;
      // re-authenticating an account with a second factor is both steps again (issue 44 finding 1)
      const expired = isReauthenticationExpired(admin, window) || ((await hasSecondFactor(app.db, admin.id)) && isSecondStepExpired(admin, window));
      return { isReAuthenticationExpired: expired };
    },
  );

  app.put<{ Params: AdminIdParams; Body: Forms['password-change']; Reply: SessionAnswer }>(
    '/admins/:adminId/password',
    {
      config: { audit: ['account.passwordChanged'] },
      schema: {
        tags: [TAG.account],
        summary: "Change the signed-in admin's password; answers with a new session, the admin's other sessions are revoked",
        params: adminIdParams,
        body: formBody('password-change'),
        response: {
          200: wire(sessionAnswerSchema),
          ...errorAnswers({ 400: [API_ERROR.currentPasswordMismatch], 403: [API_ERROR.forbidden], 429: [API_ERROR.tooManyRequests] }),
        },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      if (request.params.adminId !== admin.id) throw new ApiError(403, API_ERROR.forbidden);
      await app.passwordStrength.requireStrong('new', request.body.new);
      const affiliation = await sessionAffiliation(app, admin);

      // the current password is a password guess like a sign-in: the same counts and limits (signinThrottle.ts)
      const keys = { account: affiliation.admin.email, address: request.ip };
      const attempt = await beginAttempt(app.db, keys, app.config.signinThrottle);
      if (!attempt.allowed) {
        reply.header('retry-after', String(Math.max(1, Math.ceil(((attempt.lockedUntil?.getTime() ?? Date.now()) - Date.now()) / 1000))));
        throw new ApiError(429, API_ERROR.tooManyRequests);
      }
      const authTime = Math.floor(Date.now() / 1000);
      const result = await changePassword(app.db, admin.id, request.body.current, request.body.new, auditOf(request));
      if (result === 'current_password_mismatch') {
        if (attempt.failureDelayMs > 0) await sleep(attempt.failureDelayMs);
        throw new ApiError(400, API_ERROR.currentPasswordMismatch);
      }
      await recordSuccess(app.db, keys);

      await tellOfSecurityEvent({ db: app.db, mailer: app.mailer, publicUrl: app.config.publicUrl }, request.log, admin.id, { kind: 'passwordChanged' });
      // the new session signed in as the one it replaces did (a password entered now; its second step when it was made)
      return replaceSession(app, admin.id, affiliation, { ...signInOf(admin), authTime });
    },
  );
};
