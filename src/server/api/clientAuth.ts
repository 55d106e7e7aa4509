/**
 * The organisation's own API clients calling /api/v2 (issue 46): `Authorization: Bearer <token>`, a JWT access token
 * (RFC 9068) from the client-credentials grant at /oidc/token (idp/provider.ts).
 *
 * ROUTE_SCOPES is the one place that says which scope each route open to clients needs: a route not in it is not
 * open to clients at all (admins' own calls, the organisation's admins, single sign-on, the clients themselves…).
 * The authorisation matrix shows it as a column (test/server/api/authorizationMatrix.test.ts).
 *
 * `authenticateApiClient` runs in useAuthentication's hook (api/auth.ts) instead of the admin's check when the call
 * has no admin token but a Bearer authorization. Per call it reads the client (a revoked one is gone: its tokens end
 * at once; an expired one is refused), takes a token from the client's bucket (429 with Retry-After; RateLimit-*
 * headers on every answer), checks the route's scope (403 insufficient_scope, RFC 6750 §3.1) and notes the use. The
 * client then acts as a manager of its own organisation only: another organisation's id answers 404 (api/auth.ts
 * requireAffiliation), and its writes are audited with the client as the actor (api/audit.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { API_CLIENT_SCOPES, type ApiClientScope } from '../../common/apiScopes.js';
import { API_ERROR } from '../../common/errorCodes.js';
import { findActiveApiClient, recordApiClientUse } from '../domain/apiClients.js';
import { takeToken } from '../domain/rateLimits.js';
import { ApiError } from './errors.js';

/** The scope each route open to API clients needs, by `METHOD /path` as Fastify registers it. */
export const ROUTE_SCOPES: ReadonlyMap<string, ApiClientScope> = new Map<string, ApiClientScope>([
  ['GET /api/v2/organizations/:orgId/corporate_subscriptions', 'subscriptions:read'],
  ['GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode', 'subscriptions:read'],
  ['GET /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode/calendar', 'subscriptions:read'],
  ['POST /api/v2/organizations/:orgId/corporate_subscriptions', 'subscriptions:write'],
  ['PATCH /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode', 'subscriptions:write'],
  ['PATCH /api/v2/organizations/:orgId/confirmed_corporate_subscriptions/:requestCode', 'subscriptions:write'],
  ['DELETE /api/v2/organizations/:orgId/corporate_subscriptions/:requestCode', 'subscriptions:write'],
  ['GET /api/v2/organizations/:orgId/users', 'learners:read'],
  ['GET /api/v2/organizations/:orgId/users/csv', 'learners:read'],
  ['GET /api/v2/organizations/:orgId/users/:userId', 'learners:read'],
  ['PATCH /api/v2/organizations/:orgId/users/:userId', 'learners:write'],
  ['POST /api/v2/organizations/:orgId/users/preview', 'learners:write'],
  ['POST /api/v2/organizations/:orgId/users/bulk_update', 'learners:write'],
  ['GET /api/v2/organizations/:orgId/contacts', 'contacts:read'],
  ['GET /api/v2/organizations/:orgId/contacts/:id', 'contacts:read'],
  ['GET /api/v2/organizations/:orgId/billing_contacts', 'contacts:read'],
  ['GET /api/v2/organizations/:orgId/billing_contacts/:id', 'contacts:read'],
  ['GET /api/v2/organizations/:orgId/audit_events', 'audit:read'],
  ['GET /api/v2/organizations/:orgId/audit_events/csv', 'audit:read'],
]);

/** What an API client may be answered besides the admins' refusals (documented on the routes open to clients). */
export const CLIENT_ERRORS = { 403: [API_ERROR.insufficientScope], 429: [API_ERROR.tooManyRequests] } as const;

/** The scope a route needs of an API client, or undefined: not open to clients. */
export const scopeOfRoute = (method: string, url: string | undefined): ApiClientScope | undefined =>
  // Fastify's HEAD route of a GET shares its schema and answers as it
  ROUTE_SCOPES.get(`${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`);

