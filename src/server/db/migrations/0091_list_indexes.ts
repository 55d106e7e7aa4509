/**
 * The organisation's lists at a large provider's size (issue 27 items 1 and 3): the learners are read a batch at a
 * time by id (the list and its CSV: domain/organizationUsers.ts), and the applications of one service group newest
 * first (the Service Details list), each a range of its own index instead of a filter over the whole table or the
 * whole organisation.
 *
 * `if not exists`: on large tables, create them beforehand `concurrently` with these names (docs/operations.md).
 */
import { sql, type Kysely } from 'kysely';

const LIST_INDEXES: ReadonlyArray<readonly [name: string, table: string, columns: string]> = [
  ['organization_users_organization_id', 'organization_users', 'organization_id, id'],
  ['corporate_subscriptions_organization_group', 'corporate_subscriptions', 'organization_id, service_group_id, starts_on'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, table, columns] of LIST_INDEXES) await sql.raw(`create index if not exists ${name} on ${table} (${columns})`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of LIST_INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
