/**
 * Test support for everything that needs the server: a clean database per test file, an app built
 * on it, or a real server listening on a free port (for e2e tests).
 *
 * Database: PGlite in memory by default (cloned from a migrated template, so each one takes well
 * under a second); with TEST_DATABASE_URL set (postgres://…), a uniquely named PostgreSQL database copied from a
 * migrated template database, dropped afterwards.
 *
 *   describe('…', () => {
 *     const ctx = useTestApp();                   // before/after hooks: ctx.app, ctx.db, ctx.config
 *     it('…', async () => { const res = await ctx.app.inject({ url: '/healthz' }); });
 *   });
 *
 *   const server = await startTestServer({ env: { SEED: 'demo' } });   // server.url … server.close()
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Logger } from 'pino';
import { onceByKey } from '../../../src/common/onceByKey.js';
import { createPasswordStrength, type PasswordStrength } from '../../../src/server/api/passwordStrength.js';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig, type Config } from '../../../src/server/config.js';
import { createDatabase, migrateToLatest, type DatabaseHandle, type Db } from '../../../src/server/db/index.js';
import { newSigningKey, storeMissingKeys, type PrivateJwk } from '../../../src/server/idp/keys.js';
import { LIGHT_WORK } from '../../support/lightWork.js';

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

/** A file or folder of a migrated PGlite database, as PGlite's in-memory file system holds it. */
interface TemplateEntry {
  path: string;
  mode: number;
  /** A file's bytes; none for a folder. */
  data?: Uint8Array;
}

/** Where PGlite keeps its database in its file system (PGDATA; checked as the template is made). */
const PGLITE_DATA_DIR = '/pglite/data';

let template: Promise<TemplateEntry[]> | undefined;

/** The entries under `dir` of an Emscripten file system, a folder before what it holds. */
function entriesUnder(fs: PGlite['Module']['FS'], dir: string): TemplateEntry[] {
  return fs.readdir(dir).flatMap((name: string) => {
    if (name === '.' || name === '..') return [];
    const entryPath = `${dir}/${name}`;
    const { mode } = fs.stat(entryPath, false);
    return fs.isDir(mode) ? [{ path: entryPath, mode }, ...entriesUnder(fs, entryPath)] : [{ path: entryPath, mode, data: fs.readFile(entryPath) }];
  });
}

/**
 * A migrated PGlite database's files, read once per test process: each test database starts from them. PGlite's own
 * way (a data directory's tarball, `loadDataDir`) unpacked the tarball into the file system for every database, a
 * third of its start and most of the test process's garbage.
 */
function pgliteTemplate(): Promise<TemplateEntry[]> {
  template ??= (async () => {
    const pglite = new PGlite();
    const handle = createDatabase({ pglite });
    await migrateToLatest(handle.db);
    // a test database holds a few megabytes: PostgreSQL's default 128 MB of shared buffers cost each database's
    // start a third of a second of CPU, to set up memory no test fills (2 MB: 256 pages, plenty for one connection)
    await pglite.exec(`alter system set shared_buffers = '2MB'`);
    // the tests use the database `postgres` only: without initdb's two templates the directory has half its files
    for (const statement of ['alter database template0 is_template false', 'drop database template0', 'alter database template1 is_template false', 'drop database template1', 'checkpoint']) {
      await pglite.query(statement);
    }
    const fs = pglite.Module.FS;
    if (!fs.analyzePath(`${PGLITE_DATA_DIR}/PG_VERSION`).exists) throw new Error(`PGlite keeps its database elsewhere than ${PGLITE_DATA_DIR}`);
    const entries = entriesUnder(fs, PGLITE_DATA_DIR);
    await handle.close();
    return entries;
  })();
  return template;
}

/**
 * PGlite's in-memory file system with the template's files written in before PostgreSQL starts, which then resumes
 * that database. Each file is copied (MEMFS copies what it is given), so no database writes into the template.
 */
class TemplateFilesystem extends MemoryFS {
  constructor(private readonly entries: TemplateEntry[]) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const fs = this.pg!.Module.FS;
    fs.mkdirTree(PGLITE_DATA_DIR);
    for (const entry of this.entries) {
      if (entry.data) fs.writeFile(entry.path, entry.data);
      else fs.mkdir(entry.path, entry.mode);
    }
  }
}

function withDatabaseName(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** Runs one statement on the server's base database. */
async function adminQuery(baseUrl: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    return await admin.query(text, values);
  } finally {
    await admin.end();
  }
}

