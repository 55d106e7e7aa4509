/**
 * The organisation's own API clients (issue 46): OAuth 2.0 client credentials at the portal's provider, made by a
 * manager with a name, scopes (src/common/apiScopes.ts) and an optional expiry. Every read and write names the
 * organisation: another organisation's client reads as unknown (404).
 *
 * - The secret (256 random bits) is answered once, when made, and kept as its SHA-256 only. 'Rotate secret' makes a
 *   new one and keeps the old working until the overlap ends (API_CLIENT_SECRET_OVERLAP).
 * - Revoking deletes the client: the provider no longer finds it (no new token) and the API refuses its tokens on
 *   their next call (api/clientAuth.ts reads the client on every call), so every token ends at once.
 * - A client's version is its row's (domain/versions.ts); its last use is kept apart (api_client_uses) so that using
 *   it does not change its version.
 */
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import type { ApiClient } from '../../common/api/apiClientAnswers.js';
import type { ApiClientScope } from '../../common/apiScopes.js';
import type { Db } from '../db/index.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { etagColumn, etagKey, satisfies, type Precondition } from './versions.js';

/** The most clients an organisation has (a list answered whole: one per integration and a few on trial is plenty). */
export const MAX_API_CLIENTS = 20;
/** Lifetime of a client's access token, seconds (issue 46: 15 minutes). */
export const API_CLIENT_TOKEN_TTL = 15 * 60;
/** A last use is written at most this often per client, seconds. */
const USE_RECORD_INTERVAL = 60;

export interface ApiClientSettings {
  name?: string;
  scopes?: ApiClientScope[];
  /** The last day it works, in Tokyo (YYYY-MM-DD); empty or null: no expiry. */
  expiresOn?: string | null;
  /** Its public keys (a JWK Set, checked by the route: api/apiClients.ts): it then authenticates with private_key_jwt; empty or null: with its secret. */
  publicJwks?: { keys: object[] } | null;
}

/** Japan has no daylight saving: a Tokyo day ends at the next 00:00+09:00. */
export const endOfTokyoDay = (day: string): Date => new Date(Date.parse(`${day}T00:00:00+09:00`) + 86_400_000);
/** The Tokyo day an expiry ends (the last day the client works). */
const tokyoDayBefore = (end: Date): string => new Date(end.getTime() - 1 + 9 * 3_600_000).toISOString().slice(0, 10);
/** The expiry column of a day sent (undefined: not sent). */
const expiryOf = (expiresOn: string | null | undefined): Date | null | undefined => (expiresOn === undefined ? undefined : expiresOn ? endOfTokyoDay(expiresOn) : null);

export interface NewApiClient extends ApiClientSettings {
  name: string;
  scopes: ApiClientScope[];
}

export type ApiClientWrite<Result> = { outcome: 'done'; result: Result } | { outcome: 'not_found' } | { outcome: 'stale' } | { outcome: 'limit' };

const hashSecret = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');
const newSecret = () => randomBytes(32).toString('base64url');
const newClientId = () => `apic_${randomBytes(12).toString('hex')}`;

const selectRows = (db: Db, key: string) =>
  db
    .selectFrom('apiClients')
    .leftJoin('apiClientUses', 'apiClientUses.apiClientId', 'apiClients.id')
    .select([
      'apiClients.id', 'apiClients.organizationId', 'apiClients.clientId', 'apiClients.name', 'apiClients.scopes', 'apiClients.expiresAt',
      'apiClients.previousSecretExpiresAt', 'apiClients.publicJwks', 'apiClients.createdByAdminId', 'apiClients.createdByEmail', 'apiClients.createdAt',
      'apiClientUses.lastUsedAt', 'apiClientUses.lastUsedAddress', etagColumn(key, 'api_clients').as('etag'),
    ]);

type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;

const isoOrNull = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function recordOf(row: Row): ApiClient {
  const previousSecretExpiresAt = row.previousSecretExpiresAt && new Date(row.previousSecretExpiresAt) > new Date() ? isoOrNull(row.previousSecretExpiresAt) : null;
  return {
    id: row.id,
    clientId: row.clientId,
    organizationId: row.organizationId,
    name: row.name,
    scopes: row.scopes as ApiClientScope[],
    expiresAt: isoOrNull(row.expiresAt),
    expiresOn: row.expiresAt === null ? null : tokyoDayBefore(new Date(row.expiresAt)),
    previousSecretExpiresAt,
    authMethod: row.publicJwks ? 'private_key_jwt' : 'client_secret_basic',
    publicJwks: row.publicJwks ? JSON.stringify(row.publicJwks) : null,
    createdBy: { adminId: row.createdByAdminId, email: row.createdByEmail },
    createdAt: new Date(row.createdAt).toISOString(),
    lastUsedAt: isoOrNull(row.lastUsedAt ?? null),
    lastUsedAddress: row.lastUsedAddress ?? null,
    etag: row.etag,
  };
}

