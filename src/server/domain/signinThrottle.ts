/**
 * Failed sign-ins are slowed, then refused for a while (issue 3 §1), per account (the e-mail entered, known or not)
 * and per client address. The counters live in the database (signin_attempts) so every instance sees them.
 *
 * - A failure is remembered for `lockoutSeconds`; a failure after that starts a new count.
 * - From the third failure on, the answer waits `failureDelayMs` more per failure (at most 3 s).
 * - At `maxAccountFailures` (account) or `maxAddressFailures` (address) the key is locked for `lockoutSeconds`:
 *   every attempt, even with the right password, is refused without checking it.
 * - A successful sign-in clears the account's counter (not the address's, so one valid account cannot be used to
 *   reset the count of an address trying many accounts).
 */
import { sql } from 'kysely';
import type { SigninThrottleConfig } from '../config.js';
import type { Db } from '../db/index.js';

export type ThrottleScope = 'account' | 'address';

export interface ThrottleKeys {
  /** The e-mail as entered, normalised (lower case). */
  account: string;
  /** The client address (request.ip). */
  address: string;
}

export const MAX_FAILURE_DELAY_MS = 3000;

/** The time until which one of the keys is locked, or undefined when neither is. */
export async function lockedUntil(db: Db, keys: ThrottleKeys): Promise<Date | undefined> {
  const rows = await db
    .selectFrom('signinAttempts')
    .select('lockedUntil')
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'account'), eb('key', '=', keys.account)]),
        eb.and([eb('scope', '=', 'address'), eb('key', '=', keys.address)]),
      ]),
    )
    .where('lockedUntil', '>', sql<Date>`now()`)
    .execute();
  const times = rows.map((row) => new Date(row.lockedUntil!).getTime());
  return times.length > 0 ? new Date(Math.max(...times)) : undefined;
}

async function countFailure(db: Db, scope: ThrottleScope, key: string, max: number, lockoutSeconds: number): Promise<number> {
  // one statement, so concurrent failures of one key are all counted
  const result = await sql<{ failures: number }>`
    insert into signin_attempts (scope, key, failures, last_failure_at, locked_until)
    values (${scope}, ${key}, 1, now(), case when 1 >= ${max}::int then now() + make_interval(secs => ${lockoutSeconds}::int) end)
    on conflict (scope, key) do update set
      failures = case when signin_attempts.last_failure_at < now() - make_interval(secs => ${lockoutSeconds}::int) then 1 else signin_attempts.failures + 1 end,
      last_failure_at = now(),
      locked_until = case
        when (case when signin_attempts.last_failure_at < now() - make_interval(secs => ${lockoutSeconds}::int) then 1 else signin_attempts.failures + 1 end) >= ${max}::int
          then now() + make_interval(secs => ${lockoutSeconds}::int)
        else signin_attempts.locked_until
      end
    returning failures`.execute(db);
  return Number(result.rows[0]?.failures ?? 1);
}

/** Counts a failure for both keys; returns how long to wait before answering (ms). */
export async function recordFailure(db: Db, keys: ThrottleKeys, config: SigninThrottleConfig): Promise<number> {
  const accountFailures = await countFailure(db, 'account', keys.account, config.maxAccountFailures, config.lockoutSeconds);
  const addressFailures = await countFailure(db, 'address', keys.address, config.maxAddressFailures, config.lockoutSeconds);
  return failureDelay(Math.max(accountFailures, addressFailures), config.failureDelayMs);
}

/** The wait after the n-th failure in a row. */
export function failureDelay(failures: number, perFailureMs: number): number {
  return Math.min(MAX_FAILURE_DELAY_MS, Math.max(0, failures - 2) * perFailureMs);
}

export async function recordSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db.deleteFrom('signinAttempts').where('scope', '=', 'account').where('key', '=', keys.account).execute();
}
