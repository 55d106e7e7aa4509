/**
 * An organisation's single-sign-on connections to its own identity provider (issue 45): SAML 2.0 or OpenID Connect,
 * created as a draft, turned on (used for sign-in) once complete, paused, deleted. Every read and write names the
 * organisation: another organisation's connection reads as unknown, so the API answers 404 as for any unknown id.
 *
 * A connection's version is its row's (domain/versions.ts); its writes record the trail's entries in their
 * transaction. The OIDC client secret is sealed (domain/ssoSecrets.ts) and never leaves this module but as
 * `clientSecretSet`. The SAML metadata's text is in the trail as its digest only (it can be 200 KB).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AttributeMapping, SsoConnection } from '../../common/api/ssoAnswers.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import type { SsoConnectionsTable, SsoProtocol } from '../db/types.js';
import { changesBetween, type AuditTrail, type Changes } from './audit.js';
import { keptMetadataXml, signingCertificates } from './ssoCertificates.js';
import type { SecretKeys } from './sealedSecrets.js';
import { sealClientSecret } from './ssoSecrets.js';
import { etagColumn, etagKey, satisfies, type Precondition } from './versions.js';

/** The most connections an organisation has (a list answered whole: one per IdP and a few on trial is plenty). */
export const MAX_CONNECTIONS = 20;

/** The attribute mapping a new connection gets where the request names none: each protocol's usual names. */
export const DEFAULT_ATTRIBUTE_MAPPING: Readonly<Record<SsoProtocol, AttributeMapping>> = Object.freeze({
  // OpenID Connect's standard claims (OpenID Connect Core §5.1)
  oidc: { email: 'email', familyName: 'family_name', givenName: 'given_name' },
  // the assertion's NameID (format emailAddress: Entra ID, Okta and Google Workspace all offer it), and the claim
  // types Entra ID and AD FS send the names as
  saml: {
    email: 'nameID',
    familyName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    givenName: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
  },
});

/** The settings a manager sends; absent ones stay as they are (on creation: empty, or the defaults). */
export interface ConnectionSettings {
  name?: string;
  issuer?: string | null;
  clientId?: string | null;
  /** A new secret (the stored one is never shown, so it is only ever replaced). */
  clientSecret?: string;
  idpMetadataXml?: string | null;
  idpMetadataUrl?: string | null;
  attributeMapping?: Partial<AttributeMapping>;
  trustIdpMfa?: boolean;
  jitProvisioning?: boolean;
  idpInitiated?: boolean;
}

export interface NewConnection extends ConnectionSettings {
  protocol: SsoProtocol;
  name: string;
}

export interface ConnectionChange extends ConnectionSettings {
  state?: 'on' | 'paused';
}

/** A stored connection with its version, before the answer's URLs are added. */
export type ConnectionRecord = Omit<SsoConnection, 'redirectUri' | 'spEntityId' | 'acsUrl' | 'spMetadataUrl'>;

/** The portal's own URLs a customer registers at its IdP (the sign-in flow serves them). */
export function federationUrls(publicUrl: string, connection: { id: string; protocol: SsoProtocol }) {
  const saml = `${publicUrl}/saml/${connection.id}`;
  return connection.protocol === 'oidc'
    ? { redirectUri: `${publicUrl}/oidc/federation/callback`, spEntityId: null, acsUrl: null, spMetadataUrl: null }
    : { redirectUri: null, spEntityId: saml, acsUrl: `${saml}/acs`, spMetadataUrl: `${saml}/metadata` };
}

/** A connection as the API answers it. */
export const shownConnection = (publicUrl: string, record: ConnectionRecord): SsoConnection => ({ ...record, ...federationUrls(publicUrl, record) });

const COLUMNS = [
  'id', 'organizationId', 'protocol', 'name', 'state', 'issuer', 'clientId', 'clientSecretEncrypted', 'idpMetadataXml', 'idpMetadataUrl',
  'attributeEmail', 'attributeFamilyName', 'attributeGivenName', 'trustIdpMfa', 'jitProvisioning', 'idpInitiated', 'createdAt', 'updatedAt',
  'idpMetadataFetchedXml', 'idpMetadataFetchedFrom',
] as const satisfies readonly (keyof SsoConnectionsTable)[];

