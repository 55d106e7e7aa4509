/**
 * Identity hardening (issue 7):
 * - admins.tokens_valid_after: access tokens of the admin issued (iat) before this time are refused at once
 *   (logout, password change and reset, role change, deletion), though they are JWTs verified locally;
 * - signin_attempts gets the scope account_address: the hard lock counts one account from one client address, so
 *   nobody can lock an account from anywhere (the account alone is only slowed down).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `alter table admins add column tokens_valid_after timestamptz`,
  `alter table signin_attempts drop constraint signin_attempts_scope_check`,
  `alter table signin_attempts add constraint signin_attempts_scope_check check (scope in ('account', 'address', 'account_address'))`,
];

const downStatements = [
  `delete from signin_attempts where scope = 'account_address'`,
  `alter table signin_attempts drop constraint signin_attempts_scope_check`,
  `alter table signin_attempts add constraint signin_attempts_scope_check check (scope in ('account', 'address'))`,
  `alter table admins drop column tokens_valid_after`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
