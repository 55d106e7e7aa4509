/**
 * One instance at a time for a periodic job (migration 0095 job_leases): a lease taken in one statement and held until
 * it is given back or runs out (an instance that dies mid-run frees it at the end of the lease). Unlike an advisory
 * lock it holds no connection, so the job may use the pool — and PGlite's single connection — as any request does.
 */
import { sql } from 'kysely';
import type { Db } from './index.js';

/** Runs `job` if no other instance holds the lease; undefined when one does. The lease is given back only by its holder. */
export async function withJobLease<T>(db: Db, name: string, leaseSeconds: number, job: () => Promise<T>): Promise<T | undefined> {
  const taken = await db
    .insertInto('jobLeases')
    .values({ name, heldUntil: sql<Date>`now() + make_interval(secs => ${leaseSeconds})` })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ heldUntil: (eb) => eb.ref('excluded.heldUntil') }).where('jobLeases.heldUntil', '<', sql<Date>`now()`))
    // the lease's end to the microsecond (a Date keeps milliseconds) marks this holder: a takeover sets a later one
    .returning(sql<string>`held_until::text`.as('mark'))
    .executeTakeFirst();
  if (!taken) return undefined;
  try {
    return await job();
  } finally {
    // only our own lease: one that ran out meanwhile may be another instance's now
    await db
      .updateTable('jobLeases')
      .set({ heldUntil: sql<Date>`now()` })
      .where('name', '=', name)
      .where('heldUntil', '=', sql<Date>`cast(${taken.mark} as timestamptz)`)
      .execute();
  }
}
