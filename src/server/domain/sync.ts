/**
 * Incremental sync (issue 46 item 4): an integration reads what changed in a list since a time, or since where its
 * last read stopped (a cursor), instead of the whole list — 50,000 learners, 500,000 trail entries.
 *
 * - Order: (updated_at, id) — the audit trail's (occurred_at, id) — one organisation's range of the list's own index
 *   (migrations 0109, 0087), so a read costs what changed, not what the organisation has. Rows sharing an updated_at
 *   (a bulk update's, a transaction's) are told apart by id: each is read exactly once.
 * - Removals: the tombstones of the same list in the same order (migration 0110), kept SYNC_TOMBSTONE_DAYS days. A
 *   cursor carries when it was issued: one issued longer ago than that may have missed removals of records its
 *   integration holds and is refused (SyncCursorExpired): the integration syncs again from the start. (Its position may
 *   be old — a first sync reads old rows — the records read since it was issued are what removals must be kept for.)
 * - No row lost to a transaction still running: updated_at is the writing transaction's start (its now(), migration
 *   0109's trigger), and a transaction that started earlier may commit after a read went past its time. So a read
 *   stops before the oldest transaction running (`bound`): everything earlier is committed and in the read's snapshot,
 *   which is taken after the bound is known. A row changed during a sync moves to the end of the order: it is read
 *   again in a later page or the next sync.
 * - The cursor is the last position read (or, once nothing more is there, the bound): base64url of a small JSON object
 *   naming its list; ids in it are the ids the list shows (public ids where the list shows them, domain/publicIds.ts).
 *   A cursor this code did not make is refused, never sent to the database as it came.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.js';
import type { IdCodec } from './publicIds.js';

/** Tombstones are kept this long (the retention clean-up prunes older ones): sync at least this often. */
export const SYNC_TOMBSTONE_DAYS = 30;
export const SYNC_TOMBSTONE_SECONDS = SYNC_TOMBSTONE_DAYS * 86_400;

/** A list an integration syncs: its table, its time column, its id's type, whether removals leave tombstones. */
interface SyncTable {
  table: 'organization_users' | 'contacts' | 'billing_contacts' | 'corporate_subscriptions' | 'audit_events';
  time: 'updated_at' | 'occurred_at';
  idType: 'int' | 'bigint';
  tombstones: boolean;
}

export const SYNC_LISTS = {
  learners: { table: 'organization_users', time: 'updated_at', idType: 'int', tombstones: true },
  contacts: { table: 'contacts', time: 'updated_at', idType: 'int', tombstones: true },
  billingContacts: { table: 'billing_contacts', time: 'updated_at', idType: 'int', tombstones: true },
  corporateSubscriptions: { table: 'corporate_subscriptions', time: 'updated_at', idType: 'int', tombstones: true },
  // never updated; removed only when the retention period ends, which is no change to mirror
  auditEvents: { table: 'audit_events', time: 'occurred_at', idType: 'bigint', tombstones: false },
} as const satisfies Record<string, SyncTable>;

export type SyncList = keyof typeof SYNC_LISTS;

/** Where a read starts: after this time and stored id (id 0: at the time, inclusive). Times are UTC, microseconds. */
export interface SyncPosition {
  time: string;
  id: number;
}

/** The first position of the order: every row. */
export const SYNC_START: SyncPosition = { time: '1970-01-01T00:00:00.000000Z', id: 0 };

/** The text of a time: ISO 8601 in UTC with microseconds, PostgreSQL's precision (fixed width: compares as text). */
const SYNC_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)\.(\d{6})Z$/;

/** The same text, written by the database. */
const syncTimeOf = (column: ReturnType<typeof sql.ref> | ReturnType<typeof sql>) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** A time of this form that the database reads as the same instant: a real date and time, from 1970. */
function isSyncTime(text: string): boolean {
  const match = SYNC_TIME.exec(text);
  if (!match || match[1]! < '1970') return false;
  const millis = Date.parse(`${text.slice(0, 23)}Z`);
  return Number.isFinite(millis) && new Date(millis).toISOString().slice(0, 23) === text.slice(0, 23);
}

/**
 * An RFC 3339 time (`updated_since`) as a position: at that instant, inclusive; microseconds kept, the offset applied.
 * Before 1970 is 1970 (nothing is older); undefined when it is no such time.
 */
