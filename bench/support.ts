/** What the benchmarks share: a measured row, and an app listening on a free port of 127.0.0.1. */
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
