/**
 * Mail work done after the answer (issue 7 finding 11), kept in the database (table mail_queue) until done:
 * - `enqueue(kind, payload)` stores a job; the request answers without waiting for, or being timed by, the mail;
 * - after each response that queued something (and every half minute, and at startup) the worker runs the due jobs;
 *   a failing job is retried with a growing delay (30 s, 1 min, 2 min … at most 1 h) and given up after 10 attempts;
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

export interface MailQueue {
  /** Delivers at once (for the jobs themselves). */
  readonly transport: Mailer;
  /** Queues rendered mails: the Mailer routes use. */
  readonly mailer: Mailer;
  /** Stores a job; `within` a caller's transaction, the job exists only if that transaction commits. */
  enqueue(kind: string, payload: unknown, within?: Db): Promise<void>;
  handle(kind: string, handler: JobHandler): void;
  /** Starts the worker if anything was queued since it last ran (called after each response). */
  kick(): void;
  drain(): Promise<void>;
  close(): Promise<void>;
}

export function retryDelayMs(attempts: number): number {
  return Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

export type MailJobOutcome = 'sent' | 'retry' | 'given_up';

export function createMailQueue(options: { db: Db; transport: Mailer; log: Logger; worker: boolean; onOutcome?: (outcome: MailJobOutcome) => void }): MailQueue {
  const { db, transport, log } = options;
  const outcome = (what: MailJobOutcome) => options.onOutcome?.(what);
  const handlers = new Map<string, JobHandler>([[MAIL_JOB, (mail: OutgoingMail) => transport.send(mail)]]);
  let queuedSinceRun = true; // at startup: jobs another instance left
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
      outcome('sent');
    } catch (error) {
      const lastError = (error as Error).message.slice(0, 1000);
      if (job.attempts >= MAX_ATTEMPTS) {
        log.error({ err: error, jobId: job.id, kind: job.kind }, 'mail job given up');
        outcome('given_up');
        await db.updateTable('mailQueue').set({ failedAt: new Date(), lockedUntil: null, lastError }).where('id', '=', job.id).execute();
      } else {
        log.warn({ err: error, jobId: job.id, kind: job.kind, attempts: job.attempts }, 'mail job failed: retrying later');
        outcome('retry');
        const nextAttemptAt = new Date(Date.now() + retryDelayMs(job.attempts));
        await db.updateTable('mailQueue').set({ nextAttemptAt, lockedUntil: null, lastError }).where('id', '=', job.id).execute();
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

  return {
    transport,
    mailer: {
      kind: transport.kind,
      send: (mail) => enqueue(MAIL_JOB, mail),
      close: () => undefined,
    },
    enqueue,
    handle(kind, handler) {
      handlers.set(kind, handler);
    },
    kick() {
      if (options.worker && queuedSinceRun) background();
    },
    drain,
    async close() {
      clearInterval(sweep);
      await running?.catch(() => undefined);
    },
  };

  async function enqueue(kind: string, payload: unknown, within: Db = db): Promise<void> {
    await within
      .insertInto('mailQueue')
      .values({ kind, payload: sql`cast(${JSON.stringify(payload)} as jsonb)` })
      .execute();
    queuedSinceRun = true;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Mail work after the answer (created by buildApp). */
    mailQueue: MailQueue;
  }
}
