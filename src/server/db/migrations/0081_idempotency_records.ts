/**
 * Idempotency of the application writes (issue 15, finding 8): idempotency_records keeps, per organisation, admin and
 * Idempotency-Key, the request it was first used with (a SHA-256 of it) and the answer of its write, stored in the
 * write's transaction: a repeat with the key answers the first answer, two at once make one application. Kept 24 h
 * (the retention clean-up, domain/retention.ts).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table idempotency_records (
    organization_id integer not null references organizations (id) on delete cascade,
    admin_id integer not null references admins (id) on delete cascade,
    key text not null check (char_length(key) between 1 and 100),
    request_hash text not null,
    answer jsonb not null,
    created_at timestamptz not null default now(),
    primary key (organization_id, admin_id, key)
  )`,
  `create index idempotency_records_created_at on idempotency_records (created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table idempotency_records').execute(db);
}
