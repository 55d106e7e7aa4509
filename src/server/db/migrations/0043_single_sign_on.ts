/**
 * The single-sign-on gateway (issue 9 §4, SPEC 2.3, §3 Single-sign-on tokens, §7 Single-sign-on forwarding):
 * - partner_products: the partner products an admin can be forwarded to, by code (the gateway's `gpc`): their
 *   product id (SPEC: 4 carries projectId and projectCode), name, authUrl and the shared secret that signs the tokens
 *   (kept as given: HMAC needs the secret itself, so it cannot be hashed — the database is trusted with it as it is
 *   with the provider's keys and the captcha secret);
 * - single_sign_on_tokens: the tokens issued, by their one-time id (`guq`), so a partner's verification call can accept
 *   each once (used_at) and only before it expires.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table partner_products (
    code text primary key,
    product_id integer not null,
    name text not null,
    auth_url text not null,
    secret text not null check (length(secret) >= 32),
    created_at timestamptz not null default now()
  )`,
  `create table single_sign_on_tokens (
    id text primary key,
    partner_code text not null references partner_products (code) on delete cascade on update cascade,
    admin_id integer not null references admins (id) on delete cascade,
    glopla_id text not null,
    language text not null,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index single_sign_on_tokens_expires_at on single_sign_on_tokens (expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists single_sign_on_tokens').execute(db);
  await sql.raw('drop table if exists partner_products').execute(db);
}
