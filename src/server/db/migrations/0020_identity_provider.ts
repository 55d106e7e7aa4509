/**
 * The embedded identity provider's state (SPEC §7 Identity provider, DESIGN §1: nothing shared lives in process
 * memory):
 * - idp_payloads: every oidc-provider model (sessions, interactions, grants, codes, tokens, …) in one table, keyed by
 *   model and id, with the columns the adapter looks rows up by (grant_id, uid, user_code, account_id) and the expiry;
 * - idp_keys: the signing keys (JWKS) and the cookie keys, generated once and shared by every instance;
 * - signin_attempts: failed sign-in counters per account and per client address (slow down, then lock out).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table idp_payloads (
    model text not null,
    id text not null,
    payload jsonb not null,
    grant_id text,
    uid text,
    user_code text,
    account_id text,
    expires_at timestamptz,
    consumed_at timestamptz,
    primary key (model, id)
  )`,
  `create index idp_payloads_grant_id on idp_payloads (grant_id) where grant_id is not null`,
  `create index idp_payloads_uid on idp_payloads (uid) where uid is not null`,
  `create index idp_payloads_user_code on idp_payloads (user_code) where user_code is not null`,
  `create index idp_payloads_account_id on idp_payloads (account_id) where account_id is not null`,
  `create index idp_payloads_expires_at on idp_payloads (expires_at)`,
  `create table idp_keys (
    kind text not null check (kind in ('signing', 'cookie')),
    kid text not null,
    key jsonb not null,
    created_at timestamptz not null default now(),
    primary key (kind, kid)
  )`,
  `create table signin_attempts (
    scope text not null check (scope in ('account', 'address')),
    key text not null,
    failures integer not null default 0,
    last_failure_at timestamptz not null default now(),
    locked_until timestamptz,
    primary key (scope, key)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['signin_attempts', 'idp_keys', 'idp_payloads']) await sql.raw(`drop table if exists ${table}`).execute(db);
}
