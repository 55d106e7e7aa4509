/** What buildApp decorates the Fastify instance with. */
import type { AuditAction } from '../common/auditActions.js';
import type { Config } from './config.js';
import type { DatabaseHandle, Db } from './db/index.js';
import type { PublicIds } from './domain/publicIds.js';
import type { RetentionResult } from './domain/retention.js';
import type { DeadlineReminderResult } from './domain/deadlineReminders.js';
import type { TokenValidity } from './domain/tokenValidity.js';
import type { PasswordStrength } from './api/passwordStrength.js';
import type { PortalMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The public ids of records whose stored ids count across organisations (domain/publicIds.ts). */
    publicIds: PublicIds;
    /** The Kysely instance (camelCase names over the snake_case tables). */
    db: Db;
    /** The database handle: kind, ping, close. */
    database: DatabaseHandle;
    /** Every route registered, as `GET /api/v2/services` (HEAD routes left out): for checks that must cover them all. */
    registeredRoutes: readonly string[];
    /** Each registered route's declared audit actions (config.audit; undefined: none declared): the matrix test checks every write route has them. */
    routeAudit: ReadonlyMap<string, readonly AuditAction[] | undefined>;
    /** Whether access tokens are still good (logout, password change, role change), kept in memory. */
    tokenValidity: TokenValidity;
    /** The password strength rule of SPEC §5, scored in a worker thread. */
    passwordStrength: PasswordStrength;
    /** The Prometheus metrics (GET /metrics). */
    metrics: PortalMetrics;
    /** One retention clean-up run now (it also runs every RETENTION_INTERVAL). */
    runRetention(): Promise<RetentionResult>;
    /** One run of the change-deadline reminders now, for `today` (default: today in Tokyo; it also runs every DEADLINE_REMINDER_INTERVAL). */
    runDeadlineReminders(today?: string): Promise<DeadlineReminderResult>;
  }

  interface FastifyContextConfig {
    /**
     * The audit actions the route records (issue 21, api/audit.ts); `[]` for a write that changes nothing an
     * organisation's trail shows (say why beside it). Every write route declares it: the authorisation matrix checks.
     */
    audit?: readonly AuditAction[];
  }
}

export {};
