/**
 * `npm run bench` (after affiliations.ts), or alone: `npx tsx bench/audit.ts`. The cost of the audit trail (issue 21)
 * on write routes, side by side on PostgreSQL: the same portal on two databases, one recording the trail as it does in
 * production, the other with a rule that turns the trail's insert into nothing (`do instead nothing`: the statement
 * still travels, the row and its index entries are not written). Routes: POST contacts (an insert and its entry) and
 * PATCH contacts/{id} (a locked read, an update and its entry) over CONTACTS contacts chosen at random, so that the
 * connections do not queue on one row's lock (what is measured is the trail, not lock waits); each body changes the
 * department, so every request writes a change. Rounds alternate which portal goes first.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DURATION seconds (default 10),
 * BENCH_AUDIT_CONNECTIONS (default 10), BENCH_AUDIT_ROUNDS alternating rounds (default 5). Target: with the trail,
 * at least 90 % of the throughput without it (medians of the rounds).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { seedDemoData } from '../src/server/db/seed/index.js';
import { createTestDatabase, type TestDatabase } from '../test/server/support/testApp.js';
import { accessToken } from '../test/server/support/tokens.js';
import { listen, measure, type Row } from './support.js';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_AUDIT_CONNECTIONS ?? 10);
const rounds = Number(process.env.BENCH_AUDIT_ROUNDS ?? 5);
const POOL_SIZE = 10;

const PERSON = { corporation_name: '株式会社デモ', phone_number: '03-1234-5678', email: 'soumu@example.com', last_name: '鈴木', first_name: '一郎', kana_last_name: 'すずき', kana_first_name: 'いちろう' };
const contact = (department: string) => JSON.stringify({ ...PERSON, department_name: department, postal_code: '100-0005', address: '東京都千代田区丸の内1-1-1' });

const CONTACTS = 50;

interface Portal {
  url: string;
  headers: Record<string, string>;
  /** The ids of the contacts the PATCH route spreads over. */
  contactIds: number[];
  close(): Promise<void>;
}

async function startPortal(withTrail: boolean): Promise<Portal> {
  const database: TestDatabase = await createTestDatabase({ baseUrl, poolSize: POOL_SIZE });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-audit-'));
  await mkdir(path.join(dataDir, 'no-dist'));
  await seedDemoData(database.db);
  if (!withTrail) await sql`create rule audit_events_bench_off as on insert to audit_events do instead nothing`.execute(database.db);
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, DATABASE_URL: database.url, SEED: 'none', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DIST_DIR: path.join(dataDir, 'no-dist') }),
    { database: database.database },
  );
  const headers = { 'x-v2-admin-auth-token': `Bearer ${await accessToken(app, { sub: '1', expiresIn: 3600 })}`, 'content-type': 'application/json' };
  const url = await listen(app);
  const contactIds: number[] = [];
  for (let index = 0; index < CONTACTS; index += 1) {
    const response = await fetch(`${url}/api/v2/organizations/1/contacts`, { method: 'POST', headers, body: contact(`部署${index}`) });
    contactIds.push(((await response.json()) as { contact: { id: number } }).contact.id);
  }
  return {
    url,
    headers,
    contactIds,
    close: async () => {
      await app.close();
      await database.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Requests = autocannon.Request[];
let sent = 0;
/** A PATCH of one of the portal's contacts, at random, with a department it did not have. */
const patchAny = (portal: Portal): autocannon.Request => ({
  method: 'PATCH',
  setupRequest: (request) => {
    sent += 1;
    const id = portal.contactIds[Math.floor(Math.random() * portal.contactIds.length)];
    return { ...request, path: `/api/v2/organizations/1/contacts/${id}`, body: contact(`部署${sent}`) };
  },
});
const ROUTES: Array<{ name: string; requests: (portal: Portal) => Requests }> = [
  { name: 'POST organizations/{orgId}/contacts', requests: () => [{ method: 'POST', path: '/api/v2/organizations/1/contacts', body: contact('総務部') }] },
  { name: 'PATCH organizations/{orgId}/contacts/{id}', requests: (portal) => [patchAny(portal)] },
];

function measureRoute(name: string, portal: Portal, requests: Requests): Promise<Row> {
  // in this thread (no worker: setupRequest functions cannot be sent to one), alike for both portals
  return measure(name, { url: portal.url, headers: portal.headers, requests, connections }, duration);
}

export async function benchAudit(): Promise<void> {
  const withTrail = await startPortal(true);
  const without = await startPortal(false);
  const rows: Array<Row & { route: string; trail: boolean }> = [];
  try {
    for (let round = 1; round <= rounds; round += 1) {
      for (const route of ROUTES) {
        for (const trail of round % 2 === 1 ? [true, false] : [false, true]) {
          const portal = trail ? withTrail : without;
          rows.push({ ...(await measureRoute(`${round}: ${route.name}, ${trail ? 'trail' : 'no trail'}`, portal, route.requests(portal))), route: route.name, trail });
        }
      }
    }
  } finally {
    await withTrail.close();
    await without.close();
  }
  console.log(`\nPostgreSQL, ${connections} connections, ${duration} s each, pools of ${POOL_SIZE}, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  console.table(rows.map((row) => ({ route: row.name, 'req/s': Math.round(row.requestsPerSecond), 'p50 ms': row.p50, 'p99 ms': row.p99, errors: row.errors })));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const route of ROUTES) {
    const of = (trail: boolean) => median(rows.filter((row) => row.route === route.name && row.trail === trail).map((row) => row.requestsPerSecond));
    const ratio = of(true) / of(false);
    console.log(`${route.name}: with the trail ${(ratio * 100).toFixed(1)}% of the throughput without it (target ≥ 90%)${ratio < 0.9 ? ' BELOW TARGET' : ''}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAudit().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
