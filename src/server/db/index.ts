/**
 * The Kysely instance over PGlite (embedded, the default) or PostgreSQL (DATABASE_URL), with the
 * same migrations and the same typed Database for both.
 */
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

/** LISTEN on a connection of its own (a pooled one would be handed to other queries); reconnects after a loss. */
function listenOnPostgres(databaseUrl: string, channel: string, handlers: NotificationHandlers, logger?: Pick<Logger, 'warn' | 'debug'>): NotificationListener {
  let client: pg.Client | undefined;
  let listening = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: 'corporate-admin-portal (listen)' });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (error) logger?.warn({ err: error }, `database notifications interrupted (${channel})`);
      listening = false;
      handlers.onInterrupted();
      if (client === next) client = undefined;
      next.end().catch(() => undefined);
      if (!closed) retry = setTimeout(() => void connect(), RELISTEN_DELAY_MS).unref();
    };
    next.on('notification', (message) => message.channel === channel && handlers.onNotification(message.payload ?? ''));
    next.on('error', onLost);
    next.on('end', () => onLost());
    try {
      await next.connect();
      await next.query(`listen ${channel}`);
      if (closed) return void next.end().catch(() => undefined);
      client = next;
      // notifications sent before the LISTEN were missed
      handlers.onInterrupted();
      listening = true;
    } catch (error) {
      onLost(error);
    }
  };
  void connect();
  return {
    get listening() {
      return listening;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}

export interface DatabaseOptions {
  /** `postgres://…`, `memory://`, or undefined for PGlite in `<dataDir>/pgdata`. */
  databaseUrl?: string;
  dataDir?: string;
  logger?: Pick<Logger, 'warn' | 'debug'>;
  /** pg pool size (PostgreSQL only). */
  poolSize?: number;
  /** An open PGlite to use (tests clone a migrated template); closed with the handle. */
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
    listen = (channel, handlers) => listenOnPostgres(databaseUrl, channel, handlers, options.logger);
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