/** The migrations' text, hashed: a template database is named by the schema it holds. */
function migrationsHash(): string {
  const dir = fileURLToPath(new URL('../../../src/server/db/migrations/', import.meta.url));
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

const postgresTemplates = new Map<string, Promise<string>>();

/**
 * The name of a migrated PostgreSQL database the test databases are copied from: a copy costs the server a fifth of
 * the CPU of running the migrations again. Named by the migrations' text, so test processes and runs share it; made
 * under a name of its own and renamed once complete (of two processes making it at once, the first rename wins).
 * Older templates are dropped when a new one is made (unless in use).
 */
function postgresTemplate(baseUrl: string): Promise<string> {
  return onceByKey(postgresTemplates, baseUrl, () => makePostgresTemplate(baseUrl));
}

const TEMPLATE_PREFIX = 'portal_test_template_';

async function makePostgresTemplate(baseUrl: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${migrationsHash()}`;
  if ((await adminQuery(baseUrl, 'select 1 from pg_database where datname = $1', [name])).rowCount) return name;
  const building = `portal_test_building_${process.pid}_${randomBytes(3).toString('hex')}`;
  await adminQuery(baseUrl, `create database "${building}"`);
  try {
    const database = createDatabase({ databaseUrl: withDatabaseName(baseUrl, building), poolSize: 1 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    await adminQuery(baseUrl, `alter database "${building}" rename to "${name}"`);
  } catch (error) {
    await adminQuery(baseUrl, `drop database if exists "${building}" with (force)`);
    // 42P04 duplicate_database: another process's template came first
    if ((error as { code?: string }).code !== '42P04') throw error;
    return name;
  }
  const older = await adminQuery(baseUrl, `select datname from pg_database where starts_with(datname, $1) and datname <> $2`, [TEMPLATE_PREFIX, name]);
  for (const row of older.rows as Array<{ datname: string }>) {
    await adminQuery(baseUrl, `drop database if exists "${row.datname}"`).catch(() => undefined);
  }
  return name;
}

/** Creates database `name` as a copy of the template; a template dropped meanwhile (older migrations) is made again. */
async function copyPostgresTemplate(baseUrl: string, name: string): Promise<void> {
  try {
    await adminQuery(baseUrl, `create database "${name}" template "${await postgresTemplate(baseUrl)}"`);
  } catch (error) {
    // 3D000 invalid_catalog_name: the template is gone
    if ((error as { code?: string }).code !== '3D000') throw error;
    postgresTemplates.delete(baseUrl);
    await adminQuery(baseUrl, `create database "${name}" template "${await postgresTemplate(baseUrl)}"`);
  }
}

/**
 * A DATA_DIR holding a copy of the migrated PGlite template (`<dir>/pgdata`, where the server keeps its embedded
 * database), for a server process started on PGlite: it resumes that database rather than paying for initdb and the
 * migrations (~10 s of CPU a start). The caller removes the directory.
 */
export async function pgliteDataDir(): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-data-'));
  const pgdata = path.join(dataDir, 'pgdata');
  await mkdir(pgdata);
  for (const entry of await pgliteTemplate()) {
    const target = path.join(pgdata, path.relative(PGLITE_DATA_DIR, entry.path));
    if (entry.data) await writeFile(target, entry.data);
    else await mkdir(target);
    await chmod(target, entry.mode & 0o777);
  }
  return dataDir;
}

/** A clean, migrated database for one test file. */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const baseUrl = options.baseUrl ?? (process.env.TEST_DATABASE_URL || undefined);
  if (!baseUrl) {
    const database = createDatabase({ pglite: await PGlite.create({ fs: new TemplateFilesystem(await pgliteTemplate()) }) });
    return { database, db: database.db, url: undefined, destroy: () => database.close() };
  }

  const name = `portal_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await copyPostgresTemplate(baseUrl, name);
  const url = withDatabaseName(baseUrl, name);
  const database = createDatabase({ databaseUrl: withDatabaseName(options.connectUrl ?? baseUrl, name), poolSize: options.poolSize ?? 5 });
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
  /** true: the periodic jobs run on their schedules (default off: the clean-up would delete rows tests make on purpose). */
  periodicJobs?: boolean;
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
  ...LIGHT_WORK,
};

let testSigningKey: Promise<PrivateJwk> | undefined;

/**
 * The identity provider's keys for a database createTestApp makes: one signing key per test process (an RSA key
 * costs a fifth of a second of CPU, and the apps of a process never see each other's tokens), a cookie secret of its
 * own. A database a test passes in starts without keys: test/server/idp/persistence.test.ts and signingKeys.test.ts
 * prove their creation and IDP_SIGNING_KEYS.
 */
async function storeTestKeys(db: Db): Promise<void> {
  testSigningKey ??= newSigningKey();
  await storeMissingKeys(db, { signing: await testSigningKey, cookieSecret: randomBytes(32).toString('base64url') });
}

let passwordStrength: PasswordStrength | undefined;

/** One password-strength pool a test process: each pool's worker costs a second of CPU to load its dictionaries. */
function sharedPasswordStrength(): PasswordStrength {
  passwordStrength ??= createPasswordStrength();
  return passwordStrength;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDatabase = options.testDatabase ?? (await createTestDatabase());
  try {
    const config = loadConfig({ ...TEST_ENV, ...options.env });
    if (!options.testDatabase && !config.signingKeys) await storeTestKeys(testDatabase.db);
    // no periodic clean-up unless asked: it would delete the old rows some tests make on purpose (they call app.runRetention())
    const app = await buildApp(config, {
      database: testDatabase.database,
      logger: options.logger,
      mailQueueWorker: options.mailQueueWorker,
      periodicJobs: options.periodicJobs ?? false,
      passwordStrength: sharedPasswordStrength(),
    });
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
