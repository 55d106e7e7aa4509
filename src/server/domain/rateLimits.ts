/**
 * Fixed-window request counters in the database (table rate_limit_counters), so a limit holds across instances.
 * `hitRateLimit` counts one request under a key and says whether it is still within the limit.
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

/** Counter rows of windows that ended are removed now and then (at most once a minute per process). */
let lastCleanup = 0;
const CLEANUP_INTERVAL_MS = 60_000;

export async function hitRateLimit(db: Db, key: string, { limit, windowSeconds }: RateLimit, now = new Date()): Promise<RateLimitResult> {
  const windowMs = windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const { hits } = await db
    .insertInto('rateLimitCounters')
    .values({ key, windowStart, hits: 1 })
    .onConflict((conflict) => conflict.columns(['key', 'windowStart']).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` }))
    .returning('hits')
    .executeTakeFirstOrThrow();
  if (now.getTime() - lastCleanup > CLEANUP_INTERVAL_MS) {
    lastCleanup = now.getTime();
    // rows of every key are kept for a week (longer while their own window lasts): no limit uses a longer window
    const horizon = new Date(now.getTime() - Math.max(windowMs, 7 * 86_400_000));
    await db.deleteFrom('rateLimitCounters').where('windowStart', '<', horizon).execute();
  }
  return {
    allowed: hits <= limit,
    hits,
    retryAfterSeconds: Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000)),
  };
}
