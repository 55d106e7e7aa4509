/**
 * Work done after the answer (issue 7 finding 11), kept in the database (table mail_queue) until done: mail, and
 * since issue 46 the webhook deliveries too (one queue, not one per kind of work):
 * - `enqueue(kind, payload)` stores a job; the request answers without waiting for, or being timed by, the work;
 *   a domain write with no queue at hand stores one with `enqueueJob(trx, kind, payload)` in its transaction;
 * - after each response that queued something (and every half minute, and at startup) the worker runs the due jobs;
 * - a failing job is retried on its kind's schedule (`handle(kind, handler, schedule)`); mail's: a growing delay
 *   (30 s, 1 min, 2 min … at most 1 h), given up after 10 attempts; a schedule's `givenUp` runs when it is;
 * - a job claimed by an instance that died is taken over once its claim expires, so a crash loses no mail;
 * - `drain()` runs every due job now and resolves when none is left (the outbox and the tests call it).
 * Jobs: `mail` (a rendered mail without secrets; `mailer.send` queues these) and kinds the routes register with
 * `handle` (the activation and reset requests, which render and deliver their link themselves so that no token
 * waits in the table).
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/index.js';
import type { Mailer, OutgoingMail } from './mailer.js';

export const MAIL_JOB = 'mail';
const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LAST_RETRY_MS = 3_600_000;
const CLAIM = sql<Date>`now() + interval '5 minutes'`;
const SWEEP_INTERVAL_MS = 30_000;

export type JobHandler = (payload: never) => Promise<void>;

/** When a kind's failed job runs again, and what happens when it is given up. */
export interface RetrySchedule {
  /** The delay before the next attempt after `attempts` failed ones; undefined: give up. */
  delayMs(attempts: number): number | undefined;
  /** Runs once when the job is given up (its error logged, the row kept as failed). */
  givenUp?(payload: never): Promise<void>;
}

/** Mail's schedule (kinds without their own): 30 s doubling to at most 1 h, 10 attempts. */
export const MAIL_RETRY_SCHEDULE: RetrySchedule = {
  delayMs: (attempts) => (attempts >= MAX_ATTEMPTS ? undefined : retryDelayMs(attempts)),
};

/** Jobs stored in this process since a queue last ran: `enqueueJob` within a domain's transaction wakes the worker too. */
let storedInProcess = 0;

/** Stores a job in `within` (a caller's transaction: the job exists only if it commits). */
export async function enqueueJob(within: Db, kind: string, payload: unknown): Promise<void> {
  await within
    .insertInto('mailQueue')
    .values({ kind, payload: sql`cast(${JSON.stringify(payload)} as jsonb)` })
    .execute();
  storedInProcess += 1;
}

