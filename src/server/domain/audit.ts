/**
 * The audit trail (issue 21): who did what, when, in each organisation. An entry is recorded with the connection or
 * transaction of the write it describes, so there is no entry without the change and no change without its entry; a
 * write that is refused or rolled back leaves nothing, a dry run never calls it.
 *
 * Routes bind the actor and the organisation (api/audit.ts) and may record only the actions their route config
 * declares; the domain functions call `trail.record(trx, entry)` inside their transactions, or `trail.recordWrite` to
 * carry a single row's write and its entry in one statement (issue 47).
 */
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type Compilable } from 'kysely';
import type { AuditEvent } from '../../common/api/auditAnswers.js';
import type { AuditAction, AuditTargetType } from '../../common/auditActions.js';
import type { Db } from '../db/index.js';
import { cursorTimestamp, isoTimestamp } from '../db/formats.js';
import { preparedQuery, preparedStatement } from '../db/preparedStatements.js';
import { readAhead, runsElsewhere } from '../db/readAhead.js';
import { csvLine, csvStream } from './csv.js';
import { publicTargetId, recordedTargetId, recordedTargetIds, type PublicIds } from './publicIds.js';
import { readSyncPage, type SyncPage, type SyncStart } from './sync.js';

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

/**
 * Who acts (null: an unauthenticated client, e.g. the wrong passwords that lock an account), and where: one
 * organisation, or (account events, whose target is the account's admin) every organisation that admin has signed in
 * to: not one whose manager merely added them (migration 0088).
 */
export interface AuditActor {
  adminId: number | null;
  organizationId?: number;
  /** An API client acting for its organisation (issue 46; adminId null): its id and name, kept as they are now. */
  apiClient?: { id: string; name: string };
}

/**
 * The entry of a single-row write (a creation or a change) that travels in the write's own statement: its target's id
 * is the written row's, read from the write's RETURNING.
 */
export interface RowEntry {
  action: AuditAction;
  target: { type: AuditTargetType; label: string };
  changes?: Changes;
}

export interface AuditTrail {
  record(db: Db, entry: AuditEntry): Promise<void>;
  /**
   * Writes one row (`write`: an insert or an update, returning at least its `id`) and records its entry in one
   * statement, both or neither: a creation needs no transaction (one round trip instead of four: begin, insert, entry,
   * commit), a change in a transaction saves the entry's round trip (issue 47). Answers the written row.
   */
  recordWrite<Row extends { id: unknown }>(db: Db, write: Compilable<Row>, entry: RowEntry): Promise<Row>;
}

/** Fields never written into the trail, whatever a caller passes: passwords, tokens, secrets and their hashes. */
const SECRET_FIELD = /password|token|secret|hash|otp/i;

/**
 * Fields whose values are personal data (people's names, phone numbers, addresses, e-mail addresses, a learner's
 * nameId): the trail is kept for months and cannot be edited, so it records that such a field changed, never its
 * values (docs/operations.md 'What the audit trail keeps'), whatever a caller passes. A field of one of several
 * targets is named by the field, a space and the target ('nameId #12').
 */
const PERSONAL_FIELDS: ReadonlySet<string> = new Set([
  'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'latinFirstName', 'latinLastName',
  'phoneNumber', 'email', 'ccEmail', 'addressee', 'postalCode', 'address', 'nameId',
]);

/** A personal field's change: it changed, its values are not kept. Both sides null, which no other change is (equal sides are no change). */
const PERSONAL_CHANGE: FieldChange = Object.freeze({ before: null, after: null });

const isPersonal = (field: string) => PERSONAL_FIELDS.has(field.split(' ')[0]!);

/** The changes as the trail keeps them: personal fields without their values. */
const withoutPersonalValues = (changes: Changes): Changes =>
  Object.fromEntries(Object.entries(changes).map(([field, change]) => [field, isPersonal(field) ? PERSONAL_CHANGE : change]));

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

/** An API client's entry (issue 46): the client's id and name instead of an admin's. */
const insertClientEntry = preparedStatement(
  'audit_event_insert_api_client',
  `insert into audit_events (${ENTRY_COLUMNS}, actor_api_client_id, actor_api_client_name) values ($1::int, null, '', $2, $3, $4, $5, $6::jsonb, $7::uuid, $8)`,
);

