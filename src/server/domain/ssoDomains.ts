/**
 * The e-mail domains an organisation claims for single sign-on (issue 45), proved by a DNS TXT record:
 *
 *   _corporate-admin-portal-verification.<domain>  TXT  "corporate-admin-portal-verification=<token>"
 *
 * A record of its own name (not the domain's apex, where SPF and others' records are) names the portal, so it never
 * mixes with another service's. A domain is verified by at most one organisation: several may claim it while it is
 * pending, the first to verify gets it (a unique index of the verified ones decides a race), and the others are then
 * refused. Free-mail domains are refused (domain/freeMailDomains.ts).
 *
 * A domain routes its admins to one of the organisation's connections (connection_id), by default its only active one;
 * requiring single sign-on for it (require_sso) needs it verified and that connection on.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import type { SsoDomain } from '../../common/api/ssoAnswers.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { isFreeMailDomain } from './freeMailDomains.js';
import { defaultConnectionId, type SsoWrite } from './ssoConnections.js';
import { etagColumn, etagKey, satisfies, type Precondition } from './versions.js';

/** The most domains an organisation claims (a list answered whole). */
export const MAX_DOMAINS = 50;

export const TXT_RECORD_PREFIX = '_corporate-admin-portal-verification';
export const TXT_VALUE_PREFIX = 'corporate-admin-portal-verification=';

/** The record a domain's owner publishes. */
export const txtRecordOf = (domain: string, token: string) => ({ name: `${TXT_RECORD_PREFIX}.${domain}`, value: `${TXT_VALUE_PREFIX}${token}` });

/**
 * A domain as stored: lower-case ASCII, an internationalised one as punycode (ＥＸＡＭＰＬＥ.jp and 例え.jp are
 * accepted and converted), no trailing dot; at least two labels of letters, digits and inner hyphens, a top-level
 * label that is not all digits. Undefined when it is none.
 */
export function normalizeDomain(input: string): string | undefined {
  const ascii = domainToASCII(input.trim().replace(/\.$/, ''));
  if (ascii === '' || ascii.length > 253) return undefined;
  const labels = ascii.split('.');
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1)!)) return undefined;
  return labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) ? ascii : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Reading

const COLUMNS = ['id', 'organizationId', 'domain', 'connectionId', 'verificationToken', 'verifiedAt', 'requireSso', 'createdAt'] as const;

const selectRows = (db: Db, key: string) => db.selectFrom('ssoDomains').select([...COLUMNS, etagColumn(key, 'ssoDomains').as('etag')]);

type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;

function recordOf(row: Row): SsoDomain {
  return {
    id: row.id,
    domain: row.domain,
    verified: row.verifiedAt !== null,
    verifiedAt: row.verifiedAt === null ? null : new Date(row.verifiedAt).toISOString(),
    txtRecord: txtRecordOf(row.domain, row.verificationToken),
    connectionId: row.connectionId,
    requireSso: row.requireSso,
    createdAt: new Date(row.createdAt).toISOString(),
    etag: row.etag,
  };
}

/** The organisation's domains, oldest first (at most MAX_DOMAINS). */
export async function listDomains(db: Db, organizationId: number): Promise<SsoDomain[]> {
  const rows = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).orderBy('createdAt').orderBy('id').execute();
  return rows.map(recordOf);
}

export async function findDomain(db: Db, organizationId: number, id: string): Promise<SsoDomain | undefined> {
  const row = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row && recordOf(row);
}

/** PostgreSQL's unique_violation (PGlite's errors carry the same SQLSTATE). */
const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === '23505';

/** The organisation that has verified the domain, if one has. */
const verifiedBy = (db: Db, domain: string) => db.selectFrom('ssoDomains').select('organizationId').where('domain', '=', domain).where('verifiedAt', 'is not', null).executeTakeFirst();

const fieldError = (field: string, code: string, meta: Record<string, unknown> = {}): FieldError => ({ field, code, meta });
const target = (row: { id: string; domain: string }) => ({ type: 'ssoDomain' as const, id: row.id, label: row.domain });
const AUDITED = ['domain', 'verified', 'connectionId', 'requireSso'];
const audited = (row: Row | undefined) => row && { ...row, verified: row.verifiedAt !== null };

// ---------------------------------------------------------------------------------------------------
// Writes