export function positionSince(text: string): SyncPosition | undefined {
  const match = /^(\d{4}-\d\d-\d\d)[Tt ](\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)$/.exec(text);
  if (!match) return undefined;
  const [, day, clock, fraction = '', zone] = match as unknown as [string, string, string, string | undefined, string];
  const digits = (fraction + '000000').slice(0, 6);
  const millis = Date.parse(`${day}T${clock}.${digits.slice(0, 3)}${zone.toUpperCase()}`);
  // Date.parse rolls 02-30 over to 03-02: the date must read back as written (before the offset is applied)
  if (!Number.isFinite(millis) || new Date(Date.parse(`${day}T00:00:00Z`)).toISOString().slice(0, 10) !== day) return undefined;
  if (millis < 0) return SYNC_START;
  const iso = new Date(millis).toISOString();
  if (iso.length !== 24) return undefined; // beyond year 9999
  return { time: `${iso.slice(0, 23)}${digits.slice(3)}Z`, id: 0 };
}

/** How a list's ids travel: through a public-id codec, or as stored. */
type Ids = IdCodec | undefined;

/** A cursor as it travels: version, list, position (time, id as shown), when it was issued. */
interface WireCursor {
  v: 1;
  l: SyncList;
  t: string;
  k: string;
  i: string;
}

/** Where a sync goes on from, and when the read that gave it was made (the database's time). */
export interface SyncCursor {
  position: SyncPosition;
  issuedAt: string;
}

export function encodeSyncCursor(list: SyncList, cursor: SyncCursor, ids: Ids): string {
  const { position, issuedAt } = cursor;
  const wire: WireCursor = { v: 1, l: list, t: position.time, k: String(ids ? ids.toPublic(position.id) : position.id), i: issuedAt };
  return Buffer.from(JSON.stringify(wire)).toString('base64url');
}