/** An account event: one entry in every organisation the account's admin ($7) has signed in to. */
const insertAccountEntry = preparedStatement(
  'audit_event_insert_account',
  `insert into audit_events (${ENTRY_COLUMNS}) select organization_id, $1::int, ${ACTOR_EMAIL}, $2, $3, $4, $5, $6::jsonb
    from affiliations where admin_id = $7::int and first_signed_in_at is not null`,
);

/** Records one entry for the actor, in `db` (the write's transaction): one statement whatever the fan-out. */
export async function recordAuditEvent(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  const { action, target } = entry;
  const described = [action, target.type, String(target.id), target.label, JSON.stringify(withoutPersonalValues(entry.changes ?? {}))];
  if (actor.apiClient && actor.organizationId !== undefined) {
    await db.executeQuery(insertClientEntry([actor.organizationId, ...described, actor.apiClient.id, actor.apiClient.name]));
    return;
  }
  if (actor.organizationId !== undefined) {
    await db.executeQuery(insertEntry([actor.adminId, actor.organizationId, ...described]));
    return;
  }
  if (target.type !== 'admin') throw new Error(`audit action ${action}: an entry without an organisation is an account event, whose target is an admin`);
  await db.executeQuery(insertAccountEntry([actor.adminId, ...described, Number(target.id)]));
}

/**
 * A single-row write's entry, selected from the written row (the CTE `written`): an organisation's entry by an admin or
 * an API client, as insertEntry and insertClientEntry write it, its target id the row's. Parameters from $1 (shifted
 * after the write's), with those of `rowEntryParameters`.
 */
const ROW_ENTRY = {
  admin: `insert into audit_events (${ENTRY_COLUMNS}) select $2::int, $1::int, ${ACTOR_EMAIL}, $3, $4, written.id::text, $5, $6::jsonb from written`,
  apiClient: `insert into audit_events (${ENTRY_COLUMNS}, actor_api_client_id, actor_api_client_name) select $1::int, null, '', $2, $3, written.id::text, $4, $5::jsonb, $6::uuid, $7 from written`,
};

function rowEntryParameters(actor: AuditActor, entry: RowEntry): { text: string; parameters: unknown[] } {
  const { action, target } = entry;
  if (actor.organizationId === undefined) throw new Error(`audit action ${action}: a row's write is recorded in its organisation`);
  const described = [action, target.type, target.label, JSON.stringify(withoutPersonalValues(entry.changes ?? {}))];
  if (actor.apiClient) return { text: ROW_ENTRY.apiClient, parameters: [actor.organizationId, ...described, actor.apiClient.id, actor.apiClient.name] };
  return { text: ROW_ENTRY.admin, parameters: [actor.adminId, actor.organizationId, ...described] };
}

/**
 * The write (an insert or an update of one row) and its entry as one statement of data-modifying CTEs (PostgreSQL and
 * PGlite): both rows or neither, the entry reading the row's id from the write's RETURNING. Named, so planned once per
 * connection like the entry's own statements (its text is fixed per write).
 */
export async function recordWriteEvent<Row extends { id: unknown }>(db: Db, actor: AuditActor, write: Compilable<Row>, entry: RowEntry): Promise<Row> {
  const compiled = write.compile();
  const offset = compiled.parameters.length;
  const recorded = rowEntryParameters(actor, entry);
  const entrySql = recorded.text.replace(/\$(\d+)/g, (_, index: string) => `$${Number(index) + offset}`);
  const text = `with written as (${compiled.sql}), audited_entry as (${entrySql}) select * from written`;
  const { rows } = await db.executeQuery<Row>(preparedQuery('audit_write', text, [...compiled.parameters, ...recorded.parameters]));
  if (!rows[0]) throw new Error(`audit action ${entry.action}: the write returned no row`);
  return rows[0];
}

