/**
 * The portal's metrics in the Prometheus text format (issue 11), served at GET /metrics (src/server/api/metrics.ts).
 * One registry per app (tests build many apps in one process), merged at answer time with the process's own metrics
 * (CPU, memory, event loop, GC), which are collected once per process: prom-client's collectors install process-wide
 * observers that would keep every app's registry — and through its gauges the app's database — alive for good.
 * Labels never carry a raw URL, an address or an e-mail: routes are the route's pattern (`/api/v2/organizations/:orgId`).
 */
import client from 'prom-client';
import { sql } from 'kysely';
import type { DatabaseHandle } from './db/index.js';

export interface PortalMetrics {
  registry: client.Registry;
  requestDuration: client.Histogram<'method' | 'route' | 'status_code'>;
  dbQueryErrors: client.Counter;
  notificationInterruptions: client.Counter;
  mailsSent: client.Counter;
  mailFailures: client.Counter<'outcome'>;
  signins: client.Counter<'outcome'>;
  rateLimitRefusals: client.Counter<'limit'>;
  captchaRefusals: client.Counter<'reason'>;
  retentionDeleted: client.Counter<'table'>;
  retentionRuns: client.Counter<'outcome'>;
}

let processRegistry: client.Registry | undefined;

/** The process's metrics, registered on first use and shared by every app of the process. */
function processMetrics(): client.Registry {
  if (!processRegistry) {
    processRegistry = new client.Registry();
    client.collectDefaultMetrics({ register: processRegistry, prefix: 'portal_' });
  }
  return processRegistry;
}

/** The text of GET /metrics: the process's metrics and the app's. */
export function metricsText(metrics: PortalMetrics): Promise<string> {
  return client.Registry.merge([processMetrics(), metrics.registry]).metrics();
}

export function createMetrics(database: DatabaseHandle): PortalMetrics {
  processMetrics();
  const registry = new client.Registry();

  const metrics: PortalMetrics = {
    registry,
    requestDuration: new client.Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer a request, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    dbQueryErrors: new client.Counter({ name: 'portal_db_query_errors_total', help: 'Database queries that failed', registers: [registry] }),
    notificationInterruptions: new client.Counter({
      name: 'portal_db_notification_interruptions_total',
      help: 'Times a listening connection was lost or went silent (its heartbeat did not come back): cached token validities were dropped',
      registers: [registry],
    }),
    mailsSent: new client.Counter({ name: 'portal_mail_sent_total', help: 'Mail jobs done (mails delivered to SMTP or the outbox)', registers: [registry] }),
    mailFailures: new client.Counter({
      name: 'portal_mail_failures_total',
      help: 'Mail jobs that failed: retry (tried again later) or given_up (after the last attempt)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    signins: new client.Counter({
      name: 'portal_signins_total',
      help: 'Sign-ins with a password: succeeded, failed (wrong e-mail or password) or locked (refused, too many failures)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    rateLimitRefusals: new client.Counter({
      name: 'portal_rate_limit_refusals_total',
      help: 'Requests refused by a rate limit (429), by limit',
      labelNames: ['limit'],
      registers: [registry],
    }),
    captchaRefusals: new client.Counter({
      name: 'portal_captcha_refusals_total',
      help: 'Requests refused for their captcha, by reason (invalid, expired, replayed, missing)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    retentionDeleted: new client.Counter({
      name: 'portal_retention_deleted_rows_total',
      help: 'Rows deleted by the retention clean-up, by table',
      labelNames: ['table'],
      registers: [registry],
    }),
    retentionRuns: new client.Counter({
      name: 'portal_retention_runs_total',
      help: 'Retention clean-up runs: done, skipped (another instance held the lock) or failed',
      labelNames: ['outcome'],
      registers: [registry],
    }),
  };

  new client.Gauge({
    name: 'portal_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting: requests waiting for a connection)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const stats = database.poolStats?.();
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  new client.Gauge({
    name: 'portal_db_notifications_listening',
    help: '1 while every database notification listener hears its heartbeat (token revocations reach this instance at once), 0 while one reconnects',
    registers: [registry],
    collect() {
      this.set(database.notificationsListening() ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'portal_mail_queue_depth',
    help: 'Mail jobs waiting to be done (given-up jobs not counted)',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await sql<{ count: string | number }>`select count(*) as count from mail_queue where failed_at is null`.execute(database.db);
        this.set(Number(rows[0]?.count ?? 0));
      } catch {
        // the database is away: the gauge keeps its last value; portal_db_query_errors_total counts the failure
      }
    },
  });
  new client.Gauge({
    name: 'portal_mail_queue_given_up',
    help: 'Mail jobs given up after their last attempt and still kept (FAILED_MAIL_RETENTION)',
    registers: [registry],
    async collect() {
      try {
        const { rows } = await sql<{ count: string | number }>`select count(*) as count from mail_queue where failed_at is not null`.execute(database.db);
        this.set(Number(rows[0]?.count ?? 0));
      } catch {
        // as above
      }
    },
  });
  return metrics;
}
