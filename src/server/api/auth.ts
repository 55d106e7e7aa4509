/**
 * The signed-in admin of an API call (SPEC §7 General: every call made while logged in carries
 * `x-v2-admin-auth-token: Bearer {token}`), and the access checks of DESIGN principle 4: organisation-scoped calls
 * join through the admin's affiliation (an id in the URL is never enough), with a role where the spec asks for one.
 *
 * A route module that needs a signed-in admin calls `useAuthentication(app)` first; its handlers then read
 * `request.admin`. Answers: 401 access_token_expired (the client refreshes once and retries), 401
 * invalid_access_token (anything else wrong or missing, or ended by logout, password change or reset: the admin's
 * tokens_valid_after; or, for a session of one organisation, by a role change or removal there: the admin's
 * admin_organization_tokens — both kept in memory, domain/tokenValidity.ts), 403 forbidden, 403 reauthentication_expired.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import type { AffiliationRole } from '../db/types.js';
import { roleInOrganization, sessionOrganization } from '../domain/admins.js';
import { AccessTokenError } from '../idp/accessTokens.js';
import { authenticateApiClient, clientBearerToken, CLIENT_ERRORS, scopeOfRoute, type ApiClientPrincipal } from './clientAuth.js';
import { ApiError } from './errors.js';
import { adminOrClient, documentAnswers, SECURITY } from './openapi.js';
import { AUTHENTICATION_ERRORS, isId } from './schemas.js';

export const AUTH_TOKEN_HEADER = 'x-v2-admin-auth-token';

export interface SignedInAdmin {
  id: number;
  /** Epoch seconds the access token was issued (against the admin's tokens_valid_after). */
  issuedAt?: number;
  /** Epoch seconds of the last password entry. */
  authTime: number | undefined;
  /** The organisation chosen at sign-in. */
  gloplaId: string | undefined;
  /** How the admin signed in (the access token's amr, RFC 8176). */
  amr?: readonly string[];
  /** Epoch seconds of the session's last second step (the access token's mfa_time). */
  secondStepTime?: number;
  /** The single-sign-on connection the session was signed in through (the access token's sso_connection; issue 45). */
  ssoConnectionId?: string;
  /** The access token itself (SPEC §7: links to the provider's sign-in host carry it). */
  accessToken?: string;
  /** An organisation's API client, not an admin (issue 46; id 0): it acts as a manager of its own organisation within its scopes. */
  apiClient?: ApiClientPrincipal;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by useAuthentication's hook; null outside authenticated scopes. */
    admin: SignedInAdmin | null;
  }
}

/** The admin of a request in an authenticated scope. */
export function signedIn(request: FastifyRequest): SignedInAdmin {
  if (!request.admin) throw new ApiError(401, API_ERROR.invalidAccessToken);
  return request.admin;
}

const TOKEN_ENDED = "token ended (logout, password change or reset, or a role change in the session's organisation)";

/** Adds the token check to every route of the calling plugin (scope), and says so in the API document. */
export function useAuthentication(app: FastifyInstance): void {
  app.decorateRequest('admin', null);
  app.addHook('onRoute', (route) => {
    // a route open to API clients (api/clientAuth.ts ROUTE_SCOPES) says its scope and the clients' refusals (issue 46)
    const scope = [route.method].flat().map((method) => scopeOfRoute(method, route.url)).find(Boolean);
    if (!scope) return documentAnswers(AUTHENTICATION_ERRORS, SECURITY.admin)(route);
    documentAnswers({ ...AUTHENTICATION_ERRORS, ...CLIENT_ERRORS }, adminOrClient(scope))(route);
  });
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers[AUTH_TOKEN_HEADER];
    // an organisation's API client (issue 46): Authorization: Bearer, and no admin token
    const clientToken = header === undefined ? clientBearerToken(request) : undefined;
    if (clientToken !== undefined) {
      const apiClient = await authenticateApiClient(request, reply, clientToken);
      request.admin = { id: 0, authTime: undefined, gloplaId: apiClient.gloplaId, amr: [], apiClient };
      return;
    }
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header.trim()) : null;
    if (!match) {
      reply.header('www-authenticate', 'Bearer');
      throw new ApiError(401, API_ERROR.invalidAccessToken);
    }
    try {
      const claims = await app.identityProvider.verifyAccessToken(match[1]!);
      // a JWT outlives logout and password changes: the admin's tokens_valid_after ends it at once
      if (!(await app.tokenValidity.isCurrent(claims.adminId, claims.issuedAt, claims.gloplaId))) throw new AccessTokenError(API_ERROR.invalidAccessToken, TOKEN_ENDED);
      const { adminId: id, issuedAt, authTime, gloplaId, amr, secondStepTime, ssoConnectionId } = claims;
      request.admin = { id, issuedAt, authTime, gloplaId, amr, secondStepTime, ssoConnectionId, accessToken: match[1]! };
    } catch (error) {
      if (!(error instanceof AccessTokenError)) throw error;
      request.log.info({ reason: error.message }, 'access token refused');
      reply.header('www-authenticate', `Bearer error="invalid_token"`);
      throw new ApiError(401, error.code);
    }
  });
}

