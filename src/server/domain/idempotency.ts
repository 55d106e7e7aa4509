/**
 * Idempotency of a write (issue 15, finding 8; the Idempotency-Key header of the application writes): per
 * organisation, admin and key, the first request (a SHA-256 of it) and its answer are kept for 24 hours, written in
 * the write's own transaction. A repeat of the same request answers the first answer; the key with another request is
 * refused. Two at once: the second's insert of the key waits for the first transaction (the primary key), then reads
 * its answer — one write, never two. A write that fails (refused, rolled back) keeps nothing: a repeat runs again.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/index.js';

/** How long a key answers its first answer (the retention clean-up deletes older records). */
export const IDEMPOTENCY_SECONDS = 24 * 3600;

/** The key of one admin's write in one organisation, and what the request was. */
export interface IdempotentRequest {
  organizationId: number;
  adminId: number;
  key: string;
  /** What makes two requests the same (method, path, body): see requestHash. */
  requestHash: string;
}

/** The key was first used with another request (the API answers 422). */
export class IdempotencyKeyReused extends Error {
  constructor() {
    super('Idempotency-Key reused with another request');
    this.name = 'IdempotencyKeyReused';
  }
}

/** SHA-256 of the parts of a request that make it the same request. */
export function requestHash(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex');
}

/**
 * Run in the write's transaction, before the write: undefined when the key is new (or older than 24 h) — it is now
 * this transaction's, so a concurrent request with the key waits for it —, else the first answer.
 */
export async function claimKey<T>(trx: Db, request: IdempotentRequest, now = new Date()): Promise<{ answer: T } | undefined> {
  const expired = new Date(now.getTime() - IDEMPOTENCY_SECONDS * 1000);
  const claimed = await trx
    .insertInto('idempotencyRecords')
    .values({ organizationId: request.organizationId, adminId: request.adminId, key: request.key, requestHash: request.requestHash, answer: 'null', createdAt: now })
    .onConflict((conflict) =>
      conflict
        .columns(['organizationId', 'adminId', 'key'])
        .doUpdateSet({ requestHash: request.requestHash, answer: 'null', createdAt: now })
        .where('idempotencyRecords.createdAt', '<', expired),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return undefined;
  const first = await trx
    .selectFrom('idempotencyRecords')
    .select(['requestHash', 'answer'])
    .where('organizationId', '=', request.organizationId)
    .where('adminId', '=', request.adminId)
    .where('key', '=', request.key)
    .executeTakeFirstOrThrow();
  if (first.requestHash !== request.requestHash) throw new IdempotencyKeyReused();
  return { answer: (typeof first.answer === 'string' ? JSON.parse(first.answer) : first.answer) as T };
}

/** Run in the write's transaction, after the write: the answer a repeat gets. */
export async function recordAnswer(trx: Db, request: IdempotentRequest, answer: unknown): Promise<void> {
  await trx
    .updateTable('idempotencyRecords')
    .set({ answer: JSON.stringify(answer) })
    .where('organizationId', '=', request.organizationId)
    .where('adminId', '=', request.adminId)
    .where('key', '=', request.key)
    .execute();
}
