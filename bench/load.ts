/**
 * `npm run bench:load`: many admins using the portal at once, against PostgreSQL.
 *
 * 1. A fresh database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a new database is created
 *    beside it and dropped at the end) with the demo data and BENCH_ADMINS more admins of G0000001.
 * 2. Each admin signs in once through the embedded identity provider (authorisation code flow with PKCE, the real
 *    password check), driven in this process on a second app instance over the same database: sessions and keys
 *    are shared through the database, as between instances behind a load balancer.
 * 3. The portal runs as its own process: the compiled server (`node build/server/main.js`, built first when missing or
 *    out of date; BENCH_SERVER=tsx runs `node --import tsx src/server/main.ts` instead); every admin then loops for
 *    BENCH_LOAD_DURATION seconds over a mix of calls: lists (affiliations, services), details (feature flag,
 *    re-authentication check) and a write (the admin's own name).
 *
 * Prints requests per second, p50/p99 latency and errors per call, and the portal process's resident memory (RSS) idle
 * and at its peak under the load. Settings: BENCH_ADMINS (default 200), BENCH_LOAD_DURATION (seconds, default 60),
 * BENCH_DATABASE_URL, BENCH_SERVER (compiled or tsx).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from '../scripts/buildServer.js';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { hashPassword } from '../src/server/domain/passwords.js';
import { bearer, signIn } from '../test/server/support/oidc.js';
import { createTestDatabase, freePort } from '../test/server/support/testApp.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const admins = Number(process.env.BENCH_ADMINS ?? 200);
const durationSeconds = Number(process.env.BENCH_LOAD_DURATION ?? 60);
const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PASSWORD = 'BenchPassw0rd!';
const server = process.env.BENCH_SERVER ?? 'compiled';
/** The API only: no browser build to serve. */
const NO_DIST = mkdtempSync(path.join(os.tmpdir(), 'portal-load-no-dist-'));

interface Admin {
  id: number;
  token: string;
}

interface Call {
  name: string;
  request: (admin: Admin) => { method: string; path: string; body?: unknown };
}

