/**
 * Fixed-window request counters in the database (table rate_limit_counters), so a limit holds across instances.
 * `hitRateLimit` counts one request under a key and says whether it is still within the limit. Counters of windows
 * that ended are deleted by the retention clean-up (domain/retention.ts).
 */
import { sql } from 'kysely';
import type { Db } from '../db/index.js';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** Requests counted in the current window, this one included. */
  hits: number;
  /** Seconds until the window ends. */
  retryAfterSeconds: number;
}

export async function hitRateLimit(db: Db, key: string, { limit, windowSeconds }: RateLimit, now = new Date()): Promise<RateLimitResult> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const { hits } = await db
    .insertInto('rateLimitCounters')
    .values({ key, windowStart, hits: 1 })
    .onConflict((conflict) => conflict.columns(['key', 'windowStart']).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return {
    allowed: hits <= limit,
    hits,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000)),
  };
}

/** A token bucket: `ratePerSecond` tokens added each second up to `burst`; a request takes one. */
export interface TokenBucket {
  ratePerSecond: number;
  burst: number;
}

export interface BucketResult {
  allowed: boolean;
  /** The bucket's size (RateLimit-Limit). */
  limit: number;
  /** Whole tokens left after this request (RateLimit-Remaining). */
  remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  resetSeconds: number;
  /** Refused: seconds until a token is there again (Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Takes a token from the bucket of `key` (table rate_limit_buckets, migration 0104), in one statement, so that every
 * instance takes from the same bucket: refilled for the time since it was last (never backwards: instances' clocks
 * differ a little), then one token taken if there is one. `now` is the caller's clock (tests pass a fake one).
 */
export async function takeToken(db: Db, key: string, { ratePerSecond, burst }: TokenBucket, now = new Date()): Promise<BucketResult> {
  const refill = sql<number>`least(${burst}::float8, rate_limit_buckets.tokens + greatest(0, extract(epoch from (${now}::timestamptz - rate_limit_buckets.refilled_at))) * ${ratePerSecond}::float8)`;
  const { tokens, allowed } = await db
    .insertInto('rateLimitBuckets')
    .values({ key, tokens: burst - 1, refilledAt: now, allowed: true })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        tokens: sql<number>`case when ${refill} >= 1 then ${refill} - 1 else ${refill} end`,
        refilledAt: sql<Date>`greatest(rate_limit_buckets.refilled_at, ${now}::timestamptz)`,
        allowed: sql<boolean>`${refill} >= 1`,
      }),
    )
    .returning(['tokens', 'allowed'])
    .executeTakeFirstOrThrow();
  const left = Number(tokens);
  return {
    allowed,
    limit: burst,
    remaining: Math.max(0, Math.floor(left)),
    resetSeconds: Math.max(0, Math.ceil((burst - left) / ratePerSecond)),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - left) / ratePerSecond)),
  };
}
