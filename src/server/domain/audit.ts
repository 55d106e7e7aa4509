/**
 * The audit trail (issue 21): who did what, when, in each organisation. An entry is recorded with the connection or
 * transaction of the write it describes, so there is no entry without the change and no change without its entry; a
 * write that is refused or rolled back leaves nothing, a dry run never calls it.
 *
 * Routes bind the actor and the organisation (api/audit.ts) and may record only the actions their route config
 * declares; the domain functions call `trail.record(trx, entry)` inside their transactions.
 */
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { AuditEvent } from '../../common/api/auditAnswers.js';
import type { AuditAction, AuditTargetType } from '../../common/auditActions.js';
import type { Db } from '../db/index.js';
import { preparedStatement } from '../db/preparedStatements.js';
import { CSV_BATCH_ROWS, csvStream } from './csv.js';

/** before → after of one field; null where the field did not exist (creation, deletion). */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

export type Changes = Record<string, FieldChange>;

export interface AuditEntry {
  action: AuditAction;
  target: { type: AuditTargetType; id: string | number; label: string };
  changes?: Changes;
}

/** Who acts, and where: one organisation, or (account and sign-in events) every organisation of the actor. */
export interface AuditActor {
  adminId: number;
  organizationId?: number;
}

export interface AuditTrail {
  record(db: Db, entry: AuditEntry): Promise<void>;
}

/** Fields never written into the trail, whatever a caller passes: passwords, tokens, secrets and their hashes. */
const SECRET_FIELD = /password|token|secret|hash|otp/i;

/**
 * The fields whose values differ between two versions (undefined on creation or deletion), secrets left out.
 * Values are compared as JSON, so dates and arrays compare by content.
 */
export function changesBetween(before: object | undefined, after: object | undefined, fields?: readonly string[]): Changes {
  const was = (before ?? {}) as Record<string, unknown>;
  const is = (after ?? {}) as Record<string, unknown>;
  const names = fields ?? [...new Set([...Object.keys(was), ...Object.keys(is)])];
  const changes: Changes = {};
  for (const name of names) {
    if (SECRET_FIELD.test(name)) continue;
    const change = { before: was[name] ?? null, after: is[name] ?? null };
    if (JSON.stringify(change.before) !== JSON.stringify(change.after)) changes[name] = change;
  }
  return changes;
}

const ENTRY_COLUMNS = 'organization_id, actor_admin_id, actor_email, action, target_type, target_id, target_label, changes';
/** The actor's e-mail as it is at the time, read in the same statement. */
const ACTOR_EMAIL = `coalesce((select email from admins where id = $1::int), '')`;

/** An organisation's entry (nearly every write): planned once per connection, as planning it cost more than running it. */
const insertEntry = preparedStatement('audit_event_insert', `insert into audit_events (${ENTRY_COLUMNS}) values ($2::int, $1::int, ${ACTOR_EMAIL}, $3, $4, $5, $6, $7::jsonb)`);

/** An account event: one entry in every organisation of the actor. */
const insertEntryEverywhere = preparedStatement(
  'audit_event_insert_everywhere',
  `insert into audit_events (${ENTRY_COLUMNS}) select organization_id, $1::int, ${ACTOR_EMAIL}, $2, $3, $4, $5, $6::jsonb from affiliations where admin_id = $1::int`,
);

/** Records one entry for the actor, in `db` (the write's transaction): one statement whatever the fan-out. */
export async function recordAuditEvent(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const { action, target } = entry;
  const described = [action, target.type, String(target.id), target.label, JSON.stringify(entry.changes ?? {})];
  await db.executeQuery(
    actor.organizationId === undefined ? insertEntryEverywhere([actor.adminId, ...described]) : insertEntry([actor.adminId, actor.organizationId, ...described]),
  );
}

