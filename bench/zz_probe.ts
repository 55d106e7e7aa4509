import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { startPortal } from './affiliations.js';
import { signInOverHttp } from './reads/signIn.js';
import { stopChild } from '../test/support/children.js';
import { DEMO_PASSWORD, MANAGER } from '../test/e2e/support/signin.js';
const dir = await mkdtemp(path.join(os.tmpdir(), 'zz-'));
const { url, child } = await startPortal(process.env.DB ?? 'postgres://postgres@127.0.0.1:5432/portal_bench_large_x1_own10', dir);
try {
  const headers = { 'accept-encoding': process.env.AE ?? 'identity', 'x-v2-admin-auth-token': `Bearer ${await signInOverHttp(url, MANAGER, DEMO_PASSWORD, 'G0000001')}` };
  for (const p of (process.env.PROBE ?? 'organizations/1/affiliations').split(',')) {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t = performance.now();
      const r = await fetch(`${url}/api/v2/${p}`, { headers });
      const b = await r.arrayBuffer();
      times.push(Math.round((performance.now() - t) * 10) / 10);
      if (i === 0) console.log(p, r.status, b.byteLength);
    }
    console.log(times.join(' '));
    if (!process.env.NOCANNON) for (const d of [5, 10]) { const r = await autocannon({ url: `${url}/api/v2/${p}`, headers, connections: 10, duration: d }); console.log(`${d}s: req/s ${r.requests.average} p50 ${r.latency.p50} p99 ${r.latency.p99} max ${r.latency.max}`); }
  }
} finally { await stopChild(child); }
