/**
 * The organisation's own API clients (issue 46): OAuth 2.0 client credentials at the portal's provider, one row per
 * client. The secret is kept as its SHA-256 (it is 256 random bits: a slow hash adds nothing), the one before a
 * rotation too until its overlap ends. tokens_valid_after ends the tokens issued before it (a rotation's overlap
 * end is not one: tokens live 15 minutes). Deleting the row is revoking: every token of the client is refused at once.
 *
 * api_client_uses: when and from where the client last called (written at most once a minute, apart from the client's
 * row so that its version, the ETag, changes only when a manager changes it).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table api_clients (
    id uuid primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    client_id text not null unique,
    name text not null check (char_length(name) between 1 and 100),
    scopes text[] not null,
    secret_hash text not null,
    previous_secret_hash text,
    previous_secret_expires_at timestamptz,
    public_jwks jsonb,
    expires_at timestamptz,
    created_by_admin_id integer references admins (id) on delete set null,
    created_by_email text not null default '',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (organization_id, id)
  )`,
  `create index api_clients_organization on api_clients (organization_id, created_at, id)`,
  `create table api_client_uses (
    api_client_id uuid primary key references api_clients (id) on delete cascade,
    last_used_at timestamptz not null,
    last_used_address text not null
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists api_client_uses').execute(db);
  await sql.raw('drop table if exists api_clients').execute(db);
}
