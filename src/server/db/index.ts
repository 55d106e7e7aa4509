/**
 * The Kysely instance over PGlite (embedded, the default) or PostgreSQL (DATABASE_URL), with the
 * same migrations and the same typed Database for both.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, PostgresQueryCompiler, sql, type CompiledQuery, type Dialect, type QueryId, type RootOperationNode } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Logger } from 'pino';
import { MEMORY_DATABASE_URL } from '../config.js';
import { DatabaseUnavailableError } from './errors.js';
import { migrationProvider } from './migrations/index.js';
import { preparingPool } from './preparedStatements.js';
import { queriesRunElsewhere } from './readAhead.js';
import type { Database } from './types.js';

export type Db = Kysely<Database>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  kind: DatabaseKind;
  /** Runs `select 1`; rejects when the database does not answer within timeoutMs. */
  ping(timeoutMs?: number): Promise<void>;
  /** Closes the pool or the embedded database; safe to call more than once. */
  close(): Promise<void>;
  /** The PostgreSQL pool's connections (undefined on PGlite): for the metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Called with each query that fails (the metrics count them); set by the app. */
  onQueryError?: (error: unknown) => void;
  /** Called whenever a listening connection is lost or goes silent (the metrics count them); set by the app. */
  onNotificationsInterrupted?: () => void;
  /** Whether every notification listener listens now (false while one reconnects). */
  notificationsListening(): boolean;
  /**
   * Listens to a notification channel (PostgreSQL LISTEN on a connection of its own, reconnected when lost; PGlite
   * in process). `onInterrupted` is called whenever notifications may have been missed: while `listening` is false
   * nothing kept on their strength can be trusted.
   */
  listen(channel: string, handlers: NotificationHandlers): NotificationListener;
}

export interface NotificationHandlers {
  onNotification(payload: string): void;
  onInterrupted(): void;
}

export interface NotificationListener {
  readonly listening: boolean;
  close(): Promise<void>;
}

/** A channel name is written into LISTEN as an identifier: only plain names. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;
const RELISTEN_DELAY_MS = 1000;

function listenOnPglite(pglite: PGlite, channel: string, handlers: NotificationHandlers): NotificationListener {
  let listening = false;
  const subscription = pglite.listen(channel, handlers.onNotification).then((unsubscribe) => {
    listening = true;
    return unsubscribe;
  });
  return {
    get listening() {
      return listening;
    },
    async close() {
      listening = false;
      await (await subscription.catch(() => undefined))?.().catch(() => undefined);
    },
  };
}

/** Ends a client, cutting its socket after graceMs: end() waits for the server's goodbye, which a silent connection never sends. */
async function endClient(client: pg.Client, graceMs: number): Promise<void> {
  const cut = setTimeout(() => client.connection.stream.destroy(), graceMs);
  await client.end().catch(() => undefined);
  clearTimeout(cut);
}

/** Payloads of the listener's own heartbeats: never handed to the channel's handlers. */
const HEARTBEAT_PREFIX = 'heartbeat:';
/** The heartbeat's period unless the caller names one (LISTEN_HEARTBEAT_INTERVAL). */
export const DEFAULT_HEARTBEAT_INTERVAL_MS = 5000;

interface PostgresListenOptions {
  /** The connection string of the listening connection: a direct one, never through a pooler in transaction mode. */
  url: string;
  /** Sends a notification through the pool, the way every other instance's writes notify. */
  notify(channel: string, payload: string): Promise<void>;
  heartbeatIntervalMs: number;
  logger?: Pick<Logger, 'warn' | 'info' | 'debug'>;
  onInterrupted?: () => void;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries); reconnects after a loss.
 * A connection can also die silently — a NAT or load balancer dropping it without FIN or RST, or a pooler in
 * transaction mode that never delivers notifications — and then `listening` would stay true while nothing arrives
 * (issue 25 finding 1). So TCP keepalive is on, and a heartbeat goes through the pool every `heartbeatIntervalMs`
 * and must come back on this connection within two periods (a busy pool may hold one back a while); when it does not, the connection is taken as
 * lost: `onInterrupted`, a log line, and a new connection.
 */
