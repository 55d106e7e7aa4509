/**
 * Two-step sign-in hardened (issue 44):
 * - admin_tokens' purpose two_step_enrolment: the one-time link an admin bound by an organisation's rule is mailed to
 *   set up a first factor (a password alone does not open the set-up);
 * - signin_attempts' scope second_step: wrong second-step codes of one account from every address, which lock that
 *   account's second step.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `alter table admin_tokens drop constraint admin_tokens_purpose_check`,
  `alter table admin_tokens add constraint admin_tokens_purpose_check check (purpose in ('activation', 'password_reset', 'two_step_enrolment'))`,
  `alter table signin_attempts drop constraint signin_attempts_scope_check`,
  `alter table signin_attempts add constraint signin_attempts_scope_check check (scope in ('account', 'address', 'account_address', 'second_step'))`,
];

const downStatements = [
  `delete from signin_attempts where scope = 'second_step'`,
  `alter table signin_attempts drop constraint signin_attempts_scope_check`,
  `alter table signin_attempts add constraint signin_attempts_scope_check check (scope in ('account', 'address', 'account_address'))`,
  `delete from admin_tokens where purpose = 'two_step_enrolment'`,
  `alter table admin_tokens drop constraint admin_tokens_purpose_check`,
  `alter table admin_tokens add constraint admin_tokens_purpose_check check (purpose in ('activation', 'password_reset'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
