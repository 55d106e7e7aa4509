/**
 * Retention (issue 11): every table that grows with traffic loses its old rows in a periodic clean-up.
 * - One instance at a time: the run holds a PostgreSQL session advisory lock (pg_try_advisory_lock) on one
 *   connection; an instance that does not get it skips the run (another is doing the work). On PGlite the lock is
 *   always free (one process).
 * - Batched: each table's rows go `RETENTION_BATCH` at a time, each batch its own short statement (autocommit), so
 *   the clean-up never holds many row locks or a long transaction.
 * The rules (what "old" means for each table) are in `retentionRules`; docs/operations.md lists them for operators.
 */
import { sql, type RawBuilder } from 'kysely';
import type { RetentionConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { IDEMPOTENCY_SECONDS } from './idempotency.js';
import { SYNC_TOMBSTONE_SECONDS } from './sync.js';

/** Arbitrary constant key of the advisory lock held during a clean-up run (724_001 seeding, 724_002 idp keys). */
export const RETENTION_LOCK_KEY = 724_003;
/** A sent reminder is kept this long after its deadline (issue 30): past it, no run would remind of that deadline. */
const DEADLINE_REMINDER_SECONDS = 30 * 86400;
/** A webhook event and its deliveries are kept this long (issue 46): the Webhooks page lists them, and Resend sends them again. */
const WEBHOOK_EVENT_SECONDS = 30 * 86400;
export const RETENTION_BATCH = 1000;
/** Provider payloads (sessions, codes, tokens…) are deleted an hour after their own expiry (the adapter never returns them). */
const IDP_PAYLOAD_GRACE_SECONDS = 3600;

export interface RetentionSettings {
  retention: RetentionConfig;
  /** The longest rate-limit window (MAIL_RATE_LIMIT_WINDOW: every limit counts in it). */
  rateLimitWindowSeconds: number;
  /** SIGNIN_LOCKOUT: failures are remembered, and locks last, this long. */
  signinLockoutSeconds: number;
}

export interface RetentionRule {
  table: string;
  /** The condition of an old row (raw SQL over snake_case columns; `now` is the run's clock). */
  where(now: Date): RawBuilder<unknown>;
  /** A setting the table's delete trigger asks for (append-only tables): set 'on' for each batch's transaction only. */
  allowedBy?: string;
}

/** The audit trail's append-only trigger lets a delete through with this setting on (migration 0087). */
export const AUDIT_RETENTION_SETTING = 'portal.audit_retention';

const ago = (now: Date, seconds: number) => new Date(now.getTime() - seconds * 1000);

export function retentionRules(settings: RetentionSettings): RetentionRule[] {
  const { retention } = settings;
  return [
    {
      // used or expired links; an admin's newest open invitation of each organisation stays (its admin list shows when it expired)
      table: 'admin_tokens',
      where: (now) => {
        const cutoff = ago(now, retention.tokenSeconds);
        return sql`(used_at < ${cutoff} or (used_at is null and expires_at < ${cutoff}))
          and not (purpose = 'activation' and used_at is null and not exists (
            select 1 from admin_tokens newer where newer.admin_id = admin_tokens.admin_id and newer.purpose = 'activation' and newer.id > admin_tokens.id
              and newer.organization_id is not distinct from admin_tokens.organization_id))`;
      },
    },
    // a solution is remembered while its challenge could be answered (replay protection), not after
    { table: 'captcha_solutions', where: (now) => sql`expires_at < ${now}` },
    { table: 'webauthn_challenges', where: (now) => sql`expires_at < ${now}` },
    // counters of windows that ended
    { table: 'rate_limit_counters', where: (now) => sql`window_start < ${ago(now, settings.rateLimitWindowSeconds)}` },
    // API clients' token buckets idle an hour (issue 46): full again at any rate a deployment sets (burst ≤ an hour's refill)
    { table: 'rate_limit_buckets', where: (now) => sql`refilled_at < ${ago(now, 3600)}` },
    // failures older than the lockout, unless a lock still runs
    {
      table: 'signin_attempts',
      where: (now) => sql`last_failure_at < ${ago(now, settings.signinLockoutSeconds)} and (locked_until is null or locked_until < ${now})`,
    },
    { table: 'idp_payloads', where: (now) => sql`expires_at < ${ago(now, IDP_PAYLOAD_GRACE_SECONDS)}` },
    // a single-sign-on token is refused once expired (≤ 60 s), used or not; kept an hour for diagnosis like the payloads
    { table: 'single_sign_on_tokens', where: (now) => sql`expires_at < ${ago(now, IDP_PAYLOAD_GRACE_SECONDS)}` },
    { table: 'mails', where: (now) => sql`sent_at < ${ago(now, retention.outboxSeconds)}` },
    // jobs still to be done are never deleted; given-up ones after a while
    { table: 'mail_queue', where: (now) => sql`failed_at < ${ago(now, retention.failedMailSeconds)}` },
    { table: 'registration_requests', where: (now) => sql`created_at < ${ago(now, retention.registrationRequestSeconds)}` },
    // an Idempotency-Key answers its first answer for 24 h, then the record is of no use
    // a reminder is needed only while its deadline could come round again (the same application and date)
    { table: 'deadline_reminders', where: (now) => sql`change_deadline < ${ago(now, DEADLINE_REMINDER_SECONDS)}::date` },
    { table: 'idempotency_records', where: (now) => sql`created_at < ${ago(now, IDEMPOTENCY_SECONDS)}` },
    // a webhook event (issue 46) and its deliveries: their retries end within 28 hours; kept a month to be listed and resent
    { table: 'webhook_events', where: (now) => sql`created_at < ${ago(now, WEBHOOK_EVENT_SECONDS)}` },
    { table: 'webhook_confirmations', where: (now) => sql`change_deadline < ${ago(now, DEADLINE_REMINDER_SECONDS)}::date` },
    // a sync's removals (issue 46): a cursor issued longer ago is refused anyway (domain/sync.ts)
    { table: 'sync_tombstones', where: (now) => sql`deleted_at < ${ago(now, SYNC_TOMBSTONE_SECONDS)}` },
    // the audit trail is append-only: only this clean-up deletes from it
    { table: 'audit_events', where: (now) => sql`occurred_at < ${ago(now, retention.auditSeconds)}`, allowedBy: AUDIT_RETENTION_SETTING },
  ];
}

/** Deletes the rows matching `where`, `batchSize` at a time; returns how many went. */
export async function deleteInBatches(db: Db, table: string, where: RawBuilder<unknown>, batchSize = RETENTION_BATCH, allowedBy?: string): Promise<number> {
  let total = 0;
  const batch = sql`delete from ${sql.table(table)} where ctid in (select ctid from ${sql.table(table)} where ${where} limit ${batchSize})`;
  for (;;) {
    const result = allowedBy
      ? await db.transaction().execute(async (trx) => {
          await sql`select set_config(${allowedBy}, 'on', true)`.execute(trx);
          return batch.execute(trx);
        })
      : await batch.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0n);
    total += deleted;
    if (deleted < batchSize) return total;
  }
}

export type RetentionResult = { ran: false } | { ran: true; deleted: Record<string, number> };

/**
 * One clean-up run: every rule, under the advisory lock. `{ran: false}` when another instance holds the lock.
 * A failing table does not stop the others; the first error is thrown at the end.
 */
export async function runRetention(db: Db, settings: RetentionSettings, options: { now?: Date; batchSize?: number } = {}): Promise<RetentionResult> {
  const now = options.now ?? new Date();
  return db.connection().execute(async (connection) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${RETENTION_LOCK_KEY}) as locked`.execute(connection);
    if (!rows[0]?.locked) return { ran: false } as const;
    const deleted: Record<string, number> = {};
    let failure: unknown;
    try {
      for (const rule of retentionRules(settings)) {
        try {
          deleted[rule.table] = await deleteInBatches(connection, rule.table, rule.where(now), options.batchSize, rule.allowedBy);
        } catch (error) {
          failure ??= error;
        }
      }
    } finally {
      await sql`select pg_advisory_unlock(${RETENTION_LOCK_KEY})`.execute(connection);
    }
    if (failure) throw failure;
    return { ran: true, deleted } as const;
  });
}
