/**
 * Deadline reminders (issue 30):
 * - admins.deadline_reminders: whether the admin gets the managers' reminder mails (My Account turns it off);
 * - deadline_reminders: the reminders sent, one per application and change deadline — a moved start date moves the
 *   deadline and earns a new reminder; a cancelled application takes its rows with it, the retention clean-up the
 *   rows of deadlines a month past (by change_deadline's index);
 * - job_leases: which instance runs a periodic job until when (one at a time, without holding a connection: PGlite has
 *   one, and the job's mails need it too);
 * - the start-date indexes the reminder job's window reads (an application's own date, its class's).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'alter table admins add column deadline_reminders boolean not null default true',
  `create table deadline_reminders (
    subscription_id integer not null references corporate_subscriptions (id) on delete cascade,
    change_deadline date not null,
    sent_at timestamptz not null default now(),
    primary key (subscription_id, change_deadline)
  )`,
  'create index deadline_reminders_change_deadline on deadline_reminders (change_deadline)',
  `create table job_leases (
    name text primary key,
    held_until timestamptz not null
  )`,
  'create index if not exists corporate_subscriptions_starts_on on corporate_subscriptions (starts_on)',
  'create index if not exists corporate_subscriptions_project_class on corporate_subscriptions (project_class_id) where project_class_id is not null',
  'create index if not exists project_classes_starts_on on project_classes (starts_on) where starts_on is not null',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['corporate_subscriptions_starts_on', 'corporate_subscriptions_project_class', 'project_classes_starts_on']) await sql.raw(`drop index if exists ${index}`).execute(db);
  await sql.raw('drop table if exists job_leases').execute(db);
  await sql.raw('drop table if exists deadline_reminders').execute(db);
  await sql.raw('alter table admins drop column if exists deadline_reminders').execute(db);
}
