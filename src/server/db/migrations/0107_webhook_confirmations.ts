/**
 * corporate_subscription.confirmed (issue 46 item 5): an application is confirmed when its change deadline passes —
 * no write happens then, so the deadline job (domain/deadlineReminders.ts) writes the event, once per application and
 * deadline: this table is the claim (a moved start date moves the deadline, and a later confirmation is another one).
 * A cancelled application takes its rows with it; the retention clean-up those a month past (change_deadline's index).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table webhook_confirmations (
    subscription_id integer not null references corporate_subscriptions (id) on delete cascade,
    change_deadline date not null,
    created_at timestamptz not null default now(),
    primary key (subscription_id, change_deadline)
  )`,
  'create index webhook_confirmations_change_deadline on webhook_confirmations (change_deadline)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists webhook_confirmations').execute(db);
}
