/**
 * Token buckets in the database (issue 46: each API client's request rate), so every instance takes from the same
 * bucket (domain/rateLimits.ts `takeToken`). One row per key: the tokens left when it was last refilled, and when.
 * Buckets idle long enough to be full again are deleted by the retention clean-up.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table rate_limit_buckets (
    key text primary key,
    tokens double precision not null,
    refilled_at timestamptz not null,
    allowed boolean not null default true
  )`,
  `create index rate_limit_buckets_refilled_at on rate_limit_buckets (refilled_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists rate_limit_buckets').execute(db);
}