const selectRows = (db: Db, key: string) => db.selectFrom('ssoConnections').select([...COLUMNS, etagColumn(key, 'ssoConnections').as('etag')]);

type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;

function recordOf(row: Row): ConnectionRecord {
  return {
    id: row.id,
    protocol: row.protocol,
    name: row.name,
    state: row.state,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecretSet: row.clientSecretEncrypted !== null,
    idpMetadataUrl: row.idpMetadataUrl,
    idpMetadataXml: row.idpMetadataXml,
    signingCertificates: signingCertificates(keptMetadataXml(row)).map((certificate) => ({ notAfter: certificate.notAfter.toISOString(), fingerprint: certificate.fingerprint256 })),
    attributeMapping: { email: row.attributeEmail, familyName: row.attributeFamilyName, givenName: row.attributeGivenName },
    trustIdpMfa: row.trustIdpMfa,
    jitProvisioning: row.jitProvisioning,
    idpInitiated: row.idpInitiated,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    etag: row.etag,
  };
}

/** The organisation's connections, oldest first (at most MAX_CONNECTIONS). */
export async function listConnections(db: Db, organizationId: number): Promise<ConnectionRecord[]> {
  const rows = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).orderBy('createdAt').orderBy('id').execute();
  return rows.map(recordOf);
}

export async function findConnection(db: Db, organizationId: number, id: string): Promise<ConnectionRecord | undefined> {
  const row = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row && recordOf(row);
}

/** Settings that belong to the other protocol: a field error each (nothing is silently dropped). */
function foreignSettings(protocol: SsoProtocol, settings: ConnectionSettings): FieldError[] {
  const foreign = protocol === 'saml' ? (['issuer', 'clientId', 'clientSecret'] as const) : (['idpMetadataXml', 'idpMetadataUrl', 'idpInitiated'] as const);
  return foreign.filter((field) => settings[field] !== undefined && settings[field] !== null && settings[field] !== false).map((field) => fieldError(field, FIELD_ERROR.invalid));
}

const fieldError = (field: string, code: string): FieldError => ({ field: field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), code, meta: {} });

/** The columns a change sets (the secret sealed for the connection); metadata as XML or as a URL, never both. */
async function columnsOf(keys: SecretKeys, id: string, settings: ConnectionSettings) {
  const columns: Updateable<SsoConnectionsTable> = {};
  if (settings.name !== undefined) columns.name = settings.name;
  if (settings.issuer !== undefined) columns.issuer = settings.issuer;
  if (settings.clientId !== undefined) columns.clientId = settings.clientId;
  if (settings.trustIdpMfa !== undefined) columns.trustIdpMfa = settings.trustIdpMfa;
  if (settings.jitProvisioning !== undefined) columns.jitProvisioning = settings.jitProvisioning;
  if (settings.idpInitiated !== undefined) columns.idpInitiated = settings.idpInitiated;
  if (settings.clientSecret !== undefined) columns.clientSecretEncrypted = await sealClientSecret(keys, id, settings.clientSecret);
  if (settings.idpMetadataXml !== undefined) columns.idpMetadataXml = settings.idpMetadataXml;
  if (settings.idpMetadataUrl !== undefined) columns.idpMetadataUrl = settings.idpMetadataUrl;
  if (settings.idpMetadataXml) columns.idpMetadataUrl = null;
  if (settings.idpMetadataUrl) columns.idpMetadataXml = null;
  const mapping = settings.attributeMapping ?? {};
  if (mapping.email !== undefined) columns.attributeEmail = mapping.email;
  if (mapping.familyName !== undefined) columns.attributeFamilyName = mapping.familyName;
  if (mapping.givenName !== undefined) columns.attributeGivenName = mapping.givenName;
  return columns;
}

