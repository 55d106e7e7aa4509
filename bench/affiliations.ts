/**
 * `npm run bench` (after api.ts), or alone: `npx tsx bench/affiliations.ts`. The authenticated reads as users meet
 * them (issue 26 item 5): the portal started as `npm start` starts it, in its own process, with its default log level
 * and pool, and a token from a real sign-in; beside each read its floor, in a process of its own in the same run —
 * bare Fastify running the portal's compiled SQL through `pg` with a pool of the same size (bench/reads/floor.ts).
 * The portal's route adds the token check (a local JWT verification), params validation and its one log line; the
 * organisation's list comes written in wire form by PostgreSQL for both, the own list is mapped, snake_cased and
 * serialised by the portal.
 *
 * 1. A fresh database beside BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; dropped at the end)
 *    with the demo data and BENCH_LIST_ADMINS more admins of G0000001 (default 40; every fourth not activated, with
 *    an open invitation), so the organisation's list is a realistic page.
 * 2. The demo manager signs in over HTTP (bench/reads/signIn.ts): its access token.
 * 3. autocannon, BENCH_LIST_CONNECTIONS connections (default 50) for BENCH_DURATION seconds (default 10) each, after a
 *    one-second warm-up, in BENCH_LIST_ROUNDS alternating rounds (default 3): GET organizations/{orgId}/affiliations,
 *    then the signed-in admin's own list, GET admins/me/affiliations (every page asks for it).
 *
 * Targets (issue 47): at least 90 % of the floor's requests per second, p99 within 1.5 times the floor's (medians of the rounds).
 */
import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { browserBuildIsStale } from '../scripts/browserBuild.js';
import { build } from '../scripts/build.js';
import { buildServer, serverBuildIsStale } from '../scripts/buildServer.js';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { seedDemoData } from '../src/server/db/seed/index.js';
import { spawnChild, stopChild } from '../test/support/children.js';
import { waitUntilReady } from '../test/e2e/support/portal.js';
import { DEMO_PASSWORD, MANAGER as MANAGER_EMAIL } from '../test/e2e/support/signin.js';
import { createTestDatabase, freePort } from '../test/server/support/testApp.js';
import { signInOverHttp } from './reads/signIn.js';
import { firstLine, measure, type Row } from './support.js';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_LIST_CONNECTIONS ?? 50);
const extraAdmins = Number(process.env.BENCH_LIST_ADMINS ?? 40);
const rounds = Number(process.env.BENCH_LIST_ROUNDS ?? 3);
const MANAGER_ID = 1;
/** tsx as `npm start` runs it, for the portal and the floor alike. */
export const TSX = path.join(PROJECT_ROOT, 'node_modules/.bin/tsx');
const ORGANIZATION_ID = 1;


function measureGet(name: string, url: string, headers: Record<string, string>): Promise<Row> {
  return measure(name, { url, method: 'GET', headers, connections, workers: 1 }, duration);
}

/** More admins of G0000001: a page of the list, with not-activated admins and their open invitations. */
async function addAdmins(db: Awaited<ReturnType<typeof createTestDatabase>>['db']): Promise<void> {
  const now = new Date();
  const rows = Array.from({ length: extraAdmins }, (_, index) => ({
    email: `list${index}@example.com`,
    ...(index % 4 === 3 ? {} : { firstName: '太郎', lastName: `一覧${index}`, kanaFirstName: 'たろう', kanaLastName: `いちらん${index}`, activatedAt: now }),
  }));
  if (rows.length === 0) return;
  const admins = await db.insertInto('admins').values(rows).returning(['id', 'activatedAt']).execute();
  await db
    .insertInto('affiliations')
    .values(admins.map((admin, index) => ({ adminId: admin.id, organizationId: ORGANIZATION_ID, role: index % 10 === 0 ? ('manager' as const) : ('member' as const) })))
    .execute();
  const invited = admins.filter((admin) => admin.activatedAt === null);
  if (invited.length > 0) {
    await db
      .insertInto('adminTokens')
      .values(
        invited.map((admin) => ({
          adminId: admin.id,
          purpose: 'activation' as const,
          tokenHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
          expiresAt: new Date(now.getTime() + 72 * 3600 * 1000),
        })),
      )
      .execute();
  }
}

/** An authenticated read against its floor: medians of the rounds. */
export interface ReadResult {
  route: string;
  throughput: number;
  tail: number;
  errors: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Rows alternate portal, floor: the median round of each, so one disturbed round does not decide. */
function compare(route: string, rows: Row[]): ReadResult {
  const portalRows = rows.filter((_, index) => index % 2 === 0);
  const floorRows = rows.filter((_, index) => index % 2 === 1);
  return {
    route,
    throughput: median(portalRows.map((row) => row.requestsPerSecond)) / median(floorRows.map((row) => row.requestsPerSecond)),
    tail: median(portalRows.map((row) => row.p99)) / median(floorRows.map((row) => row.p99)),
    errors: portalRows.reduce((sum, row) => sum + row.errors, 0),
  };
}

/** The environment without DATABASE_URL: the portal's database is the caller's choice, never the shell's. */
function withoutDatabaseUrl(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DATABASE_URL: _ignored, ...rest } = env;
  return rest;
}

