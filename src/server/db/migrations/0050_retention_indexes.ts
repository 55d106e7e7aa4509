/**
 * Retention (issue 11): indexes for the clean-up's conditions (src/server/domain/retention.ts), so that each run finds
 * the old rows of a table without reading all of it. rate_limit_counters (window_start), captcha_solutions and
 * idp_payloads (expires_at) have theirs already.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const indexes: Array<[name: string, definition: string]> = [
  ['admin_tokens_expires_at', 'admin_tokens (expires_at)'],
  ['admin_tokens_used_at', 'admin_tokens (used_at) where used_at is not null'],
  ['mails_sent_at', 'mails (sent_at)'],
  ['mail_queue_failed_at', 'mail_queue (failed_at) where failed_at is not null'],
  ['registration_requests_created_at', 'registration_requests (created_at)'],
  ['signin_attempts_last_failure_at', 'signin_attempts (last_failure_at)'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of indexes) await sql.raw(`create index ${name} on ${definition}`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of indexes) await sql.raw(`drop index if exists ${name}`).execute(db);
}
