/**
 * `npm run bench` (after affiliations.ts), or alone: `npm run bench:users`. The Users page's calls at a large customer's
 * size (issue 19), on PostgreSQL: a fresh database beside BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test; dropped at the end) with the demo data and BENCH_USERS more learners of
 * G0000001 (default 10,000), the portal listening on 127.0.0.1, each call timed from request to the whole answer,
 * BENCH_USERS_ROUNDS times (default 3), the median kept:
 *
 *   GET  …/users/csv                                   budget ≤ 0.5 s
 *   POST …/users/preview      the whole file, as CP932  budget ≤ 1 s
 *   POST …/users/bulk_update  every row, 1,000 changed   budget ≤ 3 s (one transaction)
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { seedDemoData } from '../src/server/db/seed/index.js';
import { addLearners } from '../src/server/db/seed/learners.js';
import { createTestDatabase } from '../test/server/support/testApp.js';
import { accessToken } from '../test/server/support/tokens.js';
import { listen } from './support.js';

const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const learners = Number(process.env.BENCH_USERS ?? 10_000);
const rounds = Number(process.env.BENCH_USERS_ROUNDS ?? 3);
const CHANGED = 1000;
const BUDGETS_MS = { csv: 500, preview: 1000, bulkUpdate: 3000 } as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds from the request to the whole answer, which must have the status expected. */
async function timed(what: string, url: string, init: RequestInit, status = 200): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const response = await fetch(url, init);
  const body = await response.text();
  const ms = performance.now() - start;
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms, body };
}

/** The file with the nameId of its last CHANGED rows (added learners, N<n>) given the round's prefix. */
function edited(csv: string, prefix: string): string {
  const lines = csv.trimEnd().split('\r\n');
  return `${lines.map((line, index) => (index >= lines.length - CHANGED ? line.replace(/,[A-Z](\d+)$/, `,${prefix}$1`) : line)).join('\r\n')}\r\n`;
}

export interface UsersResult {
  call: keyof typeof BUDGETS_MS;
  medianMs: number;
  budgetMs: number;
}

export async function benchUsers(): Promise<UsersResult[]> {
  const testDatabase = await createTestDatabase({ baseUrl });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-users-'));
  const times = { csv: [] as number[], preview: [] as number[], bulkUpdate: [] as number[] };
  try {
    await mkdir(path.join(dataDir, 'no-dist'));
    await seedDemoData(testDatabase.db);
    await addLearners(testDatabase.db, 1, learners);
    const portal = await buildApp(
      loadConfig({ DATA_DIR: dataDir, DATABASE_URL: testDatabase.url, SEED: 'none', LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn', DIST_DIR: path.join(dataDir, 'no-dist') }),
      { database: testDatabase.database },
    );
    try {
      const headers = { 'x-v2-admin-auth-token': `Bearer ${await accessToken(portal, { sub: '1', expiresIn: 3600 })}` };
      const users = `${await listen(portal)}/api/v2/organizations/1/users`;
      for (let round = 1; round <= rounds; round += 1) {
        const csv = await timed('GET users/csv', `${users}/csv`, { headers });
        times.csv.push(csv.ms);
        const form = new FormData();
        form.append('csv', new Blob([new Uint8Array(iconv.encode(edited(csv.body, round % 2 === 1 ? 'M' : 'N'), 'cp932'))], { type: 'text/csv' }), 'users.csv');
        const preview = await timed('POST users/preview', `${users}/preview`, { method: 'POST', headers, body: form });
        times.preview.push(preview.ms);
        const update = await timed('POST users/bulk_update', `${users}/bulk_update`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: preview.body });
        times.bulkUpdate.push(update.ms);
      }
    } finally {
      await portal.close();
    }
  } finally {
    await testDatabase.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }

  console.log(`\nUsers page calls, PostgreSQL, ${learners + 12} learners of one organisation, ${rounds} rounds, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  const rows = (Object.keys(times) as Array<keyof typeof times>).map((call) => ({
    call,
    'runs ms': times[call].map((ms) => Math.round(ms)).join(', '),
    'median ms': Math.round(median(times[call])),
    'budget ms': BUDGETS_MS[call],
  }));
  console.table(rows);
  if (rows.some((row) => row['median ms'] > row['budget ms'])) console.log('users calls: OVER BUDGET');
  return rows.map((row) => ({ call: row.call, medianMs: row['median ms'], budgetMs: row['budget ms'] }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchUsers().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