/**
 * The portal as `npm start` runs it (tsx scripts/start.ts: the compiled server, its default log level and pool), its log
 * in a file as a service manager keeps it. Without a database URL it runs on PGlite in dataDir, `npm start`'s default;
 * `env` adds settings (e.g. SEED=demo and DEMO_LEARNERS, to seed it as a newcomer's first start does).
 */
export async function startPortal(databaseUrl: string | undefined, dataDir: string, env: Record<string, string> = {}): Promise<{ url: string; child: ChildProcess }> {
  // built beforehand, as start.ts would: the readiness wait is for the start, not for webpack
  if (browserBuildIsStale()) await build();
  if (serverBuildIsStale()) await buildServer();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = openSync(path.join(dataDir, 'portal.log'), 'a');
  // the heap flags `npm start` and `npm run serve` give the portal (package.json, PORTAL_HEAP_MB, PORTAL_YOUNG_MB: docs/operations.md)
  // BENCH_PORTAL_FLAGS: more Node flags for the portal when profiling it (e.g. --trace-gc; its log is portal.log in its DATA_DIR)
  const flags = process.env.BENCH_PORTAL_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnChild(TSX, [`--max-old-space-size=${process.env.PORTAL_HEAP_MB ?? 512}`, `--max-semi-space-size=${process.env.PORTAL_YOUNG_MB ?? 16}`, '--no-allocation-site-pretenuring', ...flags, 'scripts/start.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...withoutDatabaseUrl(process.env), PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}), SEED: 'none', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? '', ...env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  await waitUntilReady(url, child);
  return { url, child };
}

export async function benchAffiliations(): Promise<ReadResult[]> {
  const testDatabase = await createTestDatabase({ baseUrl, poolSize: 2 });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-list-'));
  const rows: Row[] = [];
  const ownRows: Row[] = [];
  const children: ChildProcess[] = [];
  let size = 0;
  try {
    await seedDemoData(testDatabase.db);
    await addAdmins(testDatabase.db);
    const databaseUrl = testDatabase.url!;
    const portal = await startPortal(databaseUrl, dataDir);
    children.push(portal.child);
    const floor = spawnChild(TSX, ['bench/reads/floor.ts'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, FLOOR_DATABASE_URL: databaseUrl, ORGANIZATION_ID: String(ORGANIZATION_ID), ADMIN_ID: String(MANAGER_ID), GLOPLA_ID: 'G0000001' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(floor);
    const floorUrl = await firstLine(floor);

    const headers = { 'x-v2-admin-auth-token': `Bearer ${await signInOverHttp(portal.url, MANAGER_EMAIL, DEMO_PASSWORD, 'G0000001')}` };
    const portalUrl = `${portal.url}/api/v2/organizations/${ORGANIZATION_ID}/affiliations`;
    const check = await fetch(portalUrl, { headers });
    if (check.status !== 200) throw new Error(`the portal answered ${check.status}: ${await check.text()}`);
    size = ((await check.json()) as { affiliations: unknown[] }).affiliations.length;
    const bareUrl = `${floorUrl}/affiliations`;
    const floorCheck = (await (await fetch(bareUrl)).json()) as { affiliations: unknown[] };
    if (floorCheck.affiliations.length !== size) throw new Error(`the floor answered ${floorCheck.affiliations.length} rows, the portal ${size}`);

    // alternating rounds: on a shared machine the load changes during the run, and should weigh on both alike
    for (let round = 1; round <= rounds; round += 1) {
      rows.push(await measureGet(`${round}: portal GET organizations/{orgId}/affiliations (${size} admins)`, portalUrl, headers));
      rows.push(await measureGet(`${round}: bare Fastify + pg, the same SQL (floor)`, bareUrl, {}));
    }
    const ownUrl = `${portal.url}/api/v2/admins/me/affiliations`;
    const ownCheck = await fetch(ownUrl, { headers });
    if (ownCheck.status !== 200) throw new Error(`the portal answered ${ownCheck.status}: ${await ownCheck.text()}`);
    for (let round = 1; round <= rounds; round += 1) {
      ownRows.push(await measureGet(`${round}: portal GET admins/me/affiliations`, ownUrl, headers));
      ownRows.push(await measureGet(`${round}: bare Fastify + pg, the same SQL (floor)`, `${floorUrl}/me/affiliations`, {}));
    }
  } finally {
    for (const child of children) await stopChild(child);
    await testDatabase.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nPostgreSQL, ${connections} connections, ${duration} s each, pools of 10, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  console.table([...rows, ...ownRows].map((row) => ({ route: row.name, 'req/s': Math.round(row.requestsPerSecond), 'p50 ms': row.p50, 'p99 ms': row.p99, errors: row.errors })));
  const results = [compare('GET organizations/{orgId}/affiliations', rows), compare('GET admins/me/affiliations', ownRows)];
  for (const { route, throughput, tail } of results) {
    console.log(`${route} (medians of ${rounds} rounds): ${(throughput * 100).toFixed(1)}% of the floor's throughput (target ≥ 90%), p99 ${tail.toFixed(2)}× the floor's (target ≤ 1.5×)`);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAffiliations().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