/**
 * The admin's role in the organisation, checked by a join on the affiliation: not affiliated, or not the organisation
 * the session was signed in for (the token's glopla_id) → 403 forbidden; `required: 'manager'` and only a member →
 * 403 forbidden.
 */
export async function requireAffiliation(db: Db, admin: SignedInAdmin, organizationId: number, required?: AffiliationRole): Promise<AffiliationRole> {
  // an API client's scope was checked with its token; its organisation is its own, another reads as unknown (issue 46)
  if (admin.apiClient) {
    if (admin.apiClient.organizationId !== organizationId) throw new ApiError(404, API_ERROR.notFound);
    return 'manager';
  }
  const found = Number.isSafeInteger(organizationId) ? await roleInOrganization(db, admin.id, organizationId, admin.gloplaId) : undefined;
  if (!found) throw new ApiError(403, API_ERROR.forbidden);
  requireTwoStepWhere(found.twoStepRequired, admin);
  if (required === 'manager' && found.role !== 'manager') throw new ApiError(403, API_ERROR.forbidden);
  return found.role;
}

/** Whether the session's sign-in was made in two steps (the access token's amr, never the browser's word). */
export const signedInInTwoSteps = (admin: SignedInAdmin): boolean => admin.amr?.includes('mfa') ?? false;

/** An organisation that requires two-step sign-in refuses a password-only session: 403 mfa_required (issue 29). */
export function requireTwoStepWhere(twoStepRequired: boolean, admin: SignedInAdmin): void {
  if (twoStepRequired && !signedInInTwoSteps(admin)) throw new ApiError(403, API_ERROR.mfaRequired);
}

/** The session's organisation and the caller's role in it: 403 forbidden when it is not the admin's, mfa_required by its rule. */
export async function requireSessionOrganization(db: Db, admin: SignedInAdmin) {
  const organization = await sessionOrganization(db, admin.id, admin.gloplaId);
  if (!organization) throw new ApiError(403, API_ERROR.forbidden, 'no organisation');
  requireTwoStepWhere(organization.twoStepRequired, admin);
  return organization;
}

/** Manager-only calls of an organisation (SPEC §6: invite, re-role, delete admins, apply for services, …). */
export function requireManager(db: Db, admin: SignedInAdmin, organizationId: number): Promise<AffiliationRole> {
  return requireAffiliation(db, admin, organizationId, 'manager');
}

/**
 * The manager check as a route's `onRequest` hook, for routes with a large body (issue 25 finding 3): it runs before a
 * byte of the body is read, so a member, or an admin of another organisation, is answered 403 without making the
 * instance parse megabytes. The params are still text here; one that is no id is no organisation of the admin (403).
 */
export async function requireManagerBeforeBody(request: FastifyRequest): Promise<void> {
  const { orgId } = request.params as { orgId?: string };
  await requireManager(request.server.db, signedIn(request), isId(orgId) ? Number(orgId) : Number.NaN);
}

/** True when the last password entry is older than the window (or unknown). */
export function isReauthenticationExpired(admin: SignedInAdmin, windowSeconds: number, nowMs = Date.now()): boolean {
  if (admin.authTime === undefined) return true;
  return Math.floor(nowMs / 1000) - admin.authTime > windowSeconds;
}

/** Sensitive calls (SPEC §4 Re-authentication): 403 reauthentication_expired when the password entry is too old. */
export function requireRecentAuthentication(admin: SignedInAdmin, windowSeconds: number): void {
  if (isReauthenticationExpired(admin, windowSeconds)) throw new ApiError(403, API_ERROR.reauthenticationExpired);
}

/**
 * True when the session made no second step within the window (issue 44 finding 1): for an admin who has a second
 * factor, re-authenticating is both steps again. The time is the token's mfa_time, never its auth_time, which a
 * password change renews without a second step.
 */
export function isSecondStepExpired(admin: SignedInAdmin, windowSeconds: number, nowMs = Date.now()): boolean {
  if (!signedInInTwoSteps(admin) || admin.secondStepTime === undefined) return true;
  return Math.floor(nowMs / 1000) - admin.secondStepTime > windowSeconds;
}
