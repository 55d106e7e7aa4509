/**
 * Password guesses are slowed, then refused for a while (issue 3 §1, issue 7 finding 5). The counters live in the
 * database (signin_attempts) so every instance sees them. Three counters per attempt:
 * - account_address (the e-mail entered, known or not, from one client address): locked at `maxAccountFailures`;
 * - address (the client address, any account): locked at `maxAddressFailures`;
 * - account (the e-mail from every address): never locked, only slowed down, so nobody can lock an account from
 *   anywhere; a guesser spread over many addresses still meets each address's own lock.
 * A second-step code (issue 44 finding 2) counts a fourth: second_step (the account's codes from every address),
 * locked at `maxSecondStepFailures`. Only someone who typed the right password reaches it, so its lock takes nothing
 * from anyone else, and many addresses no longer buy a thief more guesses of the three codes valid at any time.
 *
 * An attempt is counted BEFORE its password is checked (`beginAttempt`, one atomic statement): of any number of
 * parallel guesses no more than the limits are checked at all. A success takes its own count back (`recordSuccess`).
 * - Counts are remembered for `lockoutSeconds` after the last attempt; a lock lasts `lockoutSeconds` from the attempt
 *   that reached the limit and does not grow while refused attempts go on; after it a new count starts.
 * - A failed attempt's answer waits `failureDelayMs` more per counted attempt from the third on (at most 3 s), by
 *   the largest of the three counts.
 */
import { sql } from 'kysely';
import type { SigninThrottleConfig } from '../config.js';
import type { Db } from '../db/index.js';

export interface ThrottleKeys {
  /** The e-mail as entered, normalised (lower case). */
  account: string;
  /** The client address (request.ip). */
  address: string;
  /** A second step's attempt: the admin's id, counted across addresses. */
  secondStep?: string;
}

export interface AttemptVerdict {
  /** False: refused without checking the password (a lock holds). */
  allowed: boolean;
  /** The end of the lock of this account from this address or of this address, when one holds (also from this attempt on). */
  lockedUntil: Date | undefined;
  /** How long to wait before answering a failure (ms). */
  failureDelayMs: number;
}

export const MAX_FAILURE_DELAY_MS = 3000;

const pairKey = (keys: ThrottleKeys) => `${keys.account} ${keys.address}`;

/** Counts one attempt under the three keys at once and says whether its password may be checked. */
export async function beginAttempt(db: Db, keys: ThrottleKeys, config: SigninThrottleConfig): Promise<AttemptVerdict> {
  const lockout = sql`make_interval(secs => ${config.lockoutSeconds}::int)`;
  // the limit of a row's scope; null (the account across addresses) never locks
  const limit = sql`(case signin_attempts.scope when 'account_address' then ${config.maxAccountFailures}::int when 'address' then ${config.maxAddressFailures}::int when 'second_step' then ${config.maxSecondStepFailures}::int end)`;
  const firstLock = (max: number) => (max <= 1 ? sql`now() + ${lockout}` : sql`null::timestamptz`);
  // a lock that ended, or a count not touched for lockoutSeconds, starts over
  const fresh = sql`((signin_attempts.locked_until is not null and signin_attempts.locked_until <= now())
    or (signin_attempts.locked_until is null and signin_attempts.last_failure_at < now() - ${lockout}))`;
  const { rows } = await sql<{ scope: string; failures: number; lockedUntil: Date | string | null }>`
    insert into signin_attempts (scope, key, failures, last_failure_at, locked_until) values
      ('account_address', ${pairKey(keys)}, 1, now(), ${firstLock(config.maxAccountFailures)}),
      ('address', ${keys.address}, 1, now(), ${firstLock(config.maxAddressFailures)}),
      ('account', ${keys.account}, 1, now(), null)
      ${keys.secondStep === undefined ? sql`` : sql`, ('second_step', ${keys.secondStep}, 1, now(), ${firstLock(config.maxSecondStepFailures)})`}
    on conflict (scope, key) do update set
      failures = case when ${fresh} then 1 else signin_attempts.failures + 1 end,
      last_failure_at = now(),
      locked_until = case
        when ${fresh} then case when 1 >= ${limit} then now() + ${lockout} end
        when signin_attempts.locked_until is not null then signin_attempts.locked_until
        when signin_attempts.failures + 1 >= ${limit} then now() + ${lockout}
      end
    returning scope, failures, locked_until`.execute(db);
  const row = (scope: string) => rows.find((candidate) => candidate.scope === scope);
  const pair = row('account_address');
  const address = row('address');
  const secondStep = row('second_step');
  const locks = [pair, address, secondStep].map((candidate) => candidate?.lockedUntil).filter((until): until is Date | string => until != null);
  return {
    allowed:
      Number(pair?.failures) <= config.maxAccountFailures &&
      Number(address?.failures) <= config.maxAddressFailures &&
      (secondStep === undefined || Number(secondStep.failures) <= config.maxSecondStepFailures),
    lockedUntil: locks.length > 0 ? new Date(Math.max(...locks.map((until) => new Date(until).getTime()))) : undefined,
    failureDelayMs: failureDelay(Math.max(...rows.map((candidate) => Number(candidate.failures))), config.failureDelayMs),
  };
}

/** The wait after the n-th failure in a row. */
export function failureDelay(failures: number, perFailureMs: number): number {
  return Math.min(MAX_FAILURE_DELAY_MS, Math.max(0, failures - 2) * perFailureMs);
}

/**
 * The password (or the second step) was right: the account's counts (from this address and across addresses) are cleared, and the
 * address's count takes this attempt back (so that one valid account cannot reset the count of an address that
 * tries many accounts, and successes never lock an address).
 */
export async function recordSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await db
    .deleteFrom('signinAttempts')
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'account_address'), eb('key', '=', pairKey(keys))]),
        eb.and([eb('scope', '=', 'account'), eb('key', '=', keys.account)]),
        ...(keys.secondStep === undefined ? [] : [eb.and([eb('scope', '=', 'second_step'), eb('key', '=', keys.secondStep)])]),
      ]),
    )
    .execute();
  await db
    .updateTable('signinAttempts')
    .set({ failures: sql<number>`greatest(failures - 1, 0)` })
    .where('scope', '=', 'address')
    .where('key', '=', keys.address)
    .execute();
}

/** Whole minutes (at least 1) until a lock ends, for the pages. */
export function minutesUntil(until: Date, now = Date.now()): number {
  return Math.max(1, Math.ceil((until.getTime() - now) / 60_000));
}
