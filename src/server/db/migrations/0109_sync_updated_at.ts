/**
 * Incremental sync (issue 46 item 4): the lists an integration reads — learners, contacts, billing contacts,
 * applications — are read in (updated_at, id) order from a time or a cursor, so updated_at must change with every
 * write, whoever makes it. A trigger sets it to the writing transaction's now() on every insert and update: the domain's
 * writes, a bulk update's statements, a foreign key's `on delete set null`, an operator's SQL alike. The transaction's
 * start (not the wall clock of the app) is what domain/sync.ts compares with the oldest transaction still running, so
 * that a row committed late is never behind a cursor already handed out. The audit trail needs none: an entry is
 * never updated and its occurred_at is its transaction's now() (its page index, 0087, serves the sync read backwards).
 *
 * One index per list serving exactly the sync's filter and order: the organisation, then (updated_at, id).
 * `if not exists`: on large tables, create them beforehand `concurrently` with these names (docs/operations.md).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

/** The tables an integration syncs, each with its index. */
export const SYNCED_TABLES = ['organization_users', 'contacts', 'billing_contacts', 'corporate_subscriptions'] as const;

const syncIndex = (table: string) => `${table}_sync`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create function sync_touch_updated_at() returns trigger language plpgsql as $$
  begin
    new.updated_at := now();
    return new;
  end
  $$`,
    )
    .execute(db);
  for (const table of SYNCED_TABLES) {
    await sql.raw(`create trigger ${table}_updated_at before insert or update on ${table} for each row execute function sync_touch_updated_at()`).execute(db);
    await sql.raw(`create index if not exists ${syncIndex(table)} on ${table} (organization_id, updated_at, id)`).execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of SYNCED_TABLES) {
    await sql.raw(`drop index if exists ${syncIndex(table)}`).execute(db);
    await sql.raw(`drop trigger if exists ${table}_updated_at on ${table}`).execute(db);
  }
  await sql.raw('drop function if exists sync_touch_updated_at()').execute(db);
}