export interface MailQueue {
  /** Delivers at once (for the jobs themselves). */
  readonly transport: Mailer;
  /** Queues rendered mails: the Mailer routes use. */
  readonly mailer: Mailer;
  /** Stores a job; `within` a caller's transaction, the job exists only if that transaction commits. */
  enqueue(kind: string, payload: unknown, within?: Db): Promise<void>;
  /** The kind's handler, retried on its schedule (default: mail's). */
  handle(kind: string, handler: JobHandler, schedule?: RetrySchedule): void;
  /** Starts the worker if anything was queued since it last ran (called after each response). */
  kick(): void;
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export type MailJobOutcome = 'sent' | 'retry' | 'given_up';

export function createMailQueue(options: { db: Db; transport: Mailer; log: Logger; worker: boolean; onOutcome?: (outcome: MailJobOutcome, kind: string) => void }): MailQueue {
  const { db, transport, log } = options;
  const outcome = (what: MailJobOutcome, kind: string) => options.onOutcome?.(what, kind);
  const handlers = new Map<string, JobHandler>([[MAIL_JOB, (mail: OutgoingMail) => transport.send(mail)]]);
  const schedules = new Map<string, RetrySchedule>();
  let queuedSinceRun = true; // at startup: jobs another instance left
  let storedAtRun = storedInProcess;
  let running: Promise<void> | undefined;
  let again = false;

  async function claim() {
    return db
      .updateTable('mailQueue')
      .set({ lockedUntil: CLAIM, attempts: sql<number>`attempts + 1` })
      .where('id', '=', (eb) =>
        eb
          .selectFrom('mailQueue')
          .select('id')
          .where('failedAt', 'is', null)
          .where('nextAttemptAt', '<=', sql<Date>`now()`)
          .where((inner) => inner.or([inner('lockedUntil', 'is', null), inner('lockedUntil', '<', sql<Date>`now()`)]))
          .orderBy('id')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returningAll()
      .executeTakeFirst();
  }

  /** Runs one due job; false when none is due. */
  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    try {
      const handler = handlers.get(job.kind);
      if (!handler) throw new Error(`no handler for mail job kind "${job.kind}"`);
      await handler(job.payload as never);
      await db.deleteFrom('mailQueue').where('id', '=', job.id).execute();
      outcome('sent', job.kind);
    } catch (error) {
      const lastError = (error as Error).message.slice(0, 1000);
      const schedule = schedules.get(job.kind) ?? MAIL_RETRY_SCHEDULE;
      const delay = schedule.delayMs(job.attempts);
      if (delay === undefined) {
        log.error({ err: error, jobId: job.id, kind: job.kind }, 'mail job given up');
        outcome('given_up', job.kind);
        await db.updateTable('mailQueue').set({ failedAt: new Date(), lockedUntil: null, lastError }).where('id', '=', job.id).execute();
        await schedule.givenUp?.(job.payload as never).catch((cause: unknown) => log.error({ err: cause, jobId: job.id, kind: job.kind }, 'queue: a given-up job\'s follow-up failed'));
      } else {
        log.warn({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'mail job failed: retrying later');
        outcome('retry', job.kind);
        const nextAttemptAt = new Date(Date.now() + delay);
        await db.updateTable('mailQueue').set({ nextAttemptAt, lockedUntil: null, lastError }).where('id', '=', job.id).execute();
        wakeAfter(delay);
      }
    }
    return true;
  }

  function drain(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    queuedSinceRun = false;
    storedAtRun = storedInProcess;
    running = (async () => {
      do {
        again = false;
        while (await runOne());
      } while (again);
    })().finally(() => {
      running = undefined;
    });
    return running;
  }

  function background(): void {
    drain().catch((error: unknown) => log.warn({ err: error }, 'mail queue: worker run failed'));
  }

  const sweep = options.worker ? setInterval(background, SWEEP_INTERVAL_MS) : undefined;
  sweep?.unref();
  /** A retry due before the next sweep gets a run of its own: a webhook's first retry is 5 s after, not up to 35 s. */
  const wakes = new Set<NodeJS.Timeout>();
  function wakeAfter(delayMs: number): void {
    if (!options.worker || delayMs >= SWEEP_INTERVAL_MS) return;
    const wake = setTimeout(() => {
      wakes.delete(wake);
      background();
    }, delayMs);
    wake.unref();
    wakes.add(wake);
  }

  return {
    transport,
    mailer: {
      kind: transport.kind,
      send: (mail) => enqueue(MAIL_JOB, mail),
      close: () => undefined,
    },
    enqueue,
    handle(kind, handler, schedule) {
      handlers.set(kind, handler);
      if (schedule) schedules.set(kind, schedule);
    },
    kick() {
      if (options.worker && (queuedSinceRun || storedAtRun !== storedInProcess)) background();
    },
    drain,
    async close() {
      clearInterval(sweep);
      for (const wake of wakes) clearTimeout(wake);
      await running?.catch(() => undefined);
    },
  };

  async function enqueue(kind: string, payload: unknown, within: Db = db): Promise<void> {
    await enqueueJob(within, kind, payload);
    queuedSinceRun = true;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Mail work after the answer (created by buildApp). */
    mailQueue: MailQueue;
  }
}
