/**
 * SAML sign-in's one-time records (issue 45; DESIGN §7 'Known traps': kept in the database, shared by every instance,
 * never in one process's memory):
 * - saml_requests: each AuthnRequest's id, keyed by the RelayState sent with it. The IdP's answer arrives as a
 *   cross-site POST without the portal's cookies; its RelayState finds the request, which is taken (deleted) once:
 *   an InResponseTo naming no stored request, another browser's or one already answered is refused.
 * - saml_assertions: the ids of assertions accepted, until they expire: an assertion is taken once.
 * Both are pruned by their expiry. One statement per call: PGlite's extended protocol runs one at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table saml_requests (
    relay_state text primary key check (char_length(relay_state) between 16 and 80),
    connection_id uuid not null references sso_connections (id) on delete cascade,
    request_id text not null check (char_length(request_id) between 1 and 256),
    expires_at timestamptz not null
  )`,
  `create index saml_requests_expiry on saml_requests (expires_at)`,
  `create table saml_assertions (
    assertion_id text primary key check (char_length(assertion_id) between 1 and 256),
    connection_id uuid not null references sso_connections (id) on delete cascade,
    expires_at timestamptz not null
  )`,
  `create index saml_assertions_expiry on saml_assertions (expires_at)`,
  `create index saml_assertions_connection on saml_assertions (connection_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists saml_assertions').execute(db);
  await sql.raw('drop table if exists saml_requests').execute(db);
}
