/**
 * The IdP's certificates (issue 45 item 5, domain/ssoCertificates.ts):
 * - sso_certificate_reminders: the expiry mails sent, one per connection, signing certificate (its SHA-256
 *   fingerprint) and threshold (30 or 7 days) — a new certificate earns its own; a deleted connection takes its rows;
 * - sso_connections.idp_metadata_fetched_*: the last good metadata fetched from idp_metadata_url by the daily refresh,
 *   and the URL it came from (a changed URL makes it stale), so a sign-in does not fetch it every time.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table sso_certificate_reminders (
    connection_id uuid not null references sso_connections (id) on delete cascade,
    fingerprint text not null,
    threshold smallint not null check (threshold in (30, 7)),
    sent_at timestamptz not null default now(),
    primary key (connection_id, fingerprint, threshold)
  )`,
  'alter table sso_connections add column idp_metadata_fetched_xml text',
  'alter table sso_connections add column idp_metadata_fetched_from text',
  'alter table sso_connections add column idp_metadata_fetched_at timestamptz',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['idp_metadata_fetched_at', 'idp_metadata_fetched_from', 'idp_metadata_fetched_xml']) await sql.raw(`alter table sso_connections drop column if exists ${column}`).execute(db);
  await sql.raw('drop table if exists sso_certificate_reminders').execute(db);
}
