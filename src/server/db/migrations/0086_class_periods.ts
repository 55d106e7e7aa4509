/**
 * A project class's period (issue 17, SPEC 2.1 'Register Learners (class)': the page names the class with its
 * period): the first and last day of the class, Asia/Tokyo calendar dates. A class application starts on its class's
 * first day. Both null for a class whose dates the provider has not set (a bundled class has none).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'alter table project_classes add column starts_on date',
  'alter table project_classes add column ends_on date',
  'alter table project_classes add constraint project_classes_period check (ends_on is null or starts_on is null or ends_on >= starts_on)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table project_classes drop constraint if exists project_classes_period').execute(db);
  await sql.raw('alter table project_classes drop column if exists ends_on').execute(db);
  await sql.raw('alter table project_classes drop column if exists starts_on').execute(db);
}