function listenOnPostgres(channel: string, handlers: NotificationHandlers, options: PostgresListenOptions): NotificationListener {
  const { logger, heartbeatIntervalMs } = options;
  const beat = `${HEARTBEAT_PREFIX}${randomUUID()}:`;
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let sent = 0;
  let heard = 0;
  let interrupted = false;
  const connect = async () => {
    const next = new pg.Client({
      connectionString: options.url,
      application_name: 'corporate-admin-portal (listen)',
      keepAlive: true,
      keepAliveInitialDelayMillis: heartbeatIntervalMs,
      // a black-holed address must not keep the reconnection waiting for ever
      connectionTimeoutMillis: Math.max(2 * heartbeatIntervalMs, 2000),
      query_timeout: Math.max(2 * heartbeatIntervalMs, 2000),
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (!interrupted) logger?.warn({ err: error, channel }, `database notifications interrupted (${channel}): cached values dropped, reconnecting`);
      interrupted = true;
      listening = false;
      handlers.onInterrupted();
      options.onInterrupted?.();
      if (client === next) client = undefined;
      void endClient(next, 0);
      if (!closed) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS).unref();
    };
    next.on('notification', (message) => {
      if (message.channel !== channel) return;
      const payload = message.payload ?? '';
      if (!payload.startsWith(HEARTBEAT_PREFIX)) handlers.onNotification(payload);
      else if (client === next && payload.startsWith(beat)) heard = Math.max(heard, Number(payload.slice(beat.length)));
    });
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      if (closed) return void next.end().catch(() => undefined);
      client = next;
      heard = sent;
      // notifications sent before the LISTEN were missed
      handlers.onInterrupted();
      listening = true;
      if (interrupted) logger?.info({ channel }, `database notifications listening again (${channel})`);
      interrupted = false;
    } catch (error) {
      onLost(error);
    }
  };
  const heartbeat = setInterval(() => {
    const current = client;
    if (!current || !listening) return;
    if (sent - heard >= 2) {
      current.emit('error', new Error(`no heartbeat came back within ${2 * heartbeatIntervalMs} ms`));
      return;
    }
    sent += 1;
    // a failed send (the database away) leaves the beat unheard: two ticks later the connection is taken as lost
    options.notify(channel, `${beat}${sent}`).catch(() => undefined);
  }, heartbeatIntervalMs).unref();
  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      clearInterval(heartbeat);
      if (client) await endClient(client, 1000);
    },
  };
}

export interface DatabaseOptions {
  /** `postgres://…`, `memory://`, or undefined for PGlite in `<dataDir>/pgdata`. */
  databaseUrl?: string;
  dataDir?: string;
  logger?: Pick<Logger, 'warn' | 'info' | 'debug'>;
  /** pg pool size (PostgreSQL only). */
  poolSize?: number;
  /** The listening connection's own connection string (LISTEN_DATABASE_URL); default databaseUrl. */
  listenDatabaseUrl?: string;
  /** How often the listening connection proves it still hears (LISTEN_HEARTBEAT_INTERVAL), ms. */
  heartbeatIntervalMs?: number;
  /** An open PGlite to use (tests start each from a migrated template); closed with the handle. */
  pglite?: PGlite;
}

/**
 * The most parameters a statement may carry. The protocol's Bind message counts them in 16 bits: with 32768 or more,
 * PGlite's backend misreads the message and every later statement reads another one's answer (empty rows, then
 * "RangeError: Invalid array length") until a restart; PostgreSQL answers 08P01. Lists travel as one array
 * parameter (db/lists.ts), so only a mistake reaches this; it is refused before anything is sent.
 */
export const MAX_QUERY_PARAMETERS = 32767;

export class QueryTooLargeError extends Error {
  constructor(count: number) {
    super(`A statement with ${count} parameters (at most ${MAX_QUERY_PARAMETERS}): send lists as one array parameter`);
    this.name = 'QueryTooLargeError';
  }
}

