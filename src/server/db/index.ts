/**
 * The Kysely instance over PGlite (embedded, the default) or PostgreSQL (DATABASE_URL), with the
 * same migrations and the same typed Database for both.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, sql, type Dialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import type { Logger } from 'pino';
import { MEMORY_DATABASE_URL } from '../config.js';
import { DatabaseUnavailableError } from './errors.js';
import { migrationProvider } from './migrations/index.js';
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

export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  const { databaseUrl } = options;
  let dialect: Dialect;
  let kind: DatabaseKind;
  let poolStats: DatabaseHandle['poolStats'];
  if (options.pglite) {
    kind = 'pglite';
    dialect = new PGliteDialect(options.pglite);
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
    dialect = new PostgresDialect({ pool });
    poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  } else {
    kind = 'pglite';
    let dataDir: string | undefined;
    if (databaseUrl !== MEMORY_DATABASE_URL) {
      if (!options.dataDir) throw new Error('createDatabase: dataDir is required for the embedded database');
      dataDir = path.join(options.dataDir, 'pgdata');
      mkdirSync(dataDir, { recursive: true });
    }
    dialect = new PGliteDialect(new PGlite(dataDir));
  }

  let handle: DatabaseHandle | undefined = undefined;
  const db = new Kysely<Database>({
    dialect,
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true })],
    log: (event) => {
      if (event.level === 'error') handle?.onQueryError?.(event.error);
    },
  });

  let closing: Promise<void> | undefined;
  handle = {
    db,
    kind,
    poolStats,
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
      closing ??= db.destroy();
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
