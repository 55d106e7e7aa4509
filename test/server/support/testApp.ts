/**
 * Test support for everything that needs the server: a clean database per test file, an app built
 * on it, or a real server listening on a free port (for e2e tests).
 *
 * Database: PGlite in memory by default (cloned from a migrated template, so each one takes well
 * under a second); with TEST_DATABASE_URL set (postgres://…), a freshly created, uniquely named
 * PostgreSQL database that is dropped afterwards.
 *
 *   describe('…', () => {
 *     const ctx = useTestApp();                   // before/after hooks: ctx.app, ctx.db, ctx.config
 *     it('…', async () => { const res = await ctx.app.inject({ url: '/healthz' }); });
 *   });
 *
 *   const server = await startTestServer({ env: { SEED: 'demo' } });   // server.url … server.close()
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Logger } from 'pino';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig, type Config } from '../../../src/server/config.js';
import { createDatabase, migrateToLatest, type DatabaseHandle, type Db } from '../../../src/server/db/index.js';

export interface TestDatabase {
  database: DatabaseHandle;
  db: Db;
  /** The PostgreSQL URL of the fresh database; undefined for PGlite. */
  url: string | undefined;
  /** Closes the database and, for PostgreSQL, drops it. */
  destroy(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Base PostgreSQL URL to create the database from; default TEST_DATABASE_URL; none → PGlite. */
  baseUrl?: string;
  /** Connect to the created database through this URL instead (e.g. a proxy); its database name is replaced. */
  connectUrl?: string;
  poolSize?: number;
}

let template: Promise<Blob> | undefined;

/**
 * A migrated PGlite's data directory, made once per test process: each test database starts from it (PGlite's
 * clone() would dump the template again for every one, a third of a database's start).
 */
function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    const pglite = new PGlite();
    const handle = createDatabase({ pglite });
    await migrateToLatest(handle.db);
    const dataDir = await pglite.dumpDataDir('none');
    await handle.close();
    return dataDir;
  })();
  return template;
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A clean, migrated database for one test file. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const baseUrl = options.baseUrl ?? (process.env.TEST_DATABASE_URL || undefined);
  if (!baseUrl) {
    const database = createDatabase({ pglite: await PGlite.create({ loadDataDir: await pgliteTemplate() }) });
    return { database, db: database.db, url: undefined, destroy: () => database.close() };
  }

  const name = `portal_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabaseName(baseUrl, name);
  const database = createDatabase({ databaseUrl: withDatabaseName(options.connectUrl ?? baseUrl, name), poolSize: options.poolSize ?? 5 });
  await migrateToLatest(database.db);
  return {
    database,
    db: database.db,
    url,
    async destroy() {
      await database.close();
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface TestAppOptions {
  /** Settings on top of the test defaults (DEMO on, LOG_LEVEL silent, SEED none, DIST_DIR a missing directory). */
  env?: Record<string, string | undefined>;
  /** Use this database instead of a fresh one (the caller destroys it). */
  testDatabase?: TestDatabase;
  logger?: Logger;
  /** false: queued mail waits for `app.mailQueue.drain()`. */
  mailQueueWorker?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: Db;
  testDatabase: TestDatabase;
  /** Closes the app, then destroys its database (unless the caller passed it in). */
  close(): Promise<void>;
}

/** DEMO=on: tests build apps on hosts such as https://portal.example.com and read the outbox (pass DEMO: undefined to see a real host's behaviour). */
/** SECRET_KEY for an app outside demo mode, where it is required (issue 44): a fixed test key. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 44).toString('base64');

export const TEST_ENV: Record<string, string> = {
  DEMO: 'on',
  // what an installation outside demo mode must have; test/server/domain/twoStep.test.ts covers demo mode's generated key
  SECRET_KEY: TEST_SECRET_KEY,
  LOG_LEVEL: 'silent',
  SEED: 'none',
  DIST_DIR: path.join(os.tmpdir(), 'portal-test-no-dist'),
  HOST: '127.0.0.1',
  PORT: '0',
};

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = options.testDatabase ?? (await createTestDatabase());
  try {
    const config = loadConfig({ ...TEST_ENV, ...options.env });
    // no periodic clean-up: it would delete the old rows some tests make on purpose (they call app.runRetention())
    const app = await buildApp(config, { database: testDatabase.database, logger: options.logger, mailQueueWorker: options.mailQueueWorker, periodicJobs: false });
    return {
      app,
      config,
      db: testDatabase.db,
      testDatabase,
      async close() {
        await app.close();
        if (!options.testDatabase) await testDatabase.destroy();
      },
    };
  } catch (error) {
    if (!options.testDatabase) await testDatabase.destroy();
    throw error;
  }
}

/**
 * Registers mocha before/after hooks that build a test app on a clean database for the enclosing
 * describe(); the returned object's fields are filled in by the before hook.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  const context = {} as TestApp;
  before(async function () {
    this.timeout(60_000);
    Object.assign(context, await createTestApp(options));
  });
  after(async () => {
    await context.close?.();
  });
  return context;
}

export interface TestServer extends TestApp {
  /** http://127.0.0.1:<port>, no trailing slash. */
  url: string;
  dataDir: string;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A real server on a free port of 127.0.0.1 with a temporary DATA_DIR and a clean database; PORT and
 * PUBLIC_URL are set to its address before the app is built. For browser tests pass DIST_DIR in env.
 */
export async function startTestServer(options: TestAppOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-data-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  try {
    const testApp = await createTestApp({ ...options, env: { DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: url, ...options.env } });
    await testApp.app.listen({ host: '127.0.0.1', port });
    return {
      ...testApp,
      url,
      dataDir,
      async close() {
        // the tests are over: a keep-alive connection a client left open (one whose answer it aborted keeps the
        // server's close waiting for Node's 72-second keep-alive timeout) is cut rather than waited for
        testApp.app.server.closeAllConnections();
        await testApp.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
