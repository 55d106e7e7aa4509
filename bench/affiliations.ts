/**
 * `npm run bench` (after api.ts), or alone: `npx tsx bench/affiliations.ts`. The organisation's admin list,
 * GET /api/v2/organizations/{orgId}/affiliations, on PostgreSQL, beside its floor measured in the same run: a bare
 * Fastify route running the same SQL (the portal's compiled query, same parameters) through `pg`, pools of the same
 * size. The portal's route adds the token check (a local JWT verification), params validation, the mapping to the
 * answer, snake_case keys and schema serialisation.
 *
 * 1. A fresh database beside BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; dropped at the end)
 *    with the demo data and BENCH_LIST_ADMINS more admins of G0000001 (default 40; every fourth not activated, with
 *    an open invitation), so the list is a realistic page.
 * 2. An access token of the demo manager, minted with the provider's persisted key as the tests do.
 * 3. autocannon, BENCH_LIST_CONNECTIONS connections (default 50) for BENCH_DURATION seconds (default 10) each, after a
 *    one-second warm-up, in BENCH_LIST_ROUNDS alternating rounds (default 3).
 *
 * 4. The same for the signed-in admin's own list, GET /api/v2/admins/me/affiliations (every page asks for it), beside
 *    the same SQL through `pg`: the token's validity comes from the in-process cache (issue 20 item 2), no look-up.
 *
 * Targets: at least 70 % of the floor's requests per second, p99 within 1.5 times the floor's (medians of the rounds).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { listen, measure, type Row } from './support.js';
import { seedDemoData } from '../src/server/db/seed/index.js';
import { affiliationQuery } from '../src/server/domain/admins.js';
import { organizationAffiliationsSql } from '../src/server/domain/memberships.js';
import { createTestDatabase } from '../test/server/support/testApp.js';
import { accessToken } from '../test/server/support/tokens.js';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_LIST_CONNECTIONS ?? 50);
const extraAdmins = Number(process.env.BENCH_LIST_ADMINS ?? 40);
const rounds = Number(process.env.BENCH_LIST_ROUNDS ?? 3);
const POOL_SIZE = 10;
const MANAGER_ID = 1;
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

export async function benchAffiliations(): Promise<ReadResult[]> {
  const testDatabase = await createTestDatabase({ baseUrl, poolSize: POOL_SIZE });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-list-'));
  const rows: Row[] = [];
  const ownRows: Row[] = [];
  let size = 0;
  try {
    await mkdir(path.join(dataDir, 'no-dist')); // the API only: no browser build to serve
    await seedDemoData(testDatabase.db);
    await addAdmins(testDatabase.db);

    const portal = await buildApp(
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: testDatabase.url, SEED: 'none', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DIST_DIR: path.join(dataDir, 'no-dist') }),
      { database: testDatabase.database },
    );
    // the floor: the portal's own compiled SQL and parameters, through a pg pool of the same size
    const compiled = organizationAffiliationsSql(testDatabase.db, ORGANIZATION_ID, { adminId: MANAGER_ID, gloplaId: 'G0000001' });
    const pool = new pg.Pool({ connectionString: testDatabase.url, max: POOL_SIZE });
    // as the portal's pool does (db/index.ts): an idle client's lost connection must not end the process
    pool.on('error', (error) => console.warn(`floor pool: ${error.message}`));
    const bare = Fastify();
    bare.get('/affiliations', async () => ({ affiliations: (await pool.query(compiled.sql, compiled.parameters as unknown[])).rows }));
    const own = affiliationQuery(testDatabase.db).where('affiliations.adminId', '=', MANAGER_ID).orderBy('organizations.gloplaId').compile();
    bare.get('/me/affiliations', async () => ({ affiliations: (await pool.query(own.sql, own.parameters as unknown[])).rows }));
    try {
      const headers = { 'x-v2-admin-auth-token': `Bearer ${await accessToken(portal, { sub: String(MANAGER_ID), expiresIn: 3600 })}` };
      const portalUrl = `${await listen(portal)}/api/v2/organizations/${ORGANIZATION_ID}/affiliations`;
      const check = await fetch(portalUrl, { headers });
      if (check.status !== 200) throw new Error(`the portal answered ${check.status}: ${await check.text()}`);
      size = ((await check.json()) as { affiliations: unknown[] }).affiliations.length;
      const bareUrl = `${await listen(bare)}/affiliations`;
      const floorCheck = (await (await fetch(bareUrl)).json()) as { affiliations: unknown[] };
      if (floorCheck.affiliations.length !== size) throw new Error(`the floor answered ${floorCheck.affiliations.length} rows, the portal ${size}`);

      // alternating rounds: on a shared machine the load changes during the run, and should weigh on both alike
      for (let round = 1; round <= rounds; round += 1) {
        rows.push(await measureGet(`${round}: portal GET organizations/{orgId}/affiliations (${size} admins)`, portalUrl, headers));
        rows.push(await measureGet(`${round}: bare Fastify + pg, the same SQL (floor)`, bareUrl, {}));
      }
      const ownUrl = `${portalUrl.replace(/\/organizations\/.*$/, '')}/admins/me/affiliations`;
      const ownCheck = await fetch(ownUrl, { headers });
      if (ownCheck.status !== 200) throw new Error(`the portal answered ${ownCheck.status}: ${await ownCheck.text()}`);
      const ownBareUrl = bareUrl.replace('/affiliations', '/me/affiliations');
      for (let round = 1; round <= rounds; round += 1) {
        ownRows.push(await measureGet(`${round}: portal GET admins/me/affiliations`, ownUrl, headers));
        ownRows.push(await measureGet(`${round}: bare Fastify + pg, the same SQL (floor)`, ownBareUrl, {}));
      }
    } finally {
      await bare.close();
      await pool.end();
      await portal.close();
    }
  } finally {
    await testDatabase.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nPostgreSQL, ${connections} connections, ${duration} s each, pools of ${POOL_SIZE}, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  console.table([...rows, ...ownRows].map((row) => ({ route: row.name, 'req/s': Math.round(row.requestsPerSecond), 'p50 ms': row.p50, 'p99 ms': row.p99, errors: row.errors })));
  const results = [compare('GET organizations/{orgId}/affiliations', rows), compare('GET admins/me/affiliations', ownRows)];
  for (const { route, throughput, tail } of results) {
    console.log(`${route} (medians of ${rounds} rounds): ${(throughput * 100).toFixed(1)}% of the floor's throughput (target ≥ 70%), p99 ${tail.toFixed(2)}× the floor's (target ≤ 1.5×)`);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAffiliations().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