/** The API client a call was made with. */
export interface ApiClientPrincipal {
  /** The client's id (api_clients.id), the audit trail's actor. */
  id: string;
  clientId: string;
  name: string;
  organizationId: number;
  gloplaId: string;
  /** The scopes of the token that the client still holds. */
  scopes: readonly ApiClientScope[];
}

interface ClientTokenClaims {
  clientId: string;
  scopes: readonly string[];
  gloplaId: string | undefined;
}

/** Verifies a client's access token locally, as the admins' are (api/auth.ts): the provider's keys, issuer, audience, at+jwt. */
export function createClientTokenVerifier({ issuer, audience, jwks }: { issuer: string; audience: string; jwks: Parameters<typeof createLocalJWKSet>[0] }) {
  const keySet: JWTVerifyGetKey = createLocalJWKSet(jwks);
  return async (token: string): Promise<ClientTokenClaims> => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keySet, { issuer, audience, typ: 'at+jwt', algorithms: ['RS256'], requiredClaims: ['sub', 'exp', 'iat', 'client_id'] }));
    } catch (error) {
      throw new ApiError(401, error instanceof joseErrors.JWTExpired ? API_ERROR.accessTokenExpired : API_ERROR.invalidAccessToken, error instanceof Error ? error.message : String(error));
    }
    // an admin's token names the admin in sub; a client's names the client (RFC 9068 §2.2)
    if (typeof payload.client_id !== 'string' || payload.sub !== payload.client_id) throw new ApiError(401, API_ERROR.invalidAccessToken, 'not a client-credentials token');
    return {
      clientId: payload.client_id,
      scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
      gloplaId: typeof payload.glopla_id === 'string' ? payload.glopla_id : undefined,
    };
  };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The Bearer token of the call's Authorization header, if it has one. */
export function clientBearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header.trim())?.[1] : undefined;
}

function refuseToken(reply: FastifyReply, error: ApiError): never {
  reply.header('www-authenticate', 'Bearer error="invalid_token"');
  throw error;
}

/** Checks an API client's call (see above); its principal, or an ApiError answer. */
export async function authenticateApiClient(request: FastifyRequest, reply: FastifyReply, token: string): Promise<ApiClientPrincipal> {
  const { db, config, identityProvider } = request.server;
  let claims: ClientTokenClaims;
  try {
    claims = await identityProvider.verifyClientToken(token);
  } catch (error) {
    if (error instanceof ApiError) refuseToken(reply, error);
    throw error;
  }
  const client = await findActiveApiClient(db, claims.clientId);
  // revoked (deleted), expired, or moved to another organisation: none of its tokens counts any more
  if (!client || client.gloplaId !== claims.gloplaId) refuseToken(reply, new ApiError(401, API_ERROR.invalidAccessToken, 'API client revoked or expired'));

  const bucket = await takeToken(db, `api_client:${client.id}`, config.apiClients);
  reply.header('ratelimit-limit', String(bucket.limit));
  reply.header('ratelimit-remaining', String(bucket.remaining));
  reply.header('ratelimit-reset', String(bucket.resetSeconds));
  if (!bucket.allowed) {
    reply.header('retry-after', String(bucket.retryAfterSeconds));
    throw new ApiError(429, API_ERROR.tooManyRequests, 'API client rate limit');
  }

  // the token's scopes that the client still holds (a manager may have taken one away since)
  const scopes = API_CLIENT_SCOPES.filter((scope) => claims.scopes.includes(scope) && client.scopes.includes(scope));
  const needed = scopeOfRoute(request.method, request.routeOptions.url);
  if (!needed || !scopes.includes(needed)) {
    reply.header('www-authenticate', needed ? `Bearer error="insufficient_scope", scope="${needed}"` : 'Bearer error="insufficient_scope"');
    throw new ApiError(403, API_ERROR.insufficientScope, needed ? `the route needs the scope ${needed}` : 'the route is not open to API clients');
  }
  await recordApiClientUse(db, client.id, request.ip);
  return { id: client.id, clientId: client.clientId, name: client.name, organizationId: client.organizationId, gloplaId: client.gloplaId, scopes };
}
