/**
 * Service Details' pages of applications read from their index alone (issue 47: at 20,000 applications of one group,
 * fetching each row from the table was half of the page's statement). A page is chosen by the start date the list
 * shows — the class's, else the application's own — so the organisation's indexes by start date also carry each
 * application's class and id: the page is sorted from index entries only (domain/corporateSubscriptions.ts
 * applicationPageQuery), the table read for the page's rows alone. They replace the indexes of the same keys (0070, 0091).
 *
 * `if not exists`: on large tables, create them beforehand `concurrently` with these names (docs/operations.md).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'create index if not exists corporate_subscriptions_group_page on corporate_subscriptions (organization_id, service_group_id, starts_on) include (project_class_id, id)',
  'drop index if exists corporate_subscriptions_organization_group',
  'create index if not exists corporate_subscriptions_organization_page on corporate_subscriptions (organization_id, starts_on) include (project_class_id, id)',
  'drop index if exists corporate_subscriptions_organization',
];

const downStatements = [
  'create index if not exists corporate_subscriptions_organization on corporate_subscriptions (organization_id, starts_on)',
  'drop index if exists corporate_subscriptions_organization_page',
  'create index if not exists corporate_subscriptions_organization_group on corporate_subscriptions (organization_id, service_group_id, starts_on)',
  'drop index if exists corporate_subscriptions_group_page',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
