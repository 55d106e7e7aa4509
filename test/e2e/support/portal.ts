/**
 * End-to-end support: the real portal in a child process (fresh temporary DATA_DIR, demo seed, free port, listening
 * on 127.0.0.1) and Debian's chromium (its headless shell where installed) driven by playwright-core. The portal dies with the test process however that
 * ends (test/support/children.ts); playwright does the same for the browser.
 */
import type { ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { PROJECT_ROOT } from '../../../src/configuration/load.js';
import { browserBuildIsStale } from '../../../scripts/browserBuild.js';
import { build } from '../../../scripts/build.js';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from '../../../scripts/buildServer.js';
import { spawnChild, stopChild } from '../../support/children.js';
import { LIGHT_WORK, SHORT_LIFE_FLAGS } from '../../support/lightWork.js';

/** Debian's chromium, the browser a user runs: the benchmarks measure what a user meets with it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Debian's chromium-headless-shell: the same engine without the browser's own layers (what Playwright's headless runs use). */
const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';
/**
 * The browser the end-to-end tests drive: the headless shell where it is installed (`.ci/run` installs it: a run's
 * chromium CPU is most of CI's, see docs/performance.md, CI time), else CHROMIUM_PATH; TEST_CHROMIUM_PATH names another.
 */
export const TEST_CHROMIUM_PATH =
  process.env.TEST_CHROMIUM_PATH ?? (process.env.CHROMIUM_PATH === undefined && existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the portal exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the portal did not become ready at ${url}`);
}

export interface Portal {
  url: string;
  stop(): Promise<void>;
}

export interface PortalOptions {
  /** Where the portal is reached: 127.0.0.1, or `localhost` for what a browser allows on a name only (passkeys, issue 29). */
  hostName?: 'localhost';
  /** Node's flags for the portal's process (a test's: SHORT_LIFE_FLAGS). */
  nodeFlags?: readonly string[];
}

/**
 * Settings that shape what the portal writes to its database as it starts (the demo seed, the keys it seals secrets
 * and signs tokens with): a portal started with one of them makes its database from nothing.
 */
const DATA_SETTINGS = ['SEED', 'DEMO', 'DEMO_LEARNERS', 'SECRET_KEY', 'TWO_STEP_SECRET_KEY', 'IDP_SIGNING_KEYS', 'COOKIE_KEYS', 'DATABASE_URL'];

let preparedDataDir: Promise<string> | undefined;

/**
 * An embedded database as the demo start leaves it, made once a test process by a portal of its own and stopped:
 * every further portal on PGlite starts from a copy, as `npm start` does on a second start (migrated and seeded, the
 * demo's idempotent steps run again). A start from nothing cost ~9–10 s of CPU (PGlite's initdb, the migrations, the
 * seed), one on a copy 3–4 s; a copy of its 40 MB takes under a second.
 */
function prepared(): Promise<string> {
  preparedDataDir ??= (async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-prepared-'));
    const { child, port } = await spawnPortal(dataDir, 'http://127.0.0.1', { DATABASE_URL: '' }, SHORT_LIFE_FLAGS);
    try {
      await waitUntilReady(`http://127.0.0.1:${port}`, child);
    } finally {
      await stopChild(child);
    }
    process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
    return dataDir;
  })();
  return preparedDataDir;
}

/** The compiled server on a free port, reached at `origin` and that port, with the demo seed. */
async function spawnPortal(dataDir: string, origin: string, env: Record<string, string>, nodeFlags: readonly string[] = []): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawnChild(process.execPath, [...nodeFlags, SERVER_MAIN], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `${origin}:${port}`, DATA_DIR: dataDir, SEED: 'demo', LOG_LEVEL: 'warn', ...LIGHT_WORK, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { child, port };
}