/** A trail for the actor that records only the declared actions: anything else is a programming error. */
export function auditTrail(actor: AuditActor, declared: readonly AuditAction[]): AuditTrail {
  const check = (action: AuditAction) => {
    if (!declared.includes(action)) throw new Error(`audit action ${action} is not declared by the route (config.audit)`);
  };
  return {
    record: async (db, entry) => {
      check(entry.action);
      await recordAuditEvent(db, actor, entry);
    },
    recordWrite: async (db, write, entry) => {
      check(entry.action);
      return recordWriteEvent(db, actor, write, entry);
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

/** Where a page starts: after the event of this time (PostgreSQL's own text, microseconds kept) and stored id. */
interface Cursor {
  time: string;
  id: string;
}

/**
 * PostgreSQL's text of a timestamptz (2026-11-24 18:58:31.123456+00), each field within what the cast takes: a
 * cursor the server did not make must not reach it (issue 25 finding 4). The day is checked against its month below.
 */
const CURSOR_TIME = /^(\d{4})-(\d\d)-(\d\d) ([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?[+-](0\d|1[0-5])(:[0-5]\d)?$/;

function isCursorTime(text: string): boolean {
  const match = CURSOR_TIME.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The cursor as the answer carries it: the time and the event's public id (never the shared sequence's value). */
export const encodeCursor = (cursor: Cursor, ids: PublicIds): string =>
  Buffer.from(JSON.stringify([cursor.time, String(ids.auditEvent.toPublic(Number(cursor.id)))])).toString('base64url');

/** The cursor in a request, or undefined when it is not one this API made. */
export function decodeCursor(text: string, ids: PublicIds): Cursor | undefined {
  try {
    const [time, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof time !== 'string' || !isCursorTime(time) || typeof id !== 'string' || !/^\d{1,15}$/.test(id)) return undefined;
    const stored = ids.auditEvent.toStored(Number(id));
    return stored === undefined ? undefined : { time, id: String(stored) };
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

/** One organisation's entries with what a page and the export show of them. */
const organizationEntries = (db: Db, organizationId: number) =>
  db
    .selectFrom('auditEvents')
    .select(['id', 'occurredAt', 'actorAdminId', 'actorEmail', 'actorApiClientName', 'action', 'targetType', 'targetId', 'targetLabel', 'changes', cursorTimestamp('occurred_at').as('cursorTime')])
    .where('organizationId', '=', organizationId);

type EntriesQuery = ReturnType<typeof organizationEntries>;

/** The page's and the export's query: one organisation's entries under the filter, newest first (its plans: test/server/db/migrations/auditFilterIndexes.test.ts). */
export function auditQuery(db: Db, organizationId: number, filter: AuditFilter, ids: PublicIds) {
  let query = organizationEntries(db, organizationId);
  if (filter.from) query = query.where('occurredAt', '>=', tokyoDayStart(filter.from));
  if (filter.to) query = query.where('occurredAt', '<', tokyoDayStart(filter.to, 1));
  if (filter.adminId !== undefined) query = query.where('actorAdminId', '=', filter.adminId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.targetType) query = query.where('targetType', '=', filter.targetType);
  if (filter.targetId) query = ofTarget(query, filter.targetId, filter.targetType, ids);
  return query.orderBy('occurredAt', 'desc').orderBy('id', 'desc');
}

/**
 * The entries of one target (its id as answered: contacts' ids are public ids on the wire, stored ids in the trail,
 * domain/publicIds.ts). With its type, one range of the (organisation, target id, type) index in the page's order; a
 * target id alone matches each type's recorded id.
 */
function ofTarget(query: EntriesQuery, given: string, type: AuditTargetType | undefined, ids: PublicIds): EntriesQuery {
  if (type) {
    const recorded = recordedTargetId(ids, type, given);
    return recorded === undefined ? query.where(sql<boolean>`false`) : query.where('targetId', '=', recorded);
  }
  const { codedTypes, coded } = recordedTargetIds(ids, given);
  return query.where((eb) =>
    eb.or([
      eb.and([eb('targetType', 'not in', codedTypes), eb('targetId', '=', given)]),
      ...coded.map((target) => eb.and([eb('targetType', '=', target.type), eb('targetId', '=', target.id)])),
    ]),
  );
}

type AuditRow = Awaited<ReturnType<ReturnType<typeof auditQuery>['execute']>>[number];

/** The query's entries older than the cursor's: a range of the filter's index in its order (occurred_at, id). */
function olderThan(query: ReturnType<typeof auditQuery>, cursor: Cursor | undefined): ReturnType<typeof auditQuery> {
  return cursor ? query.where(sql<boolean>`(occurred_at, id) < (${cursor.time}::timestamptz, ${cursor.id}::bigint)`) : query;
}

const cursorOf = (row: Pick<AuditRow, 'cursorTime' | 'id'>): Cursor => ({ time: row.cursorTime, id: String(row.id) });

function toEvent(row: AuditRow, ids: PublicIds): AuditEvent {
  const changes = (row.changes ?? {}) as Changes;
  const targetType = row.targetType as AuditTargetType;
  return {
    id: String(ids.auditEvent.toPublic(Number(row.id))),
    occurredAt: new Date(row.occurredAt).toISOString(),
    actor: { adminId: row.actorAdminId, email: row.actorEmail, apiClientName: row.actorApiClientName },
    action: row.action as AuditAction,
    target: { type: targetType, id: publicTargetId(ids, targetType, row.targetId), label: row.targetLabel },
    changes: Object.entries(changes).map(([field, change]) => ({ field, before: change.before, after: change.after })),
  };
}

export interface AuditPage {
  auditEvents: AuditEvent[];
  nextCursor: string | null;
}

/** One page of the organisation's trail, newest first, after the cursor. */
export async function listAuditEvents(db: Db, organizationId: number, filter: AuditFilter, page: { cursor?: Cursor; limit: number }, ids: PublicIds): Promise<AuditPage> {
  const rows = await olderThan(auditQuery(db, organizationId, filter, ids), page.cursor)
    .limit(page.limit + 1)
    .execute();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    auditEvents: shown.map((row) => toEvent(row, ids)),
    nextCursor: rows.length > page.limit && last ? encodeCursor(cursorOf(last), ids) : null,
  };
}

export const AUDIT_CSV_HEADER = ['occurredAt', 'actorEmail', 'action', 'targetType', 'targetId', 'targetLabel', 'changes'] as const;

/** What the file shows of a personal field's change (entries recorded before such values were left out hold them). */
const NOT_RECORDED = '(personal data, not recorded)';

/** The export's changes cell: a line a field, `field: before → after` as JSON. */
function changesText(changes: Changes | null): string {
  return Object.entries(changes ?? {})
    .map(([field, change]) => `${field}: ${isPersonal(field) ? NOT_RECORDED : `${JSON.stringify(change.before)} → ${JSON.stringify(change.after)}`}`)
    .join('\n');
}

/** An export's entry, as the database writes it: the time as the file shows it, then the file's other columns. */
type AuditExportEntry = [shownTime: string, actorEmail: string, actorApiClientName: string | null, action: string, targetType: string, targetId: string, targetLabel: string, changes: Changes | null];

/** An export's batch: its entries, and the cursor after its last entry (undefined: the batch is empty). */
interface AuditExportBatch {
  entries: AuditExportEntry[];
  last: Cursor | undefined;
}

/**
 * An export's batch of entries, after the cursor, as one JSON array of AuditExportEntry written by the database
 * (json_agg): the portal parses one text a batch instead of ten fields an entry, whose parsing and decoding by the
 * database client were ~2.3 s of the portal's ~6 s for 500,000 entries (issue 47). The times are written by PostgreSQL
 * too (500,000 timestamps were parsed into Dates only to be written out again, issue 27). The cursor is the batch's
 * last entry's, written once: an id and a cursor time in every entry were a third of the JSON, and of the
 * database's work for it (issue 47).
 */
async function auditExportBatch(db: Db, organizationId: number, filter: AuditFilter, ids: PublicIds, after: Cursor | undefined, size: number): Promise<AuditExportBatch> {
  // the page's own columns (organizationEntries); those not read here, its cursor's time among them, are not computed
  const entries = olderThan(auditQuery(db, organizationId, filter, ids), after).limit(size).as('entry');
  const { batch, lastTime, lastId } = await db
    .selectFrom(entries)
    .select([
      sql<string | null>`json_agg(json_build_array(
        ${isoTimestamp('entry.occurred_at')}, entry.actor_email, entry.actor_api_client_name, entry.action, entry.target_type, entry.target_id, entry.target_label, entry.changes
      ) order by entry.occurred_at desc, entry.id desc)::text`.as('batch'),
      // the oldest entry's, the page's order being newest first
      cursorTimestamp(sql`min(entry.occurred_at)`).as('lastTime'),
      sql<string>`(array_agg(entry.id::text order by entry.occurred_at, entry.id))[1]`.as('lastId'),
    ])
    .executeTakeFirstOrThrow();
  if (batch === null) return { entries: [], last: undefined }; // no entry after the cursor: no cursor either
  return { entries: JSON.parse(batch) as AuditExportEntry[], last: { time: lastTime, id: lastId } };
}

/** An entry as the file's line. */
function auditLine([shownTime, actorEmail, actorApiClientName, action, targetType, targetId, targetLabel, changes]: AuditExportEntry, ids: PublicIds): string {
  return csvLine([
    shownTime,
    // an API client has no e-mail: its name, as the page shows it (issue 46)
    actorApiClientName === null ? actorEmail : `API client "${actorApiClientName}"`,
    action,
    targetType,
    publicTargetId(ids, targetType as AuditTargetType, targetId),
    targetLabel,
    changesText(changes),
  ]);
}

/**
 * The entries an export makes lines of in one turn of the event loop: fewer than the learners' CSV_BATCH_ROWS, an
 * entry (its changes as JSON, its public ids) costing about four learners' rows (issue 27: a turn ≤ 50 ms).
 */
const AUDIT_CSV_TURN_ROWS = 250;

/**
 * The entries an export reads at once. On PostgreSQL 2,000, made into lines AUDIT_CSV_TURN_ROWS a turn: each statement
 * costs the portal and the database as much again as its rows' own work (issue 47, 500,000 entries in process, in
 * turn: 2,000 statements of 250 ~6.8–8.1 s, 500 of 1,000 ~5.1–5.9, 250 of 2,000 ~4.8–5.3). On PGlite, whose
 * statements run on the portal's own thread, a statement is a turn: AUDIT_CSV_TURN_ROWS.
 */
const auditCsvBatchRows = (db: Db): number => (runsElsewhere(db) ? 2000 : AUDIT_CSV_TURN_ROWS);

/** The filtered trail's entries a batch at a time, each batch after the last (occurred_at, id) of the one before. */
async function* auditRowBatches(db: Db, organizationId: number, filter: AuditFilter, ids: PublicIds): AsyncGenerator<AuditExportEntry[]> {
  const size = auditCsvBatchRows(db);
  for (let after: Cursor | undefined; ; ) {
    const { entries, last } = await auditExportBatch(db, organizationId, filter, ids, after, size);
    yield entries;
    if (entries.length < size) return;
    after = last;
  }
}

/** The filtered trail's lines AUDIT_CSV_TURN_ROWS a turn, the next batch read ahead (db/readAhead.ts). */
async function* auditLineBatches(db: Db, organizationId: number, filter: AuditFilter, ids: PublicIds): AsyncGenerator<string[]> {
  for await (const entries of readAhead(db, auditRowBatches(db, organizationId, filter, ids))) {
    for (let start = 0; start < entries.length; start += AUDIT_CSV_TURN_ROWS) {
      if (start > 0) await nextTurn(); // other requests between two slices
      yield entries.slice(start, start + AUDIT_CSV_TURN_ROWS).map((entry) => auditLine(entry, ids));
    }
  }
}

/** The filtered trail as CSV (UTF-8 with a byte-order mark, CRLF), newest first, at most `maxRows` records, read a page at a time. */
export function auditEventsCsv(db: Db, organizationId: number, filter: AuditFilter, ids: PublicIds, maxRows: number): Readable {
  return csvStream({ columns: AUDIT_CSV_HEADER, bom: true, maxRows }, auditLineBatches(db, organizationId, filter, ids));
}

/**
 * The organisation's entries written since the position, oldest first (incremental sync, issue 46: domain/sync.ts):
 * a range of the page index (0087) read backwards.
 */
export function auditEventChanges(db: Db, organizationId: number, page: SyncStart & { limit: number }, ids: PublicIds): Promise<SyncPage<AuditEvent>> {
  return readSyncPage(db, 'auditEvents', organizationId, page, async (trx, storedIds) => {
    const rows = await auditQuery(trx, organizationId, {}, ids).clearOrderBy().where('id', '=', sql<string>`any(${storedIds}::bigint[])`).execute();
    return new Map(rows.map((row) => [Number(row.id), toEvent(row, ids)]));
  });
}