/** What a connection needs before it is turned on (or tested): the missing settings, as blank fields. */
export function missingForSignIn(row: Pick<Row, 'protocol' | 'issuer' | 'clientId' | 'clientSecretEncrypted' | 'idpMetadataXml' | 'idpMetadataUrl'>): FieldError[] {
  if (row.protocol === 'oidc') {
    const missing = [['issuer', row.issuer], ['clientId', row.clientId], ['clientSecret', row.clientSecretEncrypted]] as const;
    return missing.filter(([, value]) => value === null).map(([field]) => fieldError(field, FIELD_ERROR.blank));
  }
  return row.idpMetadataXml === null && row.idpMetadataUrl === null ? [fieldError('idpMetadataXml', FIELD_ERROR.blank), fieldError('idpMetadataUrl', FIELD_ERROR.blank)] : [];
}

// ---------------------------------------------------------------------------------------------------
// The trail

const AUDITED = ['name', 'state', 'issuer', 'clientId', 'idpMetadataUrl', 'idpMetadataXml', 'attributeEmail', 'attributeFamilyName', 'attributeGivenName', 'trustIdpMfa', 'jitProvisioning', 'idpInitiated'];

/** The metadata's text as the trail keeps it: its SHA-256, enough to tell one version from another. */
const digest = (xml: string | null) => (xml === null ? null : `sha256:${createHash('sha256').update(xml).digest('hex').slice(0, 16)}`);

const audited = (row: Row | undefined) => row && { ...row, idpMetadataXml: digest(row.idpMetadataXml) };

/** The changes between two versions; a replaced client secret is said without a value (changesBetween leaves secrets out). */
function connectionChanges(before: Row | undefined, after: Row | undefined, secretReplaced: boolean): Changes {
  const changes = changesBetween(audited(before), audited(after), AUDITED);
  if (secretReplaced) changes.clientSecret = { before: before?.clientSecretEncrypted ? 'set' : null, after: 'replaced' };
  return changes;
}

const target = (row: Row) => ({ type: 'ssoConnection' as const, id: row.id, label: row.name });

// ---------------------------------------------------------------------------------------------------
// The writes

/** A write's outcome: done, or why not (the organisation has no such connection, another version, field errors, the limit). */
export type SsoWrite<Result> =
  | { outcome: 'done'; result: Result }
  | { outcome: 'not_found' }
  | { outcome: 'stale' }
  | { outcome: 'invalid'; errors: FieldError[] }
  | { outcome: 'limit' };

/** Locks the organisation's row against its other creations (no key update: rows that refer to it are still added). */
const lockOrganization = (trx: Db, organizationId: number) => trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forNoKeyUpdate().executeTakeFirstOrThrow();

/** Creates a draft connection (the protocol's default attribute mapping where none is sent), unless the organisation has MAX_CONNECTIONS. */
export async function createConnection(keys: SecretKeys, organizationId: number, connection: NewConnection, trail: AuditTrail): Promise<SsoWrite<ConnectionRecord>> {
  const { db } = keys;
  const errors = foreignSettings(connection.protocol, connection);
  if (errors.length > 0) return { outcome: 'invalid', errors };
  const key = await etagKey(db);
  const id = randomUUID();
  const mapping = { ...DEFAULT_ATTRIBUTE_MAPPING[connection.protocol], ...connection.attributeMapping };
  const columns = await columnsOf(keys, id, { ...connection, attributeMapping: mapping });
  return db.transaction().execute(async (trx): Promise<SsoWrite<ConnectionRecord>> => {
    await lockOrganization(trx, organizationId);
    const { count } = await trx.selectFrom('ssoConnections').select((eb) => eb.fn.countAll<string>().as('count')).where('organizationId', '=', organizationId).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_CONNECTIONS) return { outcome: 'limit' };
    await trx.insertInto('ssoConnections').values({ ...columns, id, organizationId, protocol: connection.protocol, name: connection.name, attributeEmail: mapping.email }).execute();
    const row = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    await trail.record(trx, { action: 'sso.connectionCreated', target: target(row), changes: connectionChanges(undefined, row, connection.clientSecret !== undefined) });
    return { outcome: 'done', result: recordOf(row) };
  });
}

const lockedRow = (trx: Db, key: string, organizationId: number, id: string) =>
  selectRows(trx, key).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();

