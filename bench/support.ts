/** What the benchmarks share: a measured row, an app listening on a free port of 127.0.0.1, a portal's own metrics. */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';

export interface Row {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

/** One autocannon run after a one-second warm-up (JIT, pools, plan cache). */
export async function measure(name: string, options: autocannon.Options, duration: number): Promise<Row> {
  await autocannon({ ...options, duration: 1 });
  return rowOf(name, await autocannon({ ...options, duration }));
}

/** An autocannon result as a row; errors: connection errors, timeouts and answers other than 2xx. */
export function rowOf(name: string, result: autocannon.Result): Row {
  const counts = result as unknown as Record<string, number>;
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + ['1xx', '3xx', '4xx', '5xx'].reduce((sum, key) => sum + (counts[key] ?? 0), 0),
  };
}

/** A child's first line of output (the floors print their URL). */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.slice(0, text.indexOf('\n')).trim());
    });
    child.once('exit', (code) => reject(new Error(`the child exited with code ${code}`)));
  });
}

/** The portal's gauges (without labels) from its /metrics by name; reading them also resets the loop's histogram. */
export async function portalMetrics(portalUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${portalUrl}/metrics`)).text();
  return new Map(text.split('\n').flatMap((line): Array<[string, number]> => (/^[a-z_]+ /.test(line) ? [[line.split(' ')[0]!, Number(line.split(' ')[1])]] : [])));
}

const LOOP_MAX = 'portal_nodejs_eventloop_lag_max_seconds';
const RESIDENT_MEMORY = 'portal_process_resident_memory_bytes';
const HEAP_USED = 'portal_nodejs_heap_size_used_bytes';

/** The portal's longest event-loop delay since the last reading, ms (prom-client's monitorEventLoopDelay). */
export const loopMaxMs = async (portalUrl: string) => ((await portalMetrics(portalUrl)).get(LOOP_MAX) ?? Number.NaN) * 1000;

/**
 * Runs `work` while reading the portal's metrics every 200 ms: its answer, the largest resident memory and V8 heap in
 * use (MB), and the longest event-loop delay (ms) of all readings (each reading resets the loop's histogram, so the longest is kept here).
 */
export async function whileSampling<T>(portalUrl: string, work: Promise<T>): Promise<{ result: T; peakMb: number; heapMb: number; loopMaxMs: number }> {
  const seen = { peakMb: 0, heapMb: 0, loopMaxMs: 0 };
  const sample = async () => {
    const metrics = await portalMetrics(portalUrl);
    seen.peakMb = Math.max(seen.peakMb, (metrics.get(RESIDENT_MEMORY) ?? 0) / 1024 / 1024);
    seen.heapMb = Math.max(seen.heapMb, (metrics.get(HEAP_USED) ?? 0) / 1024 / 1024);
    seen.loopMaxMs = Math.max(seen.loopMaxMs, (metrics.get(LOOP_MAX) ?? 0) * 1000);
  };
  await sample(); // the delays before the work are not its own
  seen.loopMaxMs = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      await sample();
    }
  })();
  try {
    const result = await work;
    done = true;
    await sampler;
    await sample();
    return { result, ...seen };
  } finally {
    done = true;
  }
}
