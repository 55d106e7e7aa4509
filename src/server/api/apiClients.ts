/**
 * The organisation's own API clients (issue 46), set up by its managers on the 'API access' page:
 *
 *   GET    organizations/{orgId}/api_clients                               → {apiClients, scopes} (at most 20, oldest first; the scopes a client may get)
 *   POST   organizations/{orgId}/api_clients                               {name, scopes, expires_on} → 201 {apiClient, clientSecret}
 *   PATCH  organizations/{orgId}/api_clients/{clientId}                    {name, scopes, expires_on} → {apiClient}
 *   POST   organizations/{orgId}/api_clients/{clientId}/rotate_secret      → {apiClient, clientSecret}
 *   DELETE organizations/{orgId}/api_clients/{clientId}                    → 204: revoked, every token ends at once
 *
 * Who: the organisation's managers (the session's organisation; members and others 403), never an API client itself
 * (no scope: api/clientAuth.ts); an id the organisation does not have answers 404. Every write is in the trail
 * (apiClient.*), every client answers its ETag, which a PATCH, rotation or DELETE with If-Match must still match (412).
 * The secret is answered when made (create, rotate) and never again; the old one works on for API_CLIENT_SECRET_OVERLAP.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { apiClientAnswerSchema, apiClientsAnswerSchema, apiClientWithSecretAnswerSchema } from '../../common/api/apiClientAnswers.js';
import { API_CLIENT_SCOPES, isApiClientScope } from '../../common/apiScopes.js';
import type { AuditAction } from '../../common/auditActions.js';
import { API_ERROR, FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import {
  createApiClient,
  endOfTokyoDay,
  listApiClients,
  MAX_API_CLIENTS,
  revokeApiClient,
  rotateApiClientSecret,
  updateApiClient,
  type ApiClientSettings,
  type ApiClientWrite,
  type NewApiClient,
} from '../domain/apiClients.js';
import { auditOf } from './audit.js';
import { requireManager, signedIn, useAuthentication } from './auth.js';
import { TAG } from './openapi.js';
import { conditionalWrite, etagHeader, preconditionOf, sendEtag, writtenRecord } from './preconditions.js';
import { errorAnswers, organizationParams, wire, type OrganizationParams } from './schemas.js';
import { formBody, FormValidationError } from './validation.js';

const orgId = organizationParams.properties.orgId;
const clientParams = { type: 'object', additionalProperties: false, properties: { orgId, clientId: { type: 'string', format: 'uuid' } }, required: ['orgId', 'clientId'] } as const;
type ClientParams = FromSchema<typeof clientParams>;


const ACCESS_ERRORS = { 403: [API_ERROR.forbidden] } as const;
const RECORD_ERRORS = { 403: [API_ERROR.forbidden], 404: [API_ERROR.notFound] } as const;
const LIMIT_ERRORS = { 403: [API_ERROR.forbidden], 409: [API_ERROR.limitReached] } as const;
const tags = [TAG.apiClients];

/**
 * What the forms cannot say (schemas/api-client.json): a scope is one of the one list (src/common/apiScopes.ts), and
 * the last day is not past (a client that never works).
 */
function refuseInvalid(settings: ApiClientSettings & { publicJwks?: unknown }): void {
  const errors: FieldError[] = [];
  if (typeof settings.publicJwks === 'string') {
    const keys = publicKeySet(settings.publicJwks);
    if (keys === undefined) errors.push({ field: 'public_jwks', code: FIELD_ERROR.invalid, meta: {} });
    // the pasted text becomes the key set the domain stores
    settings.publicJwks = keys === null ? null : keys && { keys };
  }
  if (settings.scopes?.some((scope) => !isApiClientScope(scope))) errors.push({ field: 'scopes', code: FIELD_ERROR.invalid, meta: {} });
  if (settings.expiresOn && (Number.isNaN(endOfTokyoDay(settings.expiresOn).getTime()) || endOfTokyoDay(settings.expiresOn).getTime() <= Date.now())) {
    errors.push({ field: 'expires_on', code: FIELD_ERROR.invalid, meta: {} });
  }
  if (errors.length > 0) throw new FormValidationError(errors);
}

/** Members a public JWK may not have: a private key's. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/**
 * A client's public keys for private_key_jwt, as a manager pastes them: a JWK Set, or one JWK (JSON); RSA, EC or OKP
 * public keys only, at most 5. Empty: none (null); not such keys: undefined.
 */
export function publicKeySet(text: string): object[] | null | undefined {
  if (text.trim() === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const keys: unknown = (parsed as { keys?: unknown }).keys ?? [parsed];
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 5) return undefined;
  const isPublic = (key: unknown) =>
    typeof key === 'object' && key !== null && ['RSA', 'EC', 'OKP'].includes((key as { kty?: string }).kty ?? '') && PRIVATE_MEMBERS.every((member) => !(member in key));
  return keys.every(isPublic) ? (keys as object[]) : undefined;
}

