import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import autocannon from 'autocannon';
import { buildServer, serverBuildIsStale } from '../scripts/buildServer.js';
import { signInOverHttp } from './reads/signIn.js';
if (serverBuildIsStale()) await buildServer();
const port = 3411;
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/tmp/prof', '--max-old-space-size=512', 'build/server/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: mkdtempSync('/tmp/prof-data-'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/portal_bench_large', SEED: 'none', DEMO: 'on' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; i < 100; i++) { try { if ((await fetch(`${url}/healthz`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const token = await signInOverHttp(url, 'manager@example.com', 'DemoPassw0rd!', 'G0000001');
const headers = { 'x-v2-admin-auth-token': `Bearer ${token}` };
const path = process.argv[2]!;
const r = await autocannon({ url: `${url}/api/v2/${path}`, headers, connections: Number(process.env.CONN ?? 10), duration: 6 });
console.log(path, 'p50', r.latency.p50, 'p99', r.latency.p99, 'req/s', r.requests.average, 'non2xx', r.non2xx);
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
