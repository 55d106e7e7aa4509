/**
 * The admins of the session's organisation (SPEC §7 Organisation admins, 2.13 Manage Admin Accounts, §6 roles):
 *
 *   GET    organizations/{orgId}/affiliations                                 members and managers → {affiliations}
 *   POST   organizations/{orgId}/affiliations               {email, role}     manager → 201 {affiliation, outcome}, 304
 *   PATCH  organizations/{orgId}/affiliations/admins/{adminId}  {role}        manager, another admin → {affiliation}
 *   PATCH  organizations/{orgId}/affiliations/admins/{adminId}  {first_name, …}  the admin's own name → {affiliation}
 *   DELETE organizations/{orgId}/affiliations/admins/{adminId}                manager, another admin → 204
 *   POST   organizations/{orgId}/affiliations/admins/{adminId}/invitation    manager → {affiliation} (beyond the spec:
 *          resends a not-activated admin's invitation)
 *
 * The organisation must be the session's (token glopla_id) and the caller affiliated with it (api/auth.ts); a manager
 * never acts on their own row (403). An affiliation that is gone answers 409 admin_already_deleted (SPEC §8).
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import {
  affiliationAnswerSchema,
  inviteAnswerSchema,
  organizationAffiliationsAnswerSchema,
  type AffiliationAnswer,
  type InviteAnswer,
} from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { API_ERROR } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import { endOrganizationTokens, updateAdminName } from '../domain/admins.js';
import { changeRole, findOrganizationAffiliation, inviteAdmin, organizationAdminListHead, organizationAffiliations, removeAffiliation, resendInvitation } from '../domain/memberships.js';
import { hitRateLimit } from '../domain/rateLimits.js';
import { auditOf } from './audit.js';
import { requireAffiliation, requireManager, requireRecentAuthentication, requireTwoStepWhere, signedIn, useAuthentication, type SignedInAdmin } from './auth.js';
import { ApiError } from './errors.js';
import { keptAnswers, sendKept } from './keptAnswers.js';
import { TAG } from './openapi.js';
import { changedMeanwhileAs412, conditionalWrite, etagHeader, preconditionOf, sendEtag } from './preconditions.js';
import { errorAnswers, languageQuery, organizationAdminParams, organizationParams, wire, type OrganizationAdminParams, type OrganizationParams } from './schemas.js';
import { formBody } from './validation.js';
import { jsonListAnswer } from './wire.js';

interface LangQuery {
  lang?: string;
}

const mailLanguageQuery = languageQuery("The invitation mail's language (default: the invitee's, else ja)");

/** A manager acting on another admin of the organisation: 403 for a member, and for the manager's own row. */
async function requireManagerOfAnother(db: Db, admin: SignedInAdmin, params: OrganizationAdminParams): Promise<void> {
  await requireManager(db, admin, params.orgId);
  if (params.adminId === admin.id) throw new ApiError(403, API_ERROR.forbidden);
}

