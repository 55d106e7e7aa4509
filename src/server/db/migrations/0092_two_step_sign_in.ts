/**
 * Two-step sign-in (issue 29): an admin's authenticator app (TOTP, RFC 6238) and recovery codes.
 *
 * - admin_authenticator_apps: one per admin; the secret encrypted at rest (domain/twoStep.ts, AES-256-GCM), confirmed
 *   once a code of it was verified (until then a set-up in progress, not a factor); the last 30-second step whose code
 *   was accepted, so a code is taken once.
 * - admin_recovery_codes: ten one-time codes per generation, stored as keyed hashes; a used one keeps its row (the page
 *   says how many are left).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table admin_authenticator_apps (
    admin_id int primary key references admins (id) on delete cascade,
    secret_encrypted text not null,
    confirmed_at timestamptz,
    last_used_step bigint not null default 0,
    created_at timestamptz not null default now()
  )`,
  `create table admin_recovery_codes (
    id serial primary key,
    admin_id int not null references admins (id) on delete cascade,
    code_hash text not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  'create index admin_recovery_codes_admin on admin_recovery_codes (admin_id, code_hash)',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists admin_recovery_codes').execute(db);
  await sql.raw('drop table if exists admin_authenticator_apps').execute(db);
}
