/**
 * The organisation's own API clients (issue 46), as organizations/{orgId}/api_clients answers them (managers). The
 * secret is answered once, beside the client, when it is made (create, rotate): never again.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { API_CLIENT_SCOPES } from '../apiScopes.js';
import { envelope, objectOf } from './answers.js';

const etag = { type: 'string', description: "the record's version (its ETag): send it in If-Match to change the record as you saw it" } as const;
const timeOrNull = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

export const apiClientSchema = objectOf({
  id: { type: 'string', format: 'uuid' },
  clientId: { type: 'string', description: 'the OAuth 2.0 client_id (POST /oidc/token with client_secret_basic)' },
  organizationId: { type: 'integer', description: "its organisation's id, the {orgId} of the API's paths (its tokens carry it as organization_id)" },
  name: { type: 'string', description: 'what the managers call it; the audit trail names its writes by it' },
  scopes: { type: 'array', items: { type: 'string', enum: API_CLIENT_SCOPES }, description: 'what its tokens may do' },
  expiresAt: timeOrNull('when it stops working; null: never'),
  expiresOn: { type: ['string', 'null'], format: 'date', description: 'the last day it works, in Tokyo (its expiry is the end of that day); null: never' },
  previousSecretExpiresAt: timeOrNull('after a rotation: until when the old secret still works; null: only the present one works'),
  authMethod: { type: 'string', enum: ['client_secret_basic', 'private_key_jwt'], description: 'how it authenticates at /oidc/token: its secret, or a JWT signed with the key it registered (RFC 7523)' },
  publicJwks: { type: ['string', 'null'], description: 'the public keys it registered (a JWK Set, as JSON text); null: none, it uses its secret' },
  createdBy: objectOf({ adminId: { type: ['integer', 'null'] }, email: { type: 'string' } }),
  createdAt: { type: 'string', format: 'date-time' },
  lastUsedAt: timeOrNull('its last call to the API (to the minute); null: never used'),
  lastUsedAddress: { type: ['string', 'null'], description: 'the address its last call came from' },
  etag,
});
export type ApiClient = FromSchema<typeof apiClientSchema>;

export const apiClientsAnswerSchema = objectOf({
  apiClients: { type: 'array', items: apiClientSchema },
  scopes: { type: 'array', items: { type: 'string', enum: API_CLIENT_SCOPES }, description: 'the scopes a client may be given' },
});
export type ApiClientsAnswer = FromSchema<typeof apiClientsAnswerSchema>;
export const apiClientAnswerSchema = envelope('apiClient', apiClientSchema);
export type ApiClientAnswer = FromSchema<typeof apiClientAnswerSchema>;
/** A new client, or a new secret: the secret this once. */
export const apiClientWithSecretAnswerSchema = objectOf({ apiClient: apiClientSchema, clientSecret: { type: 'string', description: 'shown this once: keep it now (it is stored hashed)' } });
export type ApiClientWithSecretAnswer = FromSchema<typeof apiClientWithSecretAnswerSchema>;
