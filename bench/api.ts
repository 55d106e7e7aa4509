/**
 * `npm run bench:api`: the cost of the portal's request pipeline.
 *
 * Starts the portal (embedded PGlite in a temporary DATA_DIR, SEED=none) and, for comparison, a bare
 * Fastify instance with one trivial POST route, each on a free port, and measures both with autocannon
 * (in a worker thread) in the same run: requests per second and latency p50/p99 of
 * POST /api/v2/registration_requests with a valid body (case conversion, trimming, schema validation,
 * an INSERT, snake_case response), the same with an invalid body (the pipeline without the database,
 * answered 422), and the bare route.
 *
 * Settings: BENCH_DURATION (seconds, default 10), BENCH_CONNECTIONS (default 10),
 * BENCH_LOG_LEVEL (the portal's LOG_LEVEL, default warn: per-request logs are measured separately).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { listen, type Row } from './support.js';

const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const body = JSON.stringify({
  corporation_name: '株式会社ベンチ',
  departments: '人事部',
  position: '課長',
  person_in_charge: '山田 太郎',
  phone_number: '03-1234-5678',
  email: 'bench@example.com',
  zip_code: '100-0001',
  address: '東京都千代田区1-1',
  corporation_url: 'https://example.com',
  scale_of_employees: '300to499',
});


/** errors: connection errors, timeouts and answers of another status class than expected. */
async function measure(name: string, url: string, payload: string, expectedStatus: number): Promise<Row> {
  const options = { url, method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: payload, connections, workers: 1 };
  await autocannon({ ...options, duration: 1 }); // warm-up: JIT, connection pools, first inserts
  const result = await autocannon({ ...options, duration });
  const counts = result as unknown as Record<string, number>;
  const expected = counts[`${Math.floor(expectedStatus / 100)}xx`] ?? 0;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + ['1xx', '2xx', '3xx', '4xx', '5xx'].reduce((sum, key) => sum + (counts[key] ?? 0), 0) - expected,
  };
}

/** The portal's request pipeline against a bare Fastify route: share of its throughput, valid (insert) and invalid (422). */
export interface PipelineResult {
  valid: number;
  invalid: number;
}

export async function benchApi(): Promise<PipelineResult> {
  const rows: Row[] = [];

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-bench-'));
  await mkdir(path.join(dataDir, 'no-dist'));
  const portal = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      SEED: 'none',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      DIST_DIR: path.join(dataDir, 'no-dist'),
      // the registration request measured here is not the captcha's or the mail limits' benchmark
      CAPTCHA: 'off',
      MAIL_RATE_LIMIT_PER_CLIENT: '1000000000',
      MAIL_RATE_LIMIT_PER_EMAIL: '1000000000',
    }),
  );
  try {
    const url = await listen(portal);
    const check = await fetch(`${url}/api/v2/registration_requests`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (check.status !== 201) throw new Error(`the portal answered ${check.status}: ${await check.text()}`);
    rows.push(await measure('portal POST /api/v2/registration_requests (201, insert)', `${url}/api/v2/registration_requests`, body, 201));
    const invalid = JSON.stringify({ ...JSON.parse(body), email: 'not-an-address' });
    rows.push(await measure('portal POST /api/v2/registration_requests (422, no database)', `${url}/api/v2/registration_requests`, invalid, 422));
  } finally {
    await portal.close();
    await rm(dataDir, { recursive: true, force: true });
  }

  const bare = Fastify();
  bare.post('/echo', async (_request, reply) => reply.code(201).send({ ok: true }));
  try {
    const url = await listen(bare);
    rows.push(await measure('bare Fastify POST /echo', `${url}/echo`, body, 201));
  } finally {
    await bare.close();
  }

  console.log(`\n${connections} connections, ${duration} s each, Node ${process.version}, ${os.cpus().length} CPUs\n`);
  console.table(
    rows.map((row) => ({
      route: row.name,
      'req/s': Math.round(row.requestsPerSecond),
      'p50 ms': row.p50,
      'p99 ms': row.p99,
      errors: row.errors,
    })),
  );
  const bareRow = rows[rows.length - 1]!;
  for (const row of rows.slice(0, -1)) {
    console.log(`${row.name}: ${((row.requestsPerSecond / bareRow.requestsPerSecond) * 100).toFixed(1)}% of the bare route's throughput`);
  }
  return { valid: rows[0]!.requestsPerSecond / bareRow.requestsPerSecond, invalid: rows[1]!.requestsPerSecond / bareRow.requestsPerSecond };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchApi().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
