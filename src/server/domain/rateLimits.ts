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