/** One round of an admin's work: what a manager does on the pages built so far. */
const ROUND: Call[] = [
  { name: 'GET admins/me/affiliations (list)', request: () => ({ method: 'GET', path: '/api/v2/admins/me/affiliations' }) },
  { name: 'GET services (list)', request: () => ({ method: 'GET', path: '/api/v2/services?lang=en' }) },
  { name: 'GET enabled_feature_flags/{name} (detail)', request: () => ({ method: 'GET', path: '/api/v2/enabled_feature_flags/product_admin_roles' }) },
  { name: 'GET admin/re_authentication_expiration (detail)', request: () => ({ method: 'GET', path: '/api/v2/admin/re_authentication_expiration' }) },
  {
    name: 'PATCH organizations/{orgId}/affiliations/admins/{id} (write)',
    request: (admin) => ({
      method: 'PATCH',
      path: `/api/v2/organizations/1/affiliations/admins/${admin.id}`,
      body: { last_name: '負荷', first_name: `試験${admin.id % 1000}`, kana_last_name: 'ふか', kana_first_name: 'しけん' },
    }),
  },
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function createAdmins(db: Awaited<ReturnType<typeof createTestDatabase>>['db']): Promise<number[]> {
  const passwordHash = await hashPassword(PASSWORD);
  const now = new Date();
  const rows = Array.from({ length: admins }, (_, index) => ({
    email: `load${index}@example.com`,
    firstName: '太郎',
    lastName: '負荷',
    kanaFirstName: 'たろう',
    kanaLastName: 'ふか',
    passwordHash,
    activatedAt: now,
  }));
  const inserted = await db.insertInto('admins').values(rows).returning('id').execute();
  await db
    .insertInto('affiliations')
    .values(inserted.map(({ id }) => ({ adminId: id, organizationId: 1, role: 'manager' as const })))
    .execute();
  return inserted.map(({ id }) => id);
}

/** Signs every admin in, a few at a time (each sign-in verifies an argon2id hash). */
async function signInAll(ids: number[], databaseUrl: string, publicUrl: string): Promise<Admin[]> {
  const app = await buildApp(loadConfig({ DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, SEED: 'none', LOG_LEVEL: 'warn', DIST_DIR: NO_DIST }));
  try {
    const result: Admin[] = [];
    for (let start = 0; start < ids.length; start += 8) {
      const batch = ids.slice(start, start + 8);
      const sessions = await Promise.all(batch.map((id, index) => signIn(app, { email: `load${start + index}@example.com`, password: PASSWORD }).then((session) => ({ id, token: session.tokens.access_token }))));
      result.push(...sessions);
    }
    return result;
  } finally {
    await app.close();
  }
}

async function startPortal(databaseUrl: string, port: number, publicUrl: string): Promise<ChildProcess> {
  const args = server === 'tsx' ? ['--import', 'tsx', 'src/server/main.ts'] : [SERVER_MAIN];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: publicUrl, SEED: 'none', LOG_LEVEL: 'warn', DIST_DIR: NO_DIST },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the portal exited with ${child.exitCode}`);
    const ready = await fetch(`${publicUrl}/readyz`).then((response) => response.ok, () => false);
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error('the portal did not become ready');
}

/** The resident memory of a process in MB (Linux /proc). */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : Number.NaN;
}

async function load(publicUrl: string, sessions: Admin[]): Promise<{ latencies: Map<string, number[]>; errors: Map<string, number>; elapsed: number }> {
  const latencies = new Map(ROUND.map((call) => [call.name, [] as number[]]));
  const errors = new Map(ROUND.map((call) => [call.name, 0]));
  const started = performance.now();
  const end = started + durationSeconds * 1000;
  await Promise.all(
    sessions.map(async (admin, index) => {
      // start at different calls so the mix is even at every moment
      for (let step = index; performance.now() < end; step += 1) {
        const call = ROUND[step % ROUND.length]!;
        const { method, path: callPath, body } = call.request(admin);
        const before = performance.now();
        try {
          const response = await fetch(`${publicUrl}${callPath}`, {
            method,
            headers: { ...bearer(admin.token), ...(body ? { 'content-type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
          });
          await response.arrayBuffer();
          if (response.status !== 200) {
            errors.set(call.name, errors.get(call.name)! + 1);
            if (errors.get(call.name) === 1) console.error(`${call.name}: ${response.status}`);
          }
        } catch (error) {
          errors.set(call.name, errors.get(call.name)! + 1);
          if (errors.get(call.name) === 1) console.error(`${call.name}: ${String(error)}`);
        }
        latencies.get(call.name)!.push(performance.now() - before);
      }
    }),
  );
  return { latencies, errors, elapsed: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const database = await createTestDatabase({ baseUrl, poolSize: 2 });
  const databaseUrl = database.url!;
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  let portal: ChildProcess | undefined;
  try {
    // the demo data (organisations, services, flags) through a first start, then the load admins
    const seeding = await buildApp(loadConfig({ DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, SEED: 'demo', LOG_LEVEL: 'warn', DIST_DIR: NO_DIST }));
    await seeding.close();
    const ids = await createAdmins(database.db);
    console.log(`signing in ${ids.length} admins…`);
    const signInStarted = performance.now();
    const sessions = await signInAll(ids, databaseUrl, publicUrl);
    console.log(`signed in ${sessions.length} admins in ${((performance.now() - signInStarted) / 1000).toFixed(1)} s`);

    if (server !== 'tsx' && serverBuildIsStale()) {
      console.log('compiling the server…');
      await buildServer();
    }
    portal = await startPortal(databaseUrl, port, publicUrl);
    const pid = portal.pid!;
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const idleRss = rssMb(pid);
    console.log(`${sessions.length} admins for ${durationSeconds} s…`);
    let peakRss = idleRss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(pid))), 500);
    const { latencies, errors, elapsed } = await load(publicUrl, sessions).finally(() => clearInterval(sampler));
    const afterRss = rssMb(pid);

    const total = [...latencies.values()].reduce((sum, list) => sum + list.length, 0);
    const totalErrors = [...errors.values()].reduce((sum, count) => sum + count, 0);
    console.log(`\n${sessions.length} admins, ${elapsed.toFixed(0)} s, PostgreSQL, Node ${process.version}, ${os.cpus().length} CPUs`);
    console.log(`${total} requests, ${Math.round(total / elapsed)} req/s, ${totalErrors} errors`);
    console.log(`portal (${server === 'tsx' ? 'tsx src/server/main.ts' : 'node build/server/main.js'}) RSS: ${idleRss} MB idle, ${peakRss} MB peak under load, ${afterRss} MB after\n`);
    console.table(
      [...latencies].map(([name, list]) => {
        const sorted = [...list].sort((a, b) => a - b);
        return { call: name, requests: list.length, 'p50 ms': Math.round(percentile(sorted, 50)), 'p99 ms': Math.round(percentile(sorted, 99)), errors: errors.get(name) };
      }),
    );
    if (totalErrors > 0) process.exitCode = 1;
  } finally {
    if (portal && portal.exitCode === null) {
      const exited = new Promise((resolve) => portal!.once('exit', resolve));
      portal.kill('SIGTERM');
      await exited;
    }
    await database.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