/**
 * Claims a domain (the caller has normalised it): refused when it is free mail, already the organisation's, verified
 * by another organisation, or the organisation has MAX_DOMAINS. Its verification token is new and random.
 */
export async function addDomain(db: Db, organizationId: number, domain: string, freeMailDomains: readonly string[], trail: AuditTrail): Promise<SsoWrite<SsoDomain>> {
  if (isFreeMailDomain(domain, freeMailDomains)) return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.freeMailDomain)] };
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<SsoWrite<SsoDomain>> => {
    await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forNoKeyUpdate().executeTakeFirstOrThrow();
    const own = await trx.selectFrom('ssoDomains').select(['domain']).where('organizationId', '=', organizationId).execute();
    if (own.some((row) => row.domain === domain)) return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.taken)] };
    const owner = await verifiedBy(trx, domain);
    if (owner) return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.taken)] };
    if (own.length >= MAX_DOMAINS) return { outcome: 'limit' };
    const id = randomUUID();
    await trx.insertInto('ssoDomains').values({ id, organizationId, domain, verificationToken: randomBytes(24).toString('base64url') }).execute();
    const row = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    await trail.record(trx, { action: 'sso.domainAdded', target: target(row), changes: changesBetween(undefined, audited(row), AUDITED) });
    return { outcome: 'done', result: recordOf(row) };
  });
}

/** What a TXT lookup found: the records' texts (each record's strings joined), none, or no answer (a resolver's failure). */
export type TxtAnswer = { found: string[] } | { found: 'none' } | { found: 'failed'; code: string };

/** Looks up TXT records through the given resolvers (DNS_SERVERS) or the system's, a few seconds at most. */
export function txtResolver(servers: readonly string[] | undefined): (name: string) => Promise<TxtAnswer> {
  return async (name) => {
    const resolver = new Resolver({ timeout: 3000, tries: 2 });
    if (servers) resolver.setServers([...servers]);
    try {
      return { found: (await resolver.resolveTxt(name)).map((strings) => strings.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
      // the name or its TXT records do not exist: the record is not published (yet)
      return code === 'ENOTFOUND' || code === 'ENODATA' ? { found: 'none' } : { found: 'failed', code };
    }
  };
}

/**
 * Verifies the domain by its TXT record (looked up before the transaction, which holds no lock over the network):
 * already verified, it is answered as it is; the record missing (422 txtRecordMissing), the resolvers failing
 * (dnsLookupFailed) or another organisation verifying it first (taken) leave it pending.
 */
export async function verifyDomain(db: Db, organizationId: number, id: string, lookup: (name: string) => Promise<TxtAnswer>, trail: AuditTrail): Promise<SsoWrite<SsoDomain>> {
  const domain = await findDomain(db, organizationId, id);
  if (!domain) return { outcome: 'not_found' };
  if (domain.verified) return { outcome: 'done', result: domain };
  const answer = await lookup(domain.txtRecord.name);
  if (answer.found === 'failed') return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.dnsLookupFailed, { dnsError: answer.code })] };
  if (answer.found === 'none' || !answer.found.some((text) => text.trim() === domain.txtRecord.value)) {
    return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.txtRecordMissing, { ...domain.txtRecord })] };
  }
  const key = await etagKey(db);
  try {
    return await db.transaction().execute(async (trx): Promise<SsoWrite<SsoDomain>> => {
      const before = await selectRows(trx, key).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
      if (!before) return { outcome: 'not_found' };
      if (before.verifiedAt !== null) return { outcome: 'done', result: recordOf(before) };
      if (await verifiedBy(trx, before.domain)) return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.taken)] };
      await trx.updateTable('ssoDomains').set({ verifiedAt: new Date(), updatedAt: new Date() }).where('id', '=', id).execute();
      const after = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
      await trail.record(trx, { action: 'sso.domainVerified', target: target(after), changes: changesBetween(audited(before), audited(after), AUDITED) });
      return { outcome: 'done', result: recordOf(after) };
    });
  } catch (error) {
    // another organisation's verification committed between the check and this one's (the unique index of verified domains)
    if (isUniqueViolation(error)) return { outcome: 'invalid', errors: [fieldError('domain', FIELD_ERROR.taken)] };
    throw error;
  }
}