/** The organisation's clients, oldest first (at most MAX_API_CLIENTS). */
export async function listApiClients(db: Db, organizationId: number): Promise<ApiClient[]> {
  const rows = await selectRows(db, await etagKey(db)).where('apiClients.organizationId', '=', organizationId).orderBy('apiClients.createdAt').orderBy('apiClients.id').execute();
  return rows.map(recordOf);
}

export async function findApiClient(db: Db, organizationId: number, id: string): Promise<ApiClient | undefined> {
  const row = await selectRows(db, await etagKey(db)).where('apiClients.organizationId', '=', organizationId).where('apiClients.id', '=', id).executeTakeFirst();
  return row && recordOf(row);
}

// ---------------------------------------------------------------------------------------------------
// The trail

const AUDITED = ['name', 'scopes', 'expiresAt', 'authMethod'];
const audited = (row: Row | undefined) => row && { name: row.name, scopes: [...row.scopes].sort(), expiresAt: isoOrNull(row.expiresAt), authMethod: row.publicJwks ? 'private_key_jwt' : 'client_secret_basic' };
const target = (row: Row) => ({ type: 'apiClient' as const, id: row.id, label: row.name });

// ---------------------------------------------------------------------------------------------------
// The writes

const lockOrganization = (trx: Db, organizationId: number) => trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forNoKeyUpdate().executeTakeFirstOrThrow();
const lockedRow = (trx: Db, key: string, organizationId: number, id: string) =>
  selectRows(trx, key).where('apiClients.organizationId', '=', organizationId).where('apiClients.id', '=', id).forUpdate('apiClients').executeTakeFirst();

/** Makes a client (unless the organisation has MAX_API_CLIENTS): the answer carries its secret, this once. */
export async function createApiClient(
  db: Db,
  organizationId: number,
  client: NewApiClient,
  createdBy: { adminId: number },
  trail: AuditTrail,
): Promise<ApiClientWrite<{ apiClient: ApiClient; clientSecret: string }>> {
  const key = await etagKey(db);
  const id = randomUUID();
  const secret = newSecret();
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const { count } = await trx.selectFrom('apiClients').select((eb) => eb.fn.countAll<string>().as('count')).where('organizationId', '=', organizationId).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_API_CLIENTS) return { outcome: 'limit' as const };
    await trx
      .insertInto('apiClients')
      .values({
        id,
        organizationId,
        clientId: newClientId(),
        name: client.name,
        scopes: scopesValue(client.scopes),
        secretHash: hashSecret(secret),
        expiresAt: expiryOf(client.expiresOn) ?? null,
        publicJwks: jwksValue(client.publicJwks),
        createdByAdminId: createdBy.adminId,
        createdByEmail: sql<string>`coalesce((select email from admins where id = ${createdBy.adminId}::int), '')`,
      })
      .execute();
    const row = await selectRows(trx, key).where('apiClients.id', '=', id).executeTakeFirstOrThrow();
    await trail.record(trx, { action: 'apiClient.created', target: target(row), changes: changesBetween(undefined, audited(row), AUDITED) });
    return { outcome: 'done' as const, result: { apiClient: recordOf(row), clientSecret: secret } };
  });
}

/** Changes the name, scopes or expiry if the client is still the version asked for (fewer scopes count at once). */
export async function updateApiClient(
  db: Db,
  organizationId: number,
  id: string,
  change: { settings: ApiClientSettings; precondition?: Precondition },
  trail: AuditTrail,
): Promise<ApiClientWrite<ApiClient>> {
  const key = await etagKey(db);
  const { name, scopes } = change.settings;
  const expiresAt = expiryOf(change.settings.expiresOn);
  return db.transaction().execute(async (trx) => {
    const before = await lockedRow(trx, key, organizationId, id);
    if (!before) return { outcome: 'not_found' as const };
    if (!satisfies(before.etag, change.precondition)) return { outcome: 'stale' as const };
    await trx
      .updateTable('apiClients')
      .set({
        ...(name !== undefined && { name }),
        ...(scopes !== undefined && { scopes: scopesValue(scopes) }),
        ...(expiresAt !== undefined && { expiresAt }),
        ...(change.settings.publicJwks !== undefined && { publicJwks: jwksValue(change.settings.publicJwks) }),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const after = await selectRows(trx, key).where('apiClients.id', '=', id).executeTakeFirstOrThrow();
    const changes = changesBetween(audited(before), audited(after), AUDITED);
    if (Object.keys(changes).length > 0) await trail.record(trx, { action: 'apiClient.changed', target: target(after), changes });
    return { outcome: 'done' as const, result: recordOf(after) };
  });
}

/** A new secret, answered this once; the old one keeps working for `overlapSeconds` (a secret older than that one ends now). */
export async function rotateApiClientSecret(
  db: Db,
  organizationId: number,
  id: string,
  { overlapSeconds, precondition }: { overlapSeconds: number; precondition?: Precondition },
  trail: AuditTrail,
): Promise<ApiClientWrite<{ apiClient: ApiClient; clientSecret: string }>> {
  const key = await etagKey(db);
  const secret = newSecret();
  return db.transaction().execute(async (trx) => {
    const before = await lockedRow(trx, key, organizationId, id);
    if (!before) return { outcome: 'not_found' as const };
    if (!satisfies(before.etag, precondition)) return { outcome: 'stale' as const };
    const overlapEnd = new Date(Date.now() + overlapSeconds * 1000);
    await trx
      .updateTable('apiClients')
      .set({ previousSecretHash: sql<string>`secret_hash`, previousSecretExpiresAt: overlapEnd, secretHash: hashSecret(secret), updatedAt: new Date() })
      .where('id', '=', id)
      .execute();
    const after = await selectRows(trx, key).where('apiClients.id', '=', id).executeTakeFirstOrThrow();
    await trail.record(trx, { action: 'apiClient.secretRotated', target: target(after), changes: { previousSecretExpiresAt: { before: null, after: overlapEnd.toISOString() } } });
    return { outcome: 'done' as const, result: { apiClient: recordOf(after), clientSecret: secret } };
  });
}

/** Revokes the client: deleted, so that no token of it is accepted any more, nor a new one issued. */
export async function revokeApiClient(db: Db, organizationId: number, id: string, precondition: Precondition | undefined, trail: AuditTrail): Promise<ApiClientWrite<true>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx) => {
    const row = await lockedRow(trx, key, organizationId, id);
    if (!row) return { outcome: 'not_found' as const };
    if (!satisfies(row.etag, precondition)) return { outcome: 'stale' as const };
    await trx.deleteFrom('apiClients').where('id', '=', id).execute();
    await trail.record(trx, { action: 'apiClient.revoked', target: target(row), changes: changesBetween(audited(row), undefined, AUDITED) });
    return { outcome: 'done' as const, result: true as const };
  });
}

