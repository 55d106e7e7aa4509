/**
 * Versions of what a second admin can change (issue 28: no lost update). A record's version is its row's `xmin`, the
 * transaction that last wrote it (PostgreSQL and PGlite alike): every write changes it, and no two writes share one
 * however close in time, which a timestamp cannot promise. The API shows it as a strong entity tag (RFC 9110 §8.8.3)
 * and takes it back in If-Match (api/preconditions.ts); a write made on another version than the one asked for
 * changes nothing, and the trail tells who made the version there is.
 */
import { sql } from 'kysely';
import type { AuditAction } from '../../common/auditActions.js';
import type { Language } from '../../common/languages.js';
import { formatPersonName } from '../../common/personName.js';
import type { Db } from '../db/index.js';

/** The version of the row of `table` a query reads (select it `as version`). */
export const versionOf = (table: string) => sql<string>`${sql.ref(`${table}.xmin`)}::text`;

/** A version as the API shows it: a strong entity tag. */
export const etagOf = (version: string) => `"${version}"`;

/** The entity tag of the row of `table`, read with it (select it `as etag`): for records listed by the thousand. */
export const etagColumn = (table: string) => sql<string>`'"' || ${sql.ref(`${table}.xmin`)}::text || '"'`;

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

/** The trail's last entry about the target, as a LastChange (the admin's present name; the e-mail of the time). */
export async function lastChange(db: Db, organizationId: number, target: VersionedTarget, language: Language): Promise<LastChange | undefined> {
  const entry = await db
    .selectFrom('auditEvents')
    .leftJoin('admins', 'admins.id', 'auditEvents.actorAdminId')
    .select(['auditEvents.actorEmail', 'auditEvents.occurredAt', 'admins.firstName', 'admins.lastName', 'admins.kanaFirstName', 'admins.kanaLastName'])
    .where('auditEvents.organizationId', '=', organizationId)
    .where('auditEvents.targetType', '=', target.type)
    .where('auditEvents.targetId', '=', String(target.id))
    .$if(target.actions !== undefined, (query) => query.where('auditEvents.action', 'in', target.actions as AuditAction[]))
    .orderBy('auditEvents.occurredAt', 'desc')
    .orderBy('auditEvents.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!entry) return undefined;
  const person = entry.lastName === null ? null : { lastName: entry.lastName, firstName: entry.firstName ?? '', kanaLastName: entry.kanaLastName ?? '', kanaFirstName: entry.kanaFirstName ?? '' };
  return { name: formatPersonName(person, language) || entry.actorEmail, email: entry.actorEmail, at: new Date(entry.occurredAt).toISOString() };
}