function parseCursor(text: string): Partial<WireCursor> | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as WireCursor).v === 1 ? (value as Partial<WireCursor>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the text is a sync cursor of some list (the audit trail's page cursor is not). */
export const isSyncCursor = (text: string): boolean => parseCursor(text) !== undefined;

const isTime = (value: unknown): value is string => typeof value === 'string' && isSyncTime(value);

/** A cursor of this list; undefined when it is not one this code made for it. */
export function decodeSyncCursor(text: string, list: SyncList, ids: Ids): SyncCursor | undefined {
  const cursor = parseCursor(text);
  if (!cursor || cursor.l !== list || !isTime(cursor.t) || !isTime(cursor.i) || typeof cursor.k !== 'string' || !/^(0|[1-9]\d{0,14})$/.test(cursor.k)) return undefined;
  const shown = Number(cursor.k);
  const id = shown === 0 ? 0 : ids ? ids.toStored(shown) : shown <= 2 ** 31 - 1 || SYNC_LISTS[list].idType === 'bigint' ? shown : undefined;
  return id === undefined ? undefined : { position: { time: cursor.t, id }, issuedAt: cursor.i };
}

/** A cursor issued longer ago than tombstones are kept: removals since then may be gone (the integration syncs again from the start). */
export class SyncCursorExpired extends Error {
  constructor() {
    super(`the cursor is older than the ${SYNC_TOMBSTONE_DAYS} days removals are kept`);
    this.name = 'SyncCursorExpired';
  }
}

/** Whether the removals since this time are all still kept. */
export function isWithinTombstones(time: string, now = new Date()): boolean {
  return Date.parse(`${time.slice(0, 23)}Z`) >= now.getTime() - SYNC_TOMBSTONE_SECONDS * 1000;
}

/**
 * The time before which every write is committed: now, or the start of the oldest transaction still running on the
 * database (whose rows, once committed, carry that start as their time). pg_stat_activity shows the sessions of the
 * portal's own role (its instances share one); autovacuum and other databases' sessions are no writers of these rows.
 */
async function committedBefore(db: Db): Promise<string> {
  const { rows } = await sql<{ bound: string }>`select ${syncTimeOf(
    sql`least(statement_timestamp(), (select min(xact_start) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null and backend_type = 'client backend'))`,
  )} as bound`.execute(db);
  return rows[0]!.bound;
}

/** A row of the page: changed (read it) or removed (a tombstone, with the key it was known by). */
interface ChangedKey {
  gone: boolean;
  id: number;
  changedAt: string;
  recordKey: string;
}

/**
 * The next `limit` + 1 changes after the position and before the bound: the list's and its tombstones', each a range of
 * its index in its order, merged (their plans: test/server/db/migrations/syncTables.test.ts).
 */
export function changedKeysQuery(listName: SyncList, organizationId: number, position: SyncPosition, bound: string, limit: number) {
  const list: SyncTable = SYNC_LISTS[listName];
  const time = sql.ref(list.time);
  const after = sql`(${position.time}::timestamptz, ${position.id}::${sql.raw(list.idType)})`;
  // `>= time` besides the row comparison: the planner estimates a range of the time better than of the pair
  const live = sql`(select false as gone, id, ${time} as at, '' as record_key from ${sql.table(list.table)}
    where organization_id = ${organizationId} and ${time} >= ${position.time}::timestamptz and (${time}, id) > ${after} and ${time} < ${bound}::timestamptz
    order by ${time}, id limit ${limit + 1})`;
  // the tombstones' record_id is an integer, as each synced table's id: the merge keeps both ranges' order
  const removed = list.tombstones
    ? sql`union all (select true, record_id, deleted_at, record_key from sync_tombstones
      where organization_id = ${organizationId} and list = ${list.table} and deleted_at >= ${position.time}::timestamptz and (deleted_at, record_id) > ${after}
        and deleted_at < ${bound}::timestamptz
      order by deleted_at, record_id limit ${limit + 1})`
    : sql``;
  return sql<ChangedKey>`select changed.gone, changed.id, ${syncTimeOf(sql.ref('changed.at'))} as changed_at, changed.record_key
    from (${live} ${removed}) as changed order by changed.at, changed.id limit ${limit + 1}`;
}

async function changedKeys(trx: Db, listName: SyncList, organizationId: number, position: SyncPosition, bound: string, limit: number): Promise<ChangedKey[]> {
  const { rows } = await changedKeysQuery(listName, organizationId, position, bound, limit).execute(trx);
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/** A removed record: its stored id, the key it was known by besides ('' for none), when. */
export interface Removal {
  id: number;
  key: string;
  deletedAt: string;
}

export interface SyncPage<Item> {
  /** The records changed, in the order, each as the list shows it, with the time of its last change. */
  items: Array<{ item: Item; updatedAt: string }>;
  deleted: Removal[];
  /** Where the next read starts, issued now. */
  next: SyncCursor;
  /** Whether more changes are there now (read on with `next` at once), or not (sync again later from `next`). */
  hasMore: boolean;
}

/** Where a page starts: a time (`updated_since`), or a cursor with the time it was issued. */
export interface SyncStart {
  position: SyncPosition;
  issuedAt?: string;
}

/**
 * One page of the list's changes after the position, at most `limit`, the records read by `load` (by stored id, in
 * the caller's shape) in the same snapshot as the changes. A record that `load` does not return is skipped (no
 * longer the organisation's to show: its tombstone follows).
 */
export async function readSyncPage<Item>(
  db: Db,
  listName: SyncList,
  organizationId: number,
  page: SyncStart & { limit: number },
  load: (trx: Db, ids: number[]) => Promise<Map<number, Item>>,
): Promise<SyncPage<Item>> {
  const list: SyncTable = SYNC_LISTS[listName];
  if (list.tombstones && page.issuedAt !== undefined && !isWithinTombstones(page.issuedAt)) throw new SyncCursorExpired();
  const bound = await committedBefore(db);
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const keys = await changedKeys(trx, listName, organizationId, page.position, bound, page.limit);
      const shown = keys.slice(0, page.limit);
      const hasMore = keys.length > page.limit;
      const records = await load(
        trx,
        shown.filter((key) => !key.gone).map((key) => key.id),
      );
      const last = shown.at(-1);
      return {
        items: shown.flatMap((key) => {
          const item = key.gone ? undefined : records.get(key.id);
          return item === undefined ? [] : [{ item, updatedAt: key.changedAt }];
        }),
        deleted: shown.filter((key) => key.gone).map((key) => ({ id: key.id, key: key.recordKey, deletedAt: key.changedAt })),
        // nothing more before the bound: the next read starts there (a cursor kept fresh while nothing changes)
        next: { position: hasMore ? { time: last!.changedAt, id: last!.id } : laterOf(page.position, { time: bound, id: 0 }), issuedAt: bound },
        hasMore,
      };
    });
}

const laterOf = (a: SyncPosition, b: SyncPosition): SyncPosition => (a.time > b.time || (a.time === b.time && a.id >= b.id) ? a : b);
