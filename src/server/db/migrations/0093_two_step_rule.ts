/**
 * An organisation's rule (issue 29): its managers may require two-step sign-in of every admin acting for it. While on,
 * the API refuses that organisation's calls made with a token of a password-only sign-in (403 mfa_required).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table organizations add column two_step_required boolean not null default false').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table organizations drop column if exists two_step_required').execute(db);
}
