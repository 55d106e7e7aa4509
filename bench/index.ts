/**
 * `npm run bench`: browser bundle sizes, then the API pipeline's throughput next to a bare Fastify route, then the
 * organisation's admin list on PostgreSQL next to the same SQL through pg (bench/affiliations.ts; BENCH_DATABASE_URL).
 */
import { benchAffiliations } from './affiliations.js';
import { benchApi } from './api.js';
import { benchBundle } from './bundle.js';

await benchBundle();
await benchApi();
await benchAffiliations();
