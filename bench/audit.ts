/**
 * `npm run bench` (after affiliations.ts), or alone: `npx tsx bench/audit.ts`. The cost of the audit trail (issue 21)
 * on write routes, side by side on PostgreSQL: the same portal on three databases —
 * - `trail`: recording the trail as it does in production;
 * - `no row`: a BEFORE INSERT trigger returning NULL drops every entry (a rule cannot: PostgreSQL refuses DO INSTEAD
 *   rules for the data-modifying CTE an entry travels in, issue 47): the statement still travels and runs, the row and
 *   its index entries are not written. The trigger's call (a few µs a row) is counted in this baseline;
 * - `no statement`: the write with no entry at all (the bench wraps node-postgres' `Client#query` for that database's
 *   connections only): an entry's statement of its own (`audit_event_insert…`) is answered in this process and never
 *   sent; a write that carries its entry in its own statement (`audit_write_…`: POST's insert, PATCH's update, issue
 *   47) is sent without that CTE, the insert or update alone with its own parameters, prepared as the trail's
 *   statement is (so planned once, as the write without a trail would not be: this baseline is, if anything, faster
 *   than the portal before the trail). What the routes cost if there were no trail at all.
 * Routes: POST contacts (one statement: the insert and its entry) and PATCH contacts/{id} (a transaction of four round
 * trips: begin, the locked read, the update and its entry in one statement, commit; issue 47) over CONTACTS contacts
 * chosen at random, so that the connections do not queue on one row's lock (what is measured is the trail, not lock
 * waits); each body changes the department, so every request writes a change. Each run has its one-second warm-up
 * (bench/support.ts measure); rounds rotate which portal goes first. At the end, the bench checks that only the
 * `trail` portal holds entries.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DURATION seconds (default 10),
 * BENCH_AUDIT_CONNECTIONS (default 10), BENCH_AUDIT_ROUNDS rounds (default 5). Target: with the trail, at least 90 %
 * of the throughput without it (medians of the rounds), against both baselines.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import pg from 'pg';
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
  /** How many entries its trail holds: only the `trail` portal's may have any (the bench checks its variants). */
  entries(): Promise<number>;
  close(): Promise<void>;
}

type Variant = 'trail' | 'no row' | 'no statement';
const VARIANTS: readonly Variant[] = ['trail', 'no row', 'no statement'];
/** The databases whose connections answer the entry's statement themselves. */
const unsentDatabases = new Set<string>();

/** A write's statement (domain/audit.ts recordWriteEvent): its entry's CTE, to be left out. */
const ENTRY_CTE = /, audited_entry as \(.*\) select \* from written$/s;

/** The write's statement without its entry: the insert or update alone, with its own parameters (those before the entry's). */
function withoutEntry(config: { name: string; text: string; values: unknown[] }): { name: string; text: string; values: unknown[] } {
  if (!ENTRY_CTE.test(config.text)) throw new Error(`the bench does not know this write statement: ${config.text}`);
  const text = config.text.replace(ENTRY_CTE, ' select * from written');
  const parameters = Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
  return { name: `bench_bare_${config.name}`, text, values: config.values.slice(0, parameters) };
}

/** node-postgres' query, except on an `unsent` database: no trail entry is sent (see `no statement` above). */
function answerEntriesUnsent(): void {
  const send = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, ...rest] = args as [{ name?: string; text: string; values: unknown[] } | undefined, ...unknown[]];
    if (!unsentDatabases.has(this.database ?? '') || !config?.name) return send.apply(this, args);
    if (config.name.startsWith('audit_event_insert')) return Promise.resolve({ command: 'INSERT', rowCount: 1, rows: [] });
    if (config.name.startsWith('audit_write')) return send.call(this, withoutEntry({ ...config, name: config.name }), ...rest);
    return send.apply(this, args);
  } as typeof pg.Client.prototype.query;
}

/** Drops every entry before it is written (`no row`): a trigger, as PostgreSQL refuses rules for data-modifying CTEs. */
const DROP_ENTRIES = [
  sql`create function audit_events_bench_off() returns trigger language plpgsql as $$ begin return null; end $$`,
  sql`create trigger audit_events_bench_off before insert on audit_events for each row execute function audit_events_bench_off()`,
];

async function startPortal(variant: Variant): Promise<Portal> {
  const database: TestDatabase = await createTestDatabase({ baseUrl, poolSize: POOL_SIZE });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-audit-'));
  await mkdir(path.join(dataDir, 'no-dist'));
  await seedDemoData(database.db);
  if (variant === 'no row') for (const statement of DROP_ENTRIES) await statement.execute(database.db);
  if (variant === 'no statement') unsentDatabases.add(new URL(database.url!).pathname.slice(1));
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
    entries: async () => Number((await sql<{ count: string }>`select count(*) from audit_events`.execute(database.db)).rows[0]!.count),
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
  answerEntriesUnsent();
  const portals = new Map<Variant, Portal>();
  const rows: Array<Row & { route: string; variant: Variant }> = [];
  try {
    for (const variant of VARIANTS) portals.set(variant, await startPortal(variant));
    for (let round = 0; round < rounds; round += 1) {
      const order = VARIANTS.map((_, index) => VARIANTS[(index + round) % VARIANTS.length]!);
      for (const route of ROUTES) {
        for (const variant of order) {
          const portal = portals.get(variant)!;
          rows.push({ ...(await measureRoute(`${round + 1}: ${route.name}, ${variant}`, portal, route.requests(portal))), route: route.name, variant });
        }
      }
    }
    for (const [variant, portal] of portals) {
      const entries = await portal.entries();
      if ((variant === 'trail') !== entries > 0) throw new Error(`the ${variant} portal holds ${entries} entries: the bench does not measure what it says`);
    }
  } finally {
    for (const portal of portals.values()) await portal.close();
  }
  console.log(`\nPostgreSQL, ${connections} connections, ${duration} s each, pools of ${POOL_SIZE}, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  console.table(rows.map((row) => ({ route: row.name, 'req/s': Math.round(row.requestsPerSecond), 'p50 ms': row.p50, 'p99 ms': row.p99, errors: row.errors })));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const route of ROUTES) {
    const of = (variant: Variant) => median(rows.filter((row) => row.route === route.name && row.variant === variant).map((row) => row.requestsPerSecond));
    for (const baseline of ['no row', 'no statement'] as const) {
      const ratio = of('trail') / of(baseline);
      console.log(`${route.name}: with the trail ${(ratio * 100).toFixed(1)}% of the throughput with ${baseline} (target ≥ 90%)${ratio < 0.9 ? ' BELOW TARGET' : ''}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchAudit().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
