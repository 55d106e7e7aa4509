/**
 * The organisation's own API clients at the provider (issue 46): oidc-provider finds a client that is not the portal
 * through its adapter's Client model; this answers it from api_clients (domain/apiClients.ts) instead of the payload
 * table, so a revoked (deleted) or expired client is at once unknown (invalid_client). Its secret is compared with the
 * stored hashes (the present one, and the one before a rotation while its overlap lasts): the metadata's
 * client_secret is only the present hash, which oidc-provider needs to see a secret-based client but never compares.
 */
import type { ClientMetadata, KoaContextWithOIDC } from 'oidc-provider';
import { findActiveApiClient, isClientSecret, type ActiveApiClient } from '../domain/apiClients.js';
import type { Db } from '../db/index.js';

/** client_ids of API clients (domain/apiClients.ts) never collide with the portal's. */
export const isApiClientId = (clientId: string | undefined): clientId is string => typeof clientId === 'string' && clientId.startsWith('apic_');

/** The client's registration as oidc-provider reads it: the client-credentials grant only, no redirects. */
export function apiClientMetadata(client: ActiveApiClient): ClientMetadata {
  const keys = (client.publicJwks as { keys?: unknown[] } | null)?.keys;
  return {
    client_id: client.clientId,
    client_name: client.name,
    client_secret: client.secretHash,
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    scope: client.scopes.join(' '),
    ...(keys?.length ? { token_endpoint_auth_method: 'private_key_jwt', jwks: { keys } as never } : { token_endpoint_auth_method: 'client_secret_basic' }),
  };
}

/** The registration of an active API client, or undefined (the provider's Client look-up). */
export async function findApiClientMetadata(db: Db, clientId: string): Promise<ClientMetadata | undefined> {
  const client = isApiClientId(clientId) ? await findActiveApiClient(db, clientId) : undefined;
  return client && apiClientMetadata(client);
}

/** Whether the secret sent is one of the client's (read again: a rotation or a revocation counts at once). */
export async function apiClientSecretMatches(db: Db, clientId: string, secret: unknown): Promise<boolean> {
  if (typeof secret !== 'string') return false;
  const client = await findActiveApiClient(db, clientId);
  return client !== undefined && isClientSecret(client, secret);
}

/** The claims an API client's access token carries beside its scopes: its organisation (glopla_id, as admins' tokens). */
export async function apiClientTokenClaims(db: Db, ctx: KoaContextWithOIDC): Promise<Record<string, unknown> | undefined> {
  const clientId = ctx.oidc.client?.clientId;
  const client = isApiClientId(clientId) ? await findActiveApiClient(db, clientId) : undefined;
  // organization_id: the {orgId} of the API's paths, which the client could not learn otherwise
  return client && { glopla_id: client.gloplaId, organization_id: client.organizationId };
}