/** A trail for the actor that records only the declared actions: anything else is a programming error. */
export function auditTrail(actor: AuditActor, declared: readonly AuditAction[]): AuditTrail {
  return {
    record: async (db, entry) => {
      if (!declared.includes(entry.action)) throw new Error(`audit action ${entry.action} is not declared by the route (config.audit)`);
      await recordAuditEvent(db, actor, entry);
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The list and the export

/** What the list is narrowed to: a period (Tokyo days, inclusive), the acting admin, the action, the target (its type, its id). */
export interface AuditFilter {
  from?: string;
  to?: string;
  adminId?: number;
  action?: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
}

/** Where a page starts: after the event of this time (PostgreSQL's own text, microseconds kept) and id. */
interface Cursor {
  time: string;
  id: string;
}

/** PostgreSQL's text of a timestamptz: 2026-11-24 18:58:31.123456+00 */
const CURSOR_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;

export const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify([cursor.time, cursor.id])).toString('base64url');

/** The cursor in a request, or undefined when it is not one this API made. */
export function decodeCursor(text: string): Cursor | undefined {
  try {
    const [time, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof time !== 'string' || !CURSOR_TIME.test(time) || typeof id !== 'string' || !/^\d{1,18}$/.test(id)) return undefined;
    return { time, id };
  } catch {
    return undefined;
  }
}

/**
 * Japan has no daylight saving: a Tokyo day starts at 00:00+09:00. Days outside 1970–9999 are brought to its ends
 * (they bound nothing more), where JavaScript's dates and the database's agree.
 */
function tokyoDayStart(day: string, plusDays = 0): Date {
  const within = day < '1970-01-01' ? '1970-01-01' : day > '9999-12-30' ? '9999-12-30' : day;
  return new Date(Date.parse(`${within}T00:00:00+09:00`) + plusDays * 86_400_000);
}

function auditQuery(db: Db, organizationId: number, filter: AuditFilter) {
  let query = db
    .selectFrom('auditEvents')
    .select(['id', 'occurredAt', 'actorAdminId', 'actorEmail', 'action', 'targetType', 'targetId', 'targetLabel', 'changes', sql<string>`occurred_at::text`.as('cursorTime')])
    .where('organizationId', '=', organizationId);
  if (filter.from) query = query.where('occurredAt', '>=', tokyoDayStart(filter.from));
  if (filter.to) query = query.where('occurredAt', '<', tokyoDayStart(filter.to, 1));
  if (filter.adminId !== undefined) query = query.where('actorAdminId', '=', filter.adminId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.targetType) query = query.where('targetType', '=', filter.targetType);
  if (filter.targetId) query = query.where('targetId', '=', filter.targetId);
  return query.orderBy('occurredAt', 'desc').orderBy('id', 'desc');
}

type AuditRow = Awaited<ReturnType<ReturnType<typeof auditQuery>['execute']>>[number];

function toEvent(row: AuditRow): AuditEvent {
  const changes = (row.changes ?? {}) as Changes;
  return {
    id: String(row.id),
    occurredAt: new Date(row.occurredAt).toISOString(),
    actor: { adminId: row.actorAdminId, email: row.actorEmail },
    action: row.action as AuditAction,
    target: { type: row.targetType as AuditTargetType, id: row.targetId, label: row.targetLabel },
    changes: Object.entries(changes).map(([field, change]) => ({ field, before: change.before, after: change.after })),
  };
}

export interface AuditPage {
  auditEvents: AuditEvent[];
  nextCursor: string | null;
}

/** One page of the organisation's trail, newest first, after the cursor. */
export async function listAuditEvents(db: Db, organizationId: number, filter: AuditFilter, page: { cursor?: Cursor; limit: number }): Promise<AuditPage> {
  let query = auditQuery(db, organizationId, filter);
  if (page.cursor) query = query.where(sql<boolean>`(occurred_at, id) < (${page.cursor.time}::timestamptz, ${page.cursor.id}::bigint)`);
  const rows = await query.limit(page.limit + 1).execute();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return { auditEvents: shown.map(toEvent), nextCursor: rows.length > page.limit && last ? encodeCursor({ time: last.cursorTime, id: String(last.id) }) : null };
}

export const AUDIT_CSV_HEADER = ['occurredAt', 'actorEmail', 'action', 'targetType', 'targetId', 'targetLabel', 'changes'] as const;

const auditRecord = (event: AuditEvent): string[] => [
  event.occurredAt,
  event.actor.email,
  event.action,
  event.target.type,
  event.target.id,
  event.target.label,
  event.changes.map((change) => `${change.field}: ${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`).join('\n'),
];

/** The filtered trail a page at a time (the list's own pages and cursors), as CSV records. */
async function* auditBatches(db: Db, organizationId: number, filter: AuditFilter): AsyncGenerator<string[][]> {
  for (let cursor: Cursor | undefined; ; ) {
    const page = await listAuditEvents(db, organizationId, filter, { cursor, limit: CSV_BATCH_ROWS });
    yield page.auditEvents.map(auditRecord);
    cursor = page.nextCursor ? decodeCursor(page.nextCursor) : undefined;
    if (!cursor) return;
  }
}

/** The filtered trail as CSV (UTF-8 with a byte-order mark, CRLF), newest first, at most `maxRows` records, read a page at a time. */
export function auditEventsCsv(db: Db, organizationId: number, filter: AuditFilter, maxRows: number): Readable {
  return csvStream({ columns: AUDIT_CSV_HEADER, bom: true, maxRows }, auditBatches(db, organizationId, filter));
}
