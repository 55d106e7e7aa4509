/**
 * Passkeys (issue 29): an admin's WebAuthn credentials (discoverable, user verification required), and the challenges
 * of the ceremonies under way (a registration on Sign-in security, keyed by the admin; a sign-in, keyed by the
 * provider's interaction), each used once and for a few minutes.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table admin_passkeys (
    id serial primary key,
    admin_id int not null references admins (id) on delete cascade,
    credential_id text not null unique,
    public_key text not null,
    counter bigint not null default 0,
    transports text[] not null default '{}',
    name text not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz
  )`,
  'create index admin_passkeys_admin on admin_passkeys (admin_id)',
  `create table webauthn_challenges (
    key text primary key,
    challenge text not null,
    expires_at timestamptz not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists webauthn_challenges').execute(db);
  await sql.raw('drop table if exists admin_passkeys').execute(db);
}
