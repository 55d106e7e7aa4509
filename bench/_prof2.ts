import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { signInOverHttp } from './reads/signIn.js';
const port = 3412;
const url = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, ['--require', '/tmp/gcwatch.cjs', ...(process.env.NODE_FLAGS ? process.env.NODE_FLAGS.split(' ') : []), '--max-old-space-size=512', 'build/server/main.js'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, DATA_DIR: mkdtempSync('/tmp/prof-data-'), DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/portal_bench_large', SEED: 'none', DEMO: 'on' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
for (let i = 0; i < 100; i++) { try { if ((await fetch(`${url}/healthz`)).ok) break; } catch {} await new Promise((r) => setTimeout(r, 200)); }
const token = await signInOverHttp(url, 'manager@example.com', 'DemoPassw0rd!', 'G0000001');
const headers: Record<string, string> = { 'x-v2-admin-auth-token': `Bearer ${token}` };
if (process.env.ENC) headers['accept-encoding'] = process.env.ENC;
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  const r = await fetch(`${url}/api/v2/${process.argv[2]}`, { headers });
  const b = await r.arrayBuffer();
  console.log(r.status, r.headers.get('content-encoding'), b.byteLength, Math.round(performance.now() - t), 'ms');
}
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