/** Starts the portal as `npm start` would (the compiled server), on its own port and data directory. */
export async function startPortal(env: Record<string, string> = {}, options: PortalOptions = {}): Promise<Portal> {
  if (browserBuildIsStale()) await build();
  if (serverBuildIsStale()) await buildServer();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-e2e-'));
  const baseUrl = process.env.TEST_DATABASE_URL;
  const databaseUrl = baseUrl ? await freshDatabase(baseUrl) : '';
  if (!baseUrl && !DATA_SETTINGS.some((name) => name in env)) cpSync(await prepared(), dataDir, { recursive: true });
  const origin = `http://${options.hostName ?? '127.0.0.1'}`;
  const { child, port } = await spawnPortal(dataDir, origin, { DATABASE_URL: databaseUrl, ...env }, options.nodeFlags);
  const stop = async () => {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
    if (baseUrl) await dropDatabase(baseUrl, databaseUrl);
  };
  try {
    // the readiness probe by address: the server listens on 127.0.0.1, which `localhost` may not resolve to first
    await waitUntilReady(`http://127.0.0.1:${port}`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${origin}:${port}`, stop };
}

/** Runs one statement on the PostgreSQL server of TEST_DATABASE_URL. */
async function onServer(baseUrl: string, statement: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** With TEST_DATABASE_URL, each portal gets a database of its own on that PostgreSQL server, dropped when it stops. */
async function freshDatabase(baseUrl: string): Promise<string> {
  const name = `e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await onServer(baseUrl, `create database ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(baseUrl: string, databaseUrl: string): Promise<void> {
  await onServer(baseUrl, `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
}

/** A call of G0000001's API (organisation 1) as the admin of `token`: the answer's body, a 200 or 201 expected. */
export async function organizationApi(portalUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Record<string, Record<string, unknown>>> {
  const answer = await fetch(`${portalUrl}/api/v2/organizations/1/${path}`, {
    method,
    headers: { 'x-v2-admin-auth-token': `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await answer.text();
  if (answer.status !== 200 && answer.status !== 201) throw new Error(`${method} ${path} answered ${answer.status}: ${text}`);
  return JSON.parse(text) as Record<string, Record<string, unknown>>;
}

/** Chromium for the tests (TEST_CHROMIUM_PATH), or the given one (a benchmark's: CHROMIUM_PATH). */
export async function launchBrowser(executablePath = TEST_CHROMIUM_PATH): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'],
  });
}

/** A fresh page (own storage) that fails the test on any error the page logs. */
export async function newPage(browser: Browser, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // chromium asks /favicon.ico for a document with no icon of its own (/readyz: support/signin.ts useEnglish)
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(`console: ${message.text()}`);
  });
  return page;
}

/**
 * Every script of the page passes through `hold` with its text before the page gets it: a script is held back for as
 * long as `hold` waits (a held chunk is found by a string only it has). Routing bypasses the cache. Returns the undo.
 */
export async function holdScripts(page: Page, hold: (body: string, url: string) => unknown): Promise<() => Promise<void>> {
  const handler = async (route: Route) => {
    const response = await route.fetch();
    const body = await response.text();
    await hold(body, route.request().url());
    await route.fulfill({ response, body });
  };
  await page.route('**/assets/*.js', handler);
  return () => page.unroute('**/assets/*.js', handler);
}

/** The captcha as a person solves it: tick the box, wait until the widget says 'Verified' (real proof-of-work). */
export async function solveCaptcha(page: Page): Promise<void> {
  await page.getByText('I am not a robot').click();
  await page.locator('altcha-widget').getByText('Verified').waitFor({ timeout: 60_000 });
}

export interface E2EContext {
  portal: Portal;
  browser: Browser;
}

let testBrowser: Promise<Browser> | undefined;
let sharedTestPortal: Promise<Portal> | undefined;

/**
 * The test process's chromium, launched for its first describe block and closed after its last test: a launch and its
 * close cost ~1 s of CPU, and ~25 blocks start a portal. Each test's context keeps its storage apart.
 */
function sharedBrowser(): Promise<Browser> {
  testBrowser ??= launchBrowser();
  return testBrowser;
}

// in mocha (not in a benchmark), the root suite's last hook: this module is loaded with the first test file
if (typeof after === 'function') {
  after(async () => {
    try {
      await (await sharedTestPortal?.catch(() => undefined))?.stop();
    } finally {
      await (await testBrowser)?.close();
    }
  });
}

/**
 * Mocha hooks giving a describe block one portal of its own (with these settings) and the process's browser; after the
 * block, the contexts opened since its start and left open are closed (no page of its goes on calling; an enclosing
 * block's stay) and its portal is stopped.
 */
export function useE2E(env: Record<string, string> = {}, options: PortalOptions = {}): E2EContext {
  return e2eHooks(() => startTestPortal(env, options), true);
}

/**
 * The same with the test process's shared portal (the demo settings), started for the first block that asks and
 * stopped after the last test: a portal's start costs 5–9 s of CPU (docs/performance.md, CI time). Only for a file
 * that leaves the demo data as every other file expects it — it signs in (a wrong password at most once: the lockout
 * counts five), reads, and writes only rows no other file reads — and that expects nothing of the data another file
 * could change.
 */
export function useSharedE2E(): E2EContext {
  return e2eHooks(() => (sharedTestPortal ??= startTestPortal()), false);
}

/** A portal as a test starts it: with SHORT_LIFE_FLAGS. */
function startTestPortal(env: Record<string, string> = {}, options: PortalOptions = {}): Promise<Portal> {
  return startPortal(env, { ...options, nodeFlags: SHORT_LIFE_FLAGS });
}

function e2eHooks(portal: () => Promise<Portal>, ownPortal: boolean): E2EContext {
  const context = {} as E2EContext;
  let openBefore = new Set<BrowserContext>();
  before(async () => {
    context.portal = await portal();
    context.browser = await sharedBrowser();
    openBefore = new Set(context.browser.contexts());
  });
  after(async () => {
    try {
      await Promise.all(context.browser?.contexts().filter((open) => !openBefore.has(open)).map((open) => open.close()) ?? []);
    } finally {
      if (ownPortal) await context.portal?.stop();
    }
  });
  return context;
}