export interface DomainChange {
  /** One of the organisation's connections; null: its only active one. */
  connectionId?: string | null;
  requireSso?: boolean;
}

/**
 * Routes the domain to a connection or requires single sign-on for it, if it is still the version asked for.
 * Requiring it — turning it on, or moving a domain that requires it to another connection — needs `federatedThrough`
 * (the connection the caller's session signed in through, which must be the domain's own: else 'federation_required',
 * nothing changed), the domain verified and its connection on.
 */
export async function changeDomain(
  db: Db,
  organizationId: number,
  id: string,
  change: { settings: DomainChange; precondition?: Precondition; federatedThrough: string | undefined },
  trail: AuditTrail,
): Promise<SsoWrite<SsoDomain> | { outcome: 'federation_required' }> {
  const key = await etagKey(db);
  const { settings } = change;
  return db.transaction().execute(async (trx): Promise<SsoWrite<SsoDomain> | { outcome: 'federation_required' }> => {
    const before = await selectRows(trx, key).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!before) return { outcome: 'not_found' };
    if (!satisfies(before.etag, change.precondition)) return { outcome: 'stale' };
    const connectionId = settings.connectionId === undefined ? before.connectionId : settings.connectionId;
    const requireSso = settings.requireSso ?? before.requireSso;
    const requiring = requireSso && (!before.requireSso || connectionId !== before.connectionId);
    if (requiring && !change.federatedThrough) return { outcome: 'federation_required' };
    const errors = await domainErrors(trx, organizationId, { connectionId, requireSso, verified: before.verifiedAt !== null });
    if (errors.length > 0) return { outcome: 'invalid', errors };
    // a session through another IdP proves nothing of this one: whoever turns it on has just signed in through it
    if (requiring && (connectionId ?? (await defaultConnectionId(trx, organizationId))) !== change.federatedThrough) return { outcome: 'federation_required' };
    await trx.updateTable('ssoDomains').set({ connectionId, requireSso, updatedAt: new Date() }).where('id', '=', id).execute();
    const after = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    const changes = changesBetween(audited(before), audited(after), AUDITED);
    if (Object.keys(changes).length > 0) await trail.record(trx, { action: 'sso.domainChanged', target: target(after), changes });
    return { outcome: 'done', result: recordOf(after) };
  });
}

/** A route to an unknown connection; a requirement on a pending domain, or on one whose connection is not on. */
async function domainErrors(trx: Db, organizationId: number, domain: { connectionId: string | null; requireSso: boolean; verified: boolean }): Promise<FieldError[]> {
  const connection = domain.connectionId === null ? undefined : await trx.selectFrom('ssoConnections').select('state').where('organizationId', '=', organizationId).where('id', '=', domain.connectionId).forShare().executeTakeFirst();
  if (domain.connectionId !== null && !connection) return [fieldError('connection_id', FIELD_ERROR.notFound)];
  if (!domain.requireSso) return [];
  if (!domain.verified) return [fieldError('require_sso', FIELD_ERROR.notVerified)];
  const active = connection ? connection.state === 'on' : (await defaultConnectionId(trx, organizationId)) !== undefined;
  return active ? [] : [fieldError('require_sso', FIELD_ERROR.connectionNotOn)];
}

/** Deletes the domain if it is still the version asked for (its requirement goes with it). */
export async function deleteDomain(db: Db, organizationId: number, id: string, precondition: Precondition | undefined, trail: AuditTrail): Promise<SsoWrite<true>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<SsoWrite<true>> => {
    const row = await selectRows(trx, key).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
    if (!row) return { outcome: 'not_found' };
    if (!satisfies(row.etag, precondition)) return { outcome: 'stale' };
    await trx.deleteFrom('ssoDomains').where('id', '=', id).execute();
    await trail.record(trx, { action: 'sso.domainDeleted', target: target(row), changes: changesBetween(audited(row), undefined, AUDITED) });
    return { outcome: 'done', result: true };
  });
}

/** Whether the e-mail's domain is verified and requires single sign-on (issue 45): no password reset for it. */
export async function domainRequiresSso(db: Db, email: string): Promise<boolean> {
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  const row = await db.selectFrom('ssoDomains').select('requireSso').where('domain', '=', domain).where('verifiedAt', 'is not', null).executeTakeFirst();
  return row?.requireSso ?? false;
}
