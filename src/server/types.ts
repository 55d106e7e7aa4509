/** What buildApp decorates the Fastify instance with. */
import type { Config } from './config.js';
import type { DatabaseHandle, Db } from './db/index.js';
import type { RetentionResult } from './domain/retention.js';
import type { PortalMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The Kysely instance (camelCase names over the snake_case tables). */
    db: Db;
    /** The database handle: kind, ping, close. */
    database: DatabaseHandle;
    /** Every route registered, as `GET /api/v2/services` (HEAD routes left out): for checks that must cover them all. */
    registeredRoutes: readonly string[];
    /** The Prometheus metrics (GET /metrics). */
    metrics: PortalMetrics;
    /** One retention clean-up run now (it also runs every RETENTION_INTERVAL). */
    runRetention(): Promise<RetentionResult>;
  }
}

export {};