export const affiliationsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { config, db } = app;
  const staleAs412 = <T>(request: FastifyRequest<{ Params: OrganizationAdminParams }>, work: Promise<T>) => changedMeanwhileAs412(db, request, request.params.orgId, work);
  const invitationDeps = { db, mailer: app.mailer, publicUrl: config.publicUrl, ttlSeconds: config.activationTokenTtl };
  // the organisations' lists as last answered, each under its version (migration 0113)
  const keptLists = keptAnswers<number>(config.listCacheMb * 1024 * 1024);

  app.get<{ Params: OrganizationParams }>(
    '/organizations/:orgId/affiliations',
    {
      schema: {
        tags: [TAG.organisationAdmins],
        summary: "The organisation's admins: managers first, then by kana name; not-activated admins with their invitation",
        params: organizationParams,
        response: { 200: wire(organizationAffiliationsAnswerSchema), ...errorAnswers({ 403: [API_ERROR.forbidden] }) },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId } = request.params;
      const viewer = { adminId: admin.id, gloplaId: admin.gloplaId };
      const now = Date.now();
      // a kept list costs one small query of its version, the access check included
      if (keptLists.has(orgId)) {
        const head = await organizationAdminListHead(db, orgId, viewer);
        if (!head) throw new ApiError(403, API_ERROR.forbidden);
        requireTwoStepWhere(head.twoStepRequired, admin);
        const kept = keptLists.current(orgId, head.version, now);
        if (kept) return sendKept(request, reply, kept);
      }
      // one query, the access check included: nothing comes back for a caller who may not see it
      const list = await organizationAffiliations(db, orgId, viewer, new Date(now));
      if (!list) throw new ApiError(403, API_ERROR.forbidden);
      requireTwoStepWhere(list.twoStepRequired, admin);
      // each affiliation comes written in wire form (the response schema documents it; Fastify serialises no string)
      const body = jsonListAnswer('affiliations', list.affiliationsJson);
      return sendKept(request, reply, keptLists.keep(orgId, { version: list.version, validUntil: list.validUntil, body }));
    },
  );

  app.post<{ Params: OrganizationParams; Querystring: LangQuery; Body: Forms['affiliation-invite']; Reply: { 201: InviteAnswer; 304: null } }>(
    '/organizations/:orgId/affiliations',
    {
      config: { audit: ['membership.invited'] },
      schema: {
        tags: [TAG.organisationAdmins],
        summary: 'Invite an admin: an activated admin joins at once (joined); anyone else gets an invitation mail (invited)',
        params: organizationParams,
        querystring: mailLanguageQuery,
        body: formBody('affiliation-invite'),
        response: {
          201: wire(inviteAnswerSchema),
          304: { description: 'The address already belongs to an admin of the organisation (no body)', type: 'null' },
          ...errorAnswers({ 403: [API_ERROR.forbidden] }),
        },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      await requireManager(db, admin, request.params.orgId);
      const result = await inviteAdmin(invitationDeps, {
        organizationId: request.params.orgId,
        email: request.body.email,
        role: request.body.role,
        inviter: { adminId: admin.id, requestedLanguage: request.query.lang },
        trail: auditOf(request, request.params.orgId),
      });
      request.log.info({ outcome: result.outcome, organizationId: request.params.orgId }, 'admin invited');
      if (result.outcome === 'already_member') return reply.code(304).send(null);
      // the invitation is stored: the manager is told so, and may resend it from the list
      if (result.mailError) request.log.error({ err: result.mailError, adminId: result.affiliation?.admin.id }, 'invitation mail failed');
      if (!result.affiliation) throw new ApiError(409, API_ERROR.adminAlreadyDeleted); // removed between the commit and the read
      return reply.code(201).send({ affiliation: result.affiliation, outcome: result.outcome });
    },
  );

  app.patch<{ Params: OrganizationAdminParams; Body: Forms['admin-name'] | Forms['affiliation-role']; Reply: AffiliationAnswer }>(
    '/organizations/:orgId/affiliations/admins/:adminId',
    {
      config: { audit: ['membership.roleChanged', 'account.nameChanged'] },
      schema: {
        tags: [TAG.organisationAdmins, TAG.account],
        summary: "Change another admin's role (a manager; body {role}; with If-Match, only on the affiliation's version named), or the signed-in admin's own name (body first, last, kana first, kana last)",
        params: organizationAdminParams,
        headers: conditionalWrite.headers,
        // the body's fields choose the form: {role} is a role change, the names a name change
        body: formBody('admin-name', 'affiliation-role'),
        response: {
          200: { ...wire(affiliationAnswerSchema), headers: etagHeader },
          ...errorAnswers({ 403: [API_ERROR.forbidden, API_ERROR.reauthenticationExpired], 409: [API_ERROR.adminAlreadyDeleted] }),
          ...conditionalWrite.answers,
        },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId, adminId } = request.params;
      const body = request.body;
      if ('role' in body) {
        await requireManagerOfAnother(db, admin, request.params);
        const precondition = preconditionOf(request, config.ifMatchRequired);
        const result = await staleAs412(request, changeRole(db, orgId, adminId, { role: body.role, precondition }, auditOf(request, orgId)));
        if (!result.ok) throw new ApiError(409, API_ERROR.adminAlreadyDeleted);
        sendEtag(reply, result.affiliation.etag);
        if (result.changed) {
          // the admin's sessions for this organisation end: their browser learns the new role at the next sign-in;
          // their sessions for other organisations stay
          await endOrganizationTokens(db, adminId, orgId);
          request.log.info({ organizationId: orgId, adminId, role: body.role }, 'role changed');
        }
        return { affiliation: result.affiliation };
      }
      await requireAffiliation(db, admin, orgId);
      if (adminId !== admin.id) throw new ApiError(403, API_ERROR.forbidden);
      requireRecentAuthentication(admin, config.reauthWindow);
      await updateAdminName(db, admin.id, body, auditOf(request));
      const affiliation = await findOrganizationAffiliation(db, orgId, admin.id);
      if (!affiliation) throw new ApiError(403, API_ERROR.forbidden);
      return { affiliation };
    },
  );

  app.delete<{ Params: OrganizationAdminParams }>(
    '/organizations/:orgId/affiliations/admins/:adminId',
    {
      config: { audit: ['membership.deleted'] },
      schema: {
        tags: [TAG.organisationAdmins],
        summary: 'Remove another admin from the organisation (a manager); with If-Match, only the version named',
        params: organizationAdminParams,
        headers: conditionalWrite.headers,
        response: {
          204: { description: 'Removed', type: 'null' },
          ...errorAnswers({ 403: [API_ERROR.forbidden], 409: [API_ERROR.adminAlreadyDeleted] }),
          ...conditionalWrite.answers,
        },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId, adminId } = request.params;
      await requireManagerOfAnother(db, admin, request.params);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      if (!(await staleAs412(request, removeAffiliation(db, orgId, adminId, precondition, auditOf(request, orgId))))) throw new ApiError(409, API_ERROR.adminAlreadyDeleted);
      // the API already refuses the organisation (every call joins through the affiliation); ending the admin's tokens
      // for it also ends the sessions signed in for it (their account calls too); other organisations' sessions stay
      await endOrganizationTokens(db, request.params.adminId, request.params.orgId);
      request.log.info({ organizationId: request.params.orgId, adminId: request.params.adminId }, 'affiliation removed');
      return reply.code(204).send();
    },
  );

  app.post<{ Params: OrganizationAdminParams; Querystring: LangQuery; Reply: AffiliationAnswer }>(
    '/organizations/:orgId/affiliations/admins/:adminId/invitation',
    {
      config: { audit: ['invitation.resent'] },
      schema: {
        tags: [TAG.organisationAdmins],
        summary: "Resend a not-activated admin's invitation (a manager): a new link, the earlier ones stop working",
        params: organizationAdminParams,
        querystring: mailLanguageQuery,
        response: {
          200: wire(affiliationAnswerSchema),
          ...errorAnswers({ 403: [API_ERROR.forbidden], 409: [API_ERROR.adminAlreadyDeleted, API_ERROR.alreadyActivated], 429: [API_ERROR.tooManyRequests] }),
        },
      },
    },
    async (request, reply) => {
      const admin = signedIn(request);
      const { orgId, adminId } = request.params;
      await requireManagerOfAnother(db, admin, request.params);
      // per invitee, so that managers (of several organisations too) cannot flood one address; the activation mail
      // requests count apart, so a stranger asking for activation mails cannot use up a manager's resends
      const { perEmail, windowSeconds } = config.mailRateLimit;
      const limit = await hitRateLimit(db, `invitation:admin:${adminId}`, { limit: perEmail, windowSeconds });
      if (!limit.allowed) {
        app.metrics.rateLimitRefusals.inc({ limit: 'invitation' });
        reply.header('retry-after', String(limit.retryAfterSeconds));
        throw new ApiError(429, API_ERROR.tooManyRequests);
      }
      const result = await resendInvitation(invitationDeps, { organizationId: orgId, adminId, inviter: { adminId: admin.id, requestedLanguage: request.query.lang }, trail: auditOf(request, orgId) });
      if (!result.ok) throw new ApiError(409, result.code === 'already_activated' ? API_ERROR.alreadyActivated : API_ERROR.adminAlreadyDeleted);
      request.log.info({ organizationId: orgId, adminId }, 'invitation resent');
      return { affiliation: result.affiliation };
    },
  );
};