export const apiClientsRoutes: FastifyPluginAsync = async (app) => {
  useAuthentication(app);
  const { db, config } = app;
  const collection = '/organizations/:orgId/api_clients';
  const member = `${collection}/:clientId`;

  /** A write's refusals as answers; its result otherwise. */
  const outcomeOf = <Result>(request: FastifyRequest, write: ApiClientWrite<Result>, id: string) => writtenRecord(db, request, write, { type: 'apiClient', id });

  app.get<{ Params: OrganizationParams }>(
    collection,
    { schema: { tags, summary: `The organisation's API clients, oldest first (a manager; at most ${MAX_API_CLIENTS}): who made them, when, their last use, their expiry; never a secret`, params: organizationParams, response: { 200: wire(apiClientsAnswerSchema), ...errorAnswers(ACCESS_ERRORS) } } },
    async (request) => {
      await requireManager(db, signedIn(request), request.params.orgId);
      return { apiClients: await listApiClients(db, request.params.orgId), scopes: API_CLIENT_SCOPES };
    },
  );

  app.post<{ Params: OrganizationParams; Body: NewApiClient }>(
    collection,
    {
      config: { audit: ['apiClient.created'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: `Add an API client (a manager; at most ${MAX_API_CLIENTS}): the answer has its client_id and its secret, shown this once`,
        params: organizationParams,
        body: formBody('api-client'),
        response: { 201: { ...wire(apiClientWithSecretAnswerSchema), headers: etagHeader }, ...errorAnswers(LIMIT_ERRORS) },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const admin = signedIn(request);
      await requireManager(db, admin, orgId);
      refuseInvalid(request.body);
      const made = await outcomeOf(request, await createApiClient(db, orgId, request.body, { adminId: admin.id }, auditOf(request, orgId)), '');
      request.log.info({ organizationId: orgId, apiClientId: made.apiClient.id }, 'API client added');
      sendEtag(reply, made.apiClient.etag);
      return reply.code(201).send(made);
    },
  );

  app.patch<{ Params: ClientParams; Body: ApiClientSettings }>(
    member,
    {
      config: { audit: ['apiClient.changed'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: "Change an API client's name, scopes or expiry (a manager; fewer scopes count for its live tokens at once); with If-Match, only the version named",
        params: clientParams,
        headers: conditionalWrite.headers,
        body: formBody('api-client-edit'),
        response: { 200: { ...wire(apiClientAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, clientId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      refuseInvalid(request.body);
      const client = await outcomeOf(request, await updateApiClient(db, orgId, clientId, { settings: request.body, precondition }, auditOf(request, orgId)), clientId);
      sendEtag(reply, client.etag);
      return { apiClient: client };
    },
  );

  app.post<{ Params: ClientParams }>(
    `${member}/rotate_secret`,
    {
      config: { audit: ['apiClient.secretRotated'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: `Rotate an API client's secret (a manager): the new one is answered this once; the old one works for ${config.apiClients.secretOverlapSeconds} seconds more (API_CLIENT_SECRET_OVERLAP); with If-Match, only the version named`,
        params: clientParams,
        headers: conditionalWrite.headers,
        response: { 200: { ...wire(apiClientWithSecretAnswerSchema), headers: etagHeader }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, clientId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      const precondition = preconditionOf(request, config.ifMatchRequired);
      const overlapSeconds = config.apiClients.secretOverlapSeconds;
      const rotated = await outcomeOf(request, await rotateApiClientSecret(db, orgId, clientId, { overlapSeconds, precondition }, auditOf(request, orgId)), clientId);
      request.log.info({ organizationId: orgId, apiClientId: clientId }, 'API client secret rotated');
      sendEtag(reply, rotated.apiClient.etag);
      return rotated;
    },
  );

  app.delete<{ Params: ClientParams }>(
    member,
    {
      config: { audit: ['apiClient.revoked'] satisfies AuditAction[] },
      schema: {
        tags,
        summary: 'Revoke an API client (a manager): it and every token it holds stop working at once; with If-Match, only the version named',
        params: clientParams,
        headers: conditionalWrite.headers,
        response: { 204: { description: 'Revoked', type: 'null' }, ...errorAnswers(RECORD_ERRORS), ...conditionalWrite.answers },
      },
    },
    async (request, reply) => {
      const { orgId, clientId } = request.params;
      await requireManager(db, signedIn(request), orgId);
      await outcomeOf(request, await revokeApiClient(db, orgId, clientId, preconditionOf(request, config.ifMatchRequired), auditOf(request, orgId)), clientId);
      request.log.info({ organizationId: orgId, apiClientId: clientId }, 'API client revoked');
      return reply.code(204).send();
    },
  );
};