class BoundedQueryCompiler extends PostgresQueryCompiler {
  override compileQuery(node: RootOperationNode, queryId: QueryId): CompiledQuery {
    const compiled = super.compileQuery(node, queryId);
    if (compiled.parameters.length > MAX_QUERY_PARAMETERS) throw new QueryTooLargeError(compiled.parameters.length);
    return compiled;
  }
}

/** The dialect with the parameter bound of MAX_QUERY_PARAMETERS. */
function bounded(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => dialect.createDriver(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => new BoundedQueryCompiler(),
  };
}

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  const { databaseUrl } = options;
  let dialect: Dialect;
  let kind: DatabaseKind;
  let poolStats: DatabaseHandle['poolStats'];
  let listen: DatabaseHandle['listen'];
  if (options.pglite) {
    kind = 'pglite';
    dialect = new PGliteDialect(options.pglite);
    const pglite = options.pglite;
    listen = (channel, handlers) => listenOnPglite(pglite, channel, handlers);
  } else if (databaseUrl !== undefined && databaseUrl !== MEMORY_DATABASE_URL) {
    kind = 'postgres';
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      // Fail fast while the database is away, so requests answer 503 instead of hanging.
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      application_name: 'corporate-admin-portal',
    });
    // An idle client whose connection dies emits 'error' on the pool; without a listener the process
    // would crash. The pool drops that client and opens a fresh one on the next query.
    pool.on('error', (error) => options.logger?.warn({ err: error }, 'database connection lost (idle client)'));
    // A client checked out by Kysely has no pool listener: when its connection dies mid-query, pg both
    // rejects the query (answered 503) and emits 'error' on the client, which would crash the process
    // unless someone listens. The pool discards such a client on release (it is no longer queryable).
    pool.on('connect', (client) => {
      client.on('error', (error) => options.logger?.debug({ err: error }, 'database connection lost (client in use)'));
    });
    dialect = new PostgresDialect({ pool: preparingPool(pool) });
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    listen = (channel, handlers) =>
      listenOnPostgres(channel, handlers, {
        url: options.listenDatabaseUrl ?? databaseUrl,
        notify: async (name, payload) => void (await sql`select pg_notify(${name}, ${payload})`.execute(db)),
        heartbeatIntervalMs: options.heartbeatIntervalMs ?? DEFAULT_HEARTBEAT_INTERVAL_MS,
        logger: options.logger,
        onInterrupted: () => handle?.onNotificationsInterrupted?.(),
      });
  } else {
    kind = 'pglite';
    let dataDir: string | undefined;
    if (databaseUrl !== MEMORY_DATABASE_URL) {
      if (!options.dataDir) throw new Error('createDatabase: dataDir is required for the embedded database');
      dataDir = path.join(options.dataDir, 'pgdata');
      mkdirSync(dataDir, { recursive: true });
    }
    const pglite = new PGlite(dataDir);
    dialect = new PGliteDialect(pglite);
    listen = (channel, handlers) => listenOnPglite(pglite, channel, handlers);
  }

  let handle: DatabaseHandle | undefined = undefined;
  const db = new Kysely<Database>({
    dialect: bounded(dialect),
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true })],
    log: (event) => {
      if (event.level === 'error') handle?.onQueryError?.(event.error);
    },
  });

  if (kind === 'postgres') queriesRunElsewhere(db);
  let closing: Promise<void> | undefined;
  const listeners = new Set<NotificationListener>();
  handle = {
    db,
    kind,
    poolStats,
    listen(channel, handlers) {
      if (!CHANNEL_NAME.test(channel)) throw new Error(`listen: not a plain channel name: ${channel}`);
      const listener = listen(channel, handlers);
      listeners.add(listener);
      return listener;
    },
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseUnavailableError(`Database unavailable: no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([sql`select 1`.execute(db), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    notificationsListening: () => [...listeners].every((listener) => listener.listening),
    close() {
      closing ??= Promise.all([...listeners].map((listener) => listener.close())).then(() => db.destroy());
      return closing;
    },
  };
  return handle;
}

/** Brings the schema to the latest migration; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String((error as Error).message ?? error)}`, { cause: error });
  }
}