/** A jsonb value PGlite and pg both send the same way (see idp/adapter.ts). */
const jwksValue = (jwks: { keys: object[] } | null | undefined) => (jwks ? sql<string>`cast(${JSON.stringify(jwks)} as jsonb)` : null);

/** A text[] value PGlite and pg both send the same way. */
const scopesValue = (scopes: readonly string[]) => sql<string[]>`array(select jsonb_array_elements_text(${JSON.stringify([...new Set(scopes)])}::jsonb))`;

// ---------------------------------------------------------------------------------------------------
// The provider's and the API's reads

/** A client that may get and use tokens: not expired (a revoked one is gone). */
export interface ActiveApiClient {
  id: string;
  clientId: string;
  name: string;
  organizationId: number;
  gloplaId: string;
  scopes: ApiClientScope[];
  secretHash: string;
  previousSecretHash: string | null;
  previousSecretExpiresAt: Date | null;
  publicJwks: unknown;
}

/** The active client of a client_id (the provider's Client look-up, and the API's check of each call). */
export async function findActiveApiClient(db: Db, clientId: string): Promise<ActiveApiClient | undefined> {
  if (!/^apic_[0-9a-f]{24}$/.test(clientId)) return undefined;
  const row = await db
    .selectFrom('apiClients')
    .innerJoin('organizations', 'organizations.id', 'apiClients.organizationId')
    .select([
      'apiClients.id', 'apiClients.clientId', 'apiClients.name', 'apiClients.organizationId', 'organizations.gloplaId', 'apiClients.scopes',
      'apiClients.secretHash', 'apiClients.previousSecretHash', 'apiClients.previousSecretExpiresAt', 'apiClients.publicJwks',
    ])
    .where('apiClients.clientId', '=', clientId)
    .where((eb) => eb.or([eb('apiClients.expiresAt', 'is', null), eb('apiClients.expiresAt', '>', sql<Date>`now()`)]))
    .executeTakeFirst();
  if (!row) return undefined;
  return { ...row, scopes: row.scopes as ApiClientScope[], previousSecretExpiresAt: row.previousSecretExpiresAt && new Date(row.previousSecretExpiresAt) };
}

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Whether the secret is the client's present one, or the one before while its overlap lasts (`now`: tests' clock). */
export function isClientSecret(client: Pick<ActiveApiClient, 'secretHash' | 'previousSecretHash' | 'previousSecretExpiresAt'>, secret: string, now = new Date()): boolean {
  const hash = hashSecret(secret);
  if (sameHash(hash, client.secretHash)) return true;
  return client.previousSecretHash !== null && client.previousSecretExpiresAt !== null && client.previousSecretExpiresAt > now && sameHash(hash, client.previousSecretHash);
}

/** Notes a call of the client: when and from where (written at most once a minute). */
export async function recordApiClientUse(db: Db, apiClientId: string, address: string, now = new Date()): Promise<void> {
  await db
    .insertInto('apiClientUses')
    .values({ apiClientId, lastUsedAt: now, lastUsedAddress: address })
    .onConflict((conflict) =>
      conflict
        .column('apiClientId')
        .doUpdateSet({ lastUsedAt: now, lastUsedAddress: address })
        .where(sql<boolean>`api_client_uses.last_used_at < ${new Date(now.getTime() - USE_RECORD_INTERVAL * 1000)}::timestamptz or api_client_uses.last_used_address <> ${address}`),
    )
    .execute();
}