/** Changes the connection's settings or state if it is still the version asked for; turning it on needs its settings complete. */
export async function updateConnection(
  keys: SecretKeys,
  organizationId: number,
  id: string,
  change: { settings: ConnectionChange; precondition?: Precondition },
  trail: AuditTrail,
): Promise<SsoWrite<ConnectionRecord>> {
  const { db } = keys;
  const key = await etagKey(db);
  const { settings } = change;
  const columns = await columnsOf(keys, id, settings);
  return db.transaction().execute(async (trx): Promise<SsoWrite<ConnectionRecord>> => {
    const before = await lockedRow(trx, key, organizationId, id);
    if (!before) return { outcome: 'not_found' };
    if (!satisfies(before.etag, change.precondition)) return { outcome: 'stale' };
    const errors = foreignSettings(before.protocol, settings);
    if (errors.length > 0) return { outcome: 'invalid', errors };
    await trx.updateTable('ssoConnections').set({ ...columns, ...(settings.state && { state: settings.state }), updatedAt: new Date() }).where('id', '=', id).execute();
    const after = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    if (settings.state === 'on') {
      const missing = missingForSignIn(after);
      // thrown, so that the transaction rolls the change back
      if (missing.length > 0) throw new Incomplete(missing);
    }
    const changes = connectionChanges(before, after, settings.clientSecret !== undefined);
    if (Object.keys(changes).length > 0) await trail.record(trx, { action: 'sso.connectionChanged', target: target(after), changes });
    return { outcome: 'done', result: recordOf(after) };
  }).catch((error: unknown) => {
    if (error instanceof Incomplete) return { outcome: 'invalid', errors: error.errors };
    throw error;
  });
}

/** A connection turned on without what sign-in needs: thrown to roll the change back. */
class Incomplete extends Error {
  constructor(readonly errors: FieldError[]) {
    super('the connection is not complete');
  }
}

/**
 * Deletes the connection if it is still the version asked for. Domains whose admins it signed in — routed to it, or by
 * default as the organisation's only active connection — stop requiring single sign-on (else nobody at them could
 * sign in at all), each with its trail entry; a domain routed to it goes back to the default route.
 */
export async function deleteConnection(db: Db, organizationId: number, id: string, precondition: Precondition | undefined, trail: AuditTrail): Promise<SsoWrite<true>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<SsoWrite<true>> => {
    const row = await lockedRow(trx, key, organizationId, id);
    if (!row) return { outcome: 'not_found' };
    if (!satisfies(row.etag, precondition)) return { outcome: 'stale' };
    const active = await trx.selectFrom('ssoConnections').select('id').where('organizationId', '=', organizationId).where('state', '=', 'on').execute();
    const defaultRoute = active.length === 1 && active[0]!.id === id;
    const enforced = await trx
      .updateTable('ssoDomains')
      .set({ requireSso: false, updatedAt: new Date() })
      .where('organizationId', '=', organizationId)
      .where('requireSso', '=', true)
      .where((eb) => (defaultRoute ? eb.or([eb('connectionId', '=', id), eb('connectionId', 'is', null)]) : eb('connectionId', '=', id)))
      .returning(['id', 'domain'])
      .execute();
    for (const domain of enforced) {
      await trail.record(trx, { action: 'sso.domainChanged', target: { type: 'ssoDomain', id: domain.id, label: domain.domain }, changes: { requireSso: { before: true, after: false } } });
    }
    await trx.deleteFrom('ssoConnections').where('id', '=', id).execute();
    await trail.record(trx, { action: 'sso.connectionDeleted', target: target(row), changes: connectionChanges(row, undefined, false) });
    return { outcome: 'done', result: true };
  });
}

/** The organisation's connection a domain without one of its own routes to: its only active one, if it has exactly one. */
export async function defaultConnectionId(db: Db, organizationId: number): Promise<string | undefined> {
  const active = await db.selectFrom('ssoConnections').select('id').where('organizationId', '=', organizationId).where('state', '=', 'on').limit(2).execute();
  return active.length === 1 ? active[0]!.id : undefined;
}
