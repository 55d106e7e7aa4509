/**
 * Versions of what a second admin can change (issue 28: no lost update). A record's version is its row's `xmin`, the
 * transaction that last wrote it (PostgreSQL and PGlite alike): every write changes it, and no two writes share one
 * however close in time, which a timestamp cannot promise. The API shows it as a strong entity tag (RFC 9110 §8.8.3)
 * and takes it back in If-Match (api/preconditions.ts); a write made on another version than the one asked for
 * changes nothing, and the trail tells who made the version there is.
 *
 * The tag is a keyed hash of the table, the row's id and its xmin (issue 44), never xmin itself: xmin is the
 * database's transaction counter, which any tenant would watch everyone's writes by, and rows written by one
 * transaction share it. The database computes it, for one record as for a list of thousands, so both show the same.
 */
import { sql } from 'kysely';
import type { AuditAction } from '../../common/auditActions.js';
import type { Language } from '../../common/languages.js';
import { formatPersonName } from '../../common/personName.js';
import type { Db } from '../db/index.js';
import { serverSecret } from './serverSecrets.js';

/**
 * The key of the entity tags, a server secret (read once per database). Ask it of the database, never of a
 * transaction: serverSecrets.ts caches it per Db, and a key first made in a transaction that rolls back is lost.
 */
export const etagKey = (db: Db): Promise<string> => serverSecret(db, 'etag_key');

/**
 * The entity tag of the row of `table` (select it `as etag`, also in RETURNING): the first 128 bits of SHA-256 over
 * the key, the table, the row's id and its xmin, in base64url, quoted. PostgreSQL's own sha256() (no pgcrypto: PGlite
 * has none); the key travels as a parameter, never in the statement's text.
 */
export const etagColumn = (key: string, table: string) =>
  sql<string>`'"' || translate(encode(substr(sha256(convert_to(${key}::text || ':' || ${table}::text || ':' || ${sql.ref(`${table}.id`)}::text || ':' || ${sql.ref(`${table}.xmin`)}::text, 'UTF8')), 1, 16), 'base64'), '+/=', '-_') || '"'`;

/**
 * The version of an organisation's list (migration 0113), as text: the organisation's own and, for a list that shows
 * what every organisation's do (the catalogue), organisation 0's; '0' before a first change.
 */
export function listVersion(db: Db, list: 'admins' | 'applications', organizationId: number) {
  const of = (organization: number) =>
    sql<string>`coalesce((${db.selectFrom('listVersions').select(sql<string>`version::text`.as('version')).where('listVersions.organizationId', '=', organization).where('listVersions.list', '=', list)}), '0')`;
  return list === 'admins' ? of(organizationId) : sql<string>`${of(organizationId)} || '.' || ${of(0)}`;
}

/** What a write asks of the record's version: any (`*`), or one of these strong entity tags. Without a condition, any. */
export type Precondition = '*' | readonly string[];

export function satisfies(etag: string, precondition: Precondition | undefined): boolean {
  return precondition === undefined || precondition === '*' || precondition.includes(etag);
}

/** What the trail calls a record: its type and id (a number, or a requestCode), and the actions that change it (else any). */
export interface VersionedTarget {
  type: string;
  id: number | string;
  actions?: readonly string[];
}

/** A write asked for another version of the record than the one there is: nothing was written (the API answers 412). */
export class StaleVersion extends Error {
  constructor(readonly target: VersionedTarget) {
    super(`${target.type} ${target.id} changed since the version asked for`);
    this.name = 'StaleVersion';
  }
}

/** Refuses the write unless the record is still a version the precondition asks for. */
export function requireVersion(etag: string, precondition: Precondition | undefined, target: VersionedTarget): void {
  if (!satisfies(etag, precondition)) throw new StaleVersion(target);
}

/** Who made a record's present version, and when: the trail's last entry about it. */
export interface LastChange {
  name: string;
  email: string;
  /** ISO 8601. */
  at: string;
}

/** The trail's entries of an organisation with what a LastChange needs: the actor's e-mail of the time, present name, time. */
export const trailEntriesWithActor = (db: Db, organizationId: number) =>
  db
    .selectFrom('auditEvents')
    .leftJoin('admins', 'admins.id', 'auditEvents.actorAdminId')
    .select(['auditEvents.actorEmail', 'auditEvents.actorApiClientName', 'auditEvents.occurredAt', 'admins.firstName', 'admins.lastName', 'admins.kanaFirstName', 'admins.kanaLastName'])
    .where('auditEvents.organizationId', '=', organizationId);

type TrailEntryWithActor = NonNullable<Awaited<ReturnType<ReturnType<typeof trailEntriesWithActor>['executeTakeFirst']>>>;

/** An entry of trailEntriesWithActor as a LastChange (the admin's present name; the e-mail of the time). */
export function lastChangeOf(entry: TrailEntryWithActor | undefined, language: Language): LastChange | undefined {
  if (!entry) return undefined;
  const person = entry.lastName === null ? null : { lastName: entry.lastName, firstName: entry.firstName ?? '', kanaLastName: entry.kanaLastName ?? '', kanaFirstName: entry.kanaFirstName ?? '' };
  // an API client (issue 46) is named by its name of the time
  return { name: entry.actorApiClientName ?? (formatPersonName(person, language) || entry.actorEmail), email: entry.actorEmail, at: new Date(entry.occurredAt).toISOString() };
}

/** The trail's last entry about the target, as a LastChange. */
export async function lastChange(db: Db, organizationId: number, target: VersionedTarget, language: Language): Promise<LastChange | undefined> {
  const entry = await trailEntriesWithActor(db, organizationId)
    .where('auditEvents.targetType', '=', target.type)
    .where('auditEvents.targetId', '=', String(target.id))
    .$if(target.actions !== undefined, (query) => query.where('auditEvents.action', 'in', target.actions as AuditAction[]))
    .orderBy('auditEvents.occurredAt', 'desc')
    .orderBy('auditEvents.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return lastChangeOf(entry, language);
}
