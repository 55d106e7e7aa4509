/**
 * Incremental sync (issue 46 item 4): what was removed from a synced list stays visible as a tombstone for 30 days
 * (the retention clean-up prunes older ones, domain/retention.ts), so an integration that syncs at least that often
 * removes what the portal removed. An after-delete trigger per table writes them, one statement per delete whatever
 * it removes (a transition table): a cancelled application, a deleted contact, a learner removed by any path — an
 * organisation's removal included (no foreign key: the tombstone outlives its organisation until it is pruned).
 *
 * - list: the synced table's name; record_id: the stored id (each synced table's is an integer); record_key: what the list names the record by besides
 *   (an application's requestCode), else '';
 * - deleted_at: the deleting transaction's now(), compared like updated_at (domain/sync.ts).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';
import { SYNCED_TABLES } from './0109_sync_updated_at.js';

/** The column each table's tombstones keep as record_key ('' for none). */
const RECORD_KEY: Record<(typeof SYNCED_TABLES)[number], string> = {
  organization_users: '',
  contacts: '',
  billing_contacts: '',
  corporate_subscriptions: 'request_code',
};

const upStatements = [
  `create table sync_tombstones (
    id bigint generated always as identity primary key,
    organization_id integer not null,
    list text not null,
    record_id integer not null,
    record_key text not null default '',
    deleted_at timestamptz not null default now()
  )`,
  // the sync's read: one organisation's list in (deleted_at, record_id) order
  `create index sync_tombstones_list on sync_tombstones (organization_id, list, deleted_at, record_id)`,
  // the retention clean-up
  `create index sync_tombstones_deleted_at on sync_tombstones (deleted_at)`,
  // tg_argv[0]: the record_key column, or '' for none
  `create function sync_record_tombstones() returns trigger language plpgsql as $$
  begin
    insert into sync_tombstones (organization_id, list, record_id, record_key)
      select gone.organization_id, tg_table_name, gone.id, case when tg_argv[0] = '' then '' else to_jsonb(gone) ->> tg_argv[0] end
      from removed as gone;
    return null;
  end
  $$`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
  for (const table of SYNCED_TABLES) {
    await sql
      .raw(`create trigger ${table}_tombstones after delete on ${table} referencing old table as removed for each statement execute function sync_record_tombstones('${RECORD_KEY[table]}')`)
      .execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of SYNCED_TABLES) await sql.raw(`drop trigger if exists ${table}_tombstones on ${table}`).execute(db);
  await sql.raw('drop function if exists sync_record_tombstones()').execute(db);
  await sql.raw('drop table if exists sync_tombstones').execute(db);
}
