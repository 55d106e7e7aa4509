/**
 * Builds the Fastify app; every plugin is registered here (DESIGN §2).
 * The caller owns listening and closing: `const app = await buildApp(loadConfig()); await app.listen(…)`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { Logger } from 'pino';
import type { AuditAction } from '../common/auditActions.js';
import { API_ERROR } from '../common/errorCodes.js';
import { ISSUER_PATH } from '../common/identity.js';
import { redactUrlForLog } from '../common/logRedaction.js';
import { tokyoToday } from '../common/subscriptionRules.js';
import { COMPRESSION_THRESHOLD_BYTES, compressLargeAnswersOffTheLoop, ENCODINGS, ON_THE_FLY_BROTLI_QUALITY, ON_THE_FLY_GZIP_LEVEL } from './api/compression.js';
import { apiRoutes } from './api/index.js';
import { errorHandler } from './api/errors.js';
import { healthRoutes } from './api/health.js';
import { installJsonBodyParser } from './api/jsonBody.js';
import { refuseControlCharacters } from './api/controlCharacters.js';
import { registerApiDocs } from './api/openapi.js';
import { createPasswordStrength, type PasswordStrength } from './api/passwordStrength.js';
import { buildSerializer } from './api/serializers.js';
import { createValidatorCompiler } from './api/validation.js';
import { isAppNavigation, registerBrowserBuild, sendIndexHtml } from './browserBuild.js';
import type { Config } from './config.js';
import { createDatabase, migrateToLatest, type DatabaseHandle } from './db/index.js';
import { addDemoLearners } from './db/seed/learners.js';
import { upkeepEmbeddedDatabase } from './db/upkeep.js';
import { demoPasswordAccounts, seedDemoData, seedDemoOrganizationUsers, seedDemoPartnerProducts, seedDemoSso, seedDemoSubscriptionsOnce } from './db/seed/index.js';
import { registerIdentityProvider } from './idp/index.js';
import { createMailer } from './mail/mailer.js';
import { createMailQueue } from './mail/queue.js';
import { devRoutes } from './api/devPages.js';
import { demoIdpIssuer } from './api/devIdp.js';
import { metricsRoutes } from './api/metrics.js';
import { loadPublicIds } from './domain/publicIds.js';
import { runRetention } from './domain/retention.js';
import { businessCalendar } from './domain/businessCalendar.js';
import { runDeadlineReminders } from './domain/deadlineReminders.js';
import { guardedFetch } from './domain/guardedFetch.js';
import { runSsoCertificates } from './domain/ssoCertificates.js';
import { WEBHOOK_DELIVERY_JOB } from './domain/webhookOutbox.js';
import { samlRoutes } from './saml/routes.js';
import { createTokenValidity } from './domain/tokenValidity.js';
import { usePasswordHashing } from './domain/passwords.js';
import { createMetrics } from './metrics.js';
import { namePluginsByFunction } from './pluginNames.js';
import { OneLinePerRequest } from './requestLog.js';
import './types.js';

export interface AppDeps {
  /** A database the caller opened (and will close); by default buildApp opens one from config and closes it with the app. */
  database?: DatabaseHandle;
  /** A pino logger to use instead of one built from config.logLevel (tests capture the log this way). */
  logger?: Logger;
  /** false: queued mail waits for `app.mailQueue.drain()` (tests that look at the queue); default true. */
  mailQueueWorker?: boolean;
  /**
   * false: no periodic jobs — the retention clean-up, the deadline reminders, the IdP certificates' job (tests, whose rows they must not touch;
   * `app.runRetention()` and `app.runDeadlineReminders()` still work); default true.
   */
  periodicJobs?: boolean;
  /**
   * Single sign-on's demo connection for G0000001 in demo mode (seed seedDemoSso); default: when buildApp opens its
   * own database (`npm start`), not on a caller's (tests, whose own connections of G0000001 it would outnumber).
   */
  demoSso?: boolean;
  /** A password-strength pool the caller owns (tests share one a process: each pool's worker loads the dictionaries); default one of the app's own. */
  passwordStrength?: PasswordStrength;
}

/** The API (not its documentation pages under /api/docs). */
const API_PATH = /^\/api\/(?!docs(?:[/?]|$))/;

/** Fastify's request serializer with the URL redacted; headers (tokens, cookies) are never logged. */
function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrlForLog(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

/**
 * The page-wide policy: nothing but this origin, no inline script or style, no eval, no framing. A configured support
 * chat (SUPPORT_CHAT_SCRIPT_URL) adds exactly its script's origin where a widget needs it: its script, the calls and
 * the frames it opens, its stylesheets and pictures; still no inline script, so the portal loads the widget itself.
 */
export function contentSecurityPolicy(config: Pick<Config, 'publicUrl' | 'supportChat'>) {
  const chat = config.supportChat ? [config.supportChat.origin] : [];
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...chat],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", ...chat],
      imgSrc: ["'self'", 'data:', ...chat],
      fontSrc: ["'self'"],
      connectSrc: ["'self'", ...chat],
      ...(chat.length > 0 ? { frameSrc: ["'self'", ...chat] } : {}),
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      ...(config.publicUrl.startsWith('https:') ? { upgradeInsecureRequests: [] } : {}),
    },
  };
}

/**
 * An API answer's headers (JSON or CSV, never a document a browser renders), as OWASP's REST Security Cheat Sheet has
 * them: nothing loaded by it, not framed, not sniffed, not cached, not read by other sites. A page's other headers
 * (DNS prefetch, XSS auditor, origin-agent-cluster, opener policy…) mean nothing to it and cost every call ~500 bytes
 * (issue 26 item 5).
 */
export function apiSecurityHeaders(pageHeaders: ReadonlyArray<readonly [string, string]>): ReadonlyArray<readonly [string, string]> {
  return [
    ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
    ['cross-origin-resource-policy', 'same-origin'],
    ['referrer-policy', 'no-referrer'],
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    // API answers carry tokens and personal data: never kept by a browser or a proxy (issue 7 finding 14)
    ['cache-control', 'no-store'],
    ...pageHeaders.filter(([name]) => name === 'strict-transport-security'),
  ];
}

/**
 * helmet's headers for these options, worked out once: nothing in them depends on the request (no nonces, no
 * directive functions), and @fastify/helmet built helmet's middleware anew for every request (its CSP parsing showed in
 * the profile of an authenticated read, issue 20).
 */
export function securityHeaders(options: Readonly<HelmetOptions>): ReadonlyArray<readonly [string, string]> {
  const headers: [string, string][] = [];
  const response = { setHeader: (name: string, value: string) => void headers.push([name, value]), removeHeader: () => undefined };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return headers;
}

export async function buildApp(config: Config, deps: AppDeps = {}): Promise<FastifyInstance> {
  // calendar/closedDays.json read and checked now: a broken file stops the start, and the first deadline asked for (a
  // request's or the reminders' first run) does not hold the event loop for the check's compilation (~30 ms, issue 47)
  businessCalendar();
  // every log line's request: the URL without tokens, codes or query values (issue 7 finding 4); on the app's logger
  // itself, so Fastify's per-request child loggers inherit it (a childLoggerFactory adding it cost a serializer copy
  // and a logger validation per request, issue 20)
  const serializers = { req: serializeRequest };
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger.child({}, { serializers }) } : { logger: { level: config.logLevel, serializers } }),
    // A hop count is valid at runtime (proxy-addr) though Fastify's types omit it.
    trustProxy: config.trustProxy as boolean | string[],
    // a malformed URL (bad percent-encoding…) is answered like every other error: {error: bad_request}
    frameworkErrors: (error, request, reply) => void errorHandler(error, request, reply),
    // one line per request, written when it is answered, instead of Fastify's two
    logController: new OneLinePerRequest(),
    schemaController: { compilersFactory: { buildSerializer } },
  }) as unknown as FastifyInstance;
  namePluginsByFunction(app);

  usePasswordHashing(config.passwordHashing);
  const ownsDatabase = deps.database === undefined;
  const database =
    deps.database ??
    createDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      logger: app.log as Logger,
      listenDatabaseUrl: config.notifications.listenDatabaseUrl,
      heartbeatIntervalMs: config.notifications.heartbeatIntervalSeconds * 1000,
    });
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  const tokenValidity = createTokenValidity(database, { maxAgeSeconds: config.notifications.tokenValidityMaxAgeSeconds });
  app.decorate('tokenValidity', tokenValidity);
  // before the database closes (added first, onClose hooks run in order)
  app.addHook('onClose', async () => tokenValidity.close());
  const passwordStrength = deps.passwordStrength ?? createPasswordStrength();
  app.decorate('passwordStrength', passwordStrength);
  if (!deps.passwordStrength) app.addHook('onClose', async () => passwordStrength.close());
  const registeredRoutes: string[] = [];
  app.decorate('registeredRoutes', registeredRoutes);
  const routeAudit = new Map<string, readonly AuditAction[] | undefined>();
  app.decorate('routeAudit', routeAudit);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') registeredRoutes.push(`${method} ${route.url}`);
    for (const method of [route.method].flat()) routeAudit.set(`${method} ${route.url}`, route.config?.audit);
  });
  const metrics = createMetrics(database);
  app.decorate('metrics', metrics);
  database.onQueryError = () => metrics.dbQueryErrors.inc();
  database.onNotificationsInterrupted = () => metrics.notificationInterruptions.inc();

  const transport = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom });
  const mailQueue = createMailQueue({
    db: database.db,
    transport,
    log: app.log as Logger,
    worker: deps.mailQueueWorker ?? true,
    // the mail metrics count mail: a webhook delivery's retries are its endpoint's, shown on the Webhooks page
    onOutcome: (outcome, kind) => {
      if (kind === WEBHOOK_DELIVERY_JOB) return;
      if (outcome === 'sent') metrics.mailsSent.inc();
      else metrics.mailFailures.inc({ outcome });
    },
  });
  app.decorate('mailQueue', mailQueue);
  // routes queue their mails: sent after the answer (issue 7 finding 11)
  app.decorate('mailer', mailQueue.mailer);
  // one synchronous hook per answer (done callback): an async one costs a promise and a turn, every hook a call
  app.addHook('onResponse', (request, reply, done) => {
    // the route's pattern, never the raw URL (unbounded labels, tokens in paths)
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    mailQueue.kick();
    done();
  });
  app.addHook('onClose', async () => {
    await mailQueue.close();
    transport.close();
  });
  if (ownsDatabase) app.addHook('onClose', async () => database.close());

  const retentionSettings = {
    retention: config.retention,
    rateLimitWindowSeconds: config.mailRateLimit.windowSeconds,
    signinLockoutSeconds: config.signinThrottle.lockoutSeconds,
  };
  app.decorate('runRetention', async () => {
    try {
      const result = await runRetention(database.db, retentionSettings);
      metrics.retentionRuns.inc({ outcome: result.ran ? 'done' : 'skipped' });
      if (result.ran) {
        for (const [table, count] of Object.entries(result.deleted)) if (count > 0) metrics.retentionDeleted.inc({ table }, count);
        const total = Object.values(result.deleted).reduce((sum, count) => sum + count, 0);
        if (total > 0) app.log.info({ deleted: result.deleted }, 'retention: old rows deleted');
      }
      return result;
    } catch (error) {
      metrics.retentionRuns.inc({ outcome: 'failed' });
      throw error;
    }
  });
  app.decorate('runDeadlineReminders', async (today: string = tokyoToday()) => {
    const result = await runDeadlineReminders(
      { db: database.db, mailQueue, publicUrl: config.publicUrl, businessDays: config.deadlineReminders.businessDays },
      today,
    );
    if (result.ran && result.mails > 0) app.log.info({ applications: result.reminded, mails: result.mails }, 'deadline reminders queued');
    return result;
  });
  // periodic jobs: each run scheduled after the last one ended, stopped when the app closes
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  const schedule = (name: string, run: () => Promise<unknown>, delayMs: number, intervalMs: number) => {
    if (closed) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      run()
        .catch((error: unknown) => app.log.warn({ err: error }, `${name} failed`))
        .finally(() => schedule(name, run, intervalMs, intervalMs));
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };
  app.addHook('onClose', async () => {
    closed = true;
    for (const timer of timers) clearTimeout(timer);
  });

  try {
    await migrateToLatest(database.db);
    app.decorate('publicIds', await loadPublicIds(database.db));
    if (config.seed === 'demo' && config.demo) {
      const result = await seedDemoData(database.db);
      if (result.seeded) app.log.info('seeded the demo data');
      if (result.seeded && config.demoLearners > 0) await addDemoLearners(database.db, config.demoLearners);
      // also into a database seeded before the gateway existed
      await seedDemoPartnerProducts(database.db);
      // and the learners of the Users page (migration 0061)
      await seedDemoOrganizationUsers(database.db);
      // and the applications (migration 0070)
      await seedDemoSubscriptionsOnce(database.db);
      // and single sign-on's demo, through the demo IdP at /dev/idp (issue 45 §8)
      if (deps.demoSso ?? ownsDatabase) await seedDemoSso(database.db, demoIdpIssuer(config.publicUrl), config.secretKeys);
    } else if (!config.demo) {
      const accounts = await demoPasswordAccounts(database.db);
      if (accounts.length > 0) app.log.error({ accounts }, 'demo accounts with the published password exist outside demo mode: change their passwords or remove them');
    }
  } catch (error) {
    if (ownsDatabase) await database.close().catch(() => undefined);
    throw error;
  }

  // JSON and CSV answers compressed on the fly (issue 26; large ones off the event loop: api/compression.ts), the
  // browser build's files from their siblings (registered before them, as @fastify/static asks). The identity
  // provider is never compressed, per BREACH: its own answers (the token endpoint, its pages) are written past
  // Fastify, and its interaction pages (routes here: the sign-in form echoes the typed e-mail beside its CSRF token)
  // opt out below, before the plugin sees the route. The API's answers take a bearer token, which a cross-site page
  // cannot attach. Compressed request bodies are not accepted (no zip bombs).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${ISSUER_PATH}/interaction/`)) route.compress = false;
  });
  compressLargeAnswersOffTheLoop(app);
  await app.register(fastifyCompress, {
    encodings: ENCODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: ON_THE_FLY_BROTLI_QUALITY } },
    zlibOptions: { level: ON_THE_FLY_GZIP_LEVEL },
    globalDecompression: false,
  });

  installJsonBodyParser(app);
  // NUL and other control characters in paths, queries and credentials: 400, before any route (issue 15 finding 5)
  refuseControlCharacters(app);
  app.setValidatorCompiler(createValidatorCompiler());
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(async (request, reply) => {
    if (isAppNavigation(request)) return sendIndexHtml(reply, config.distDir);
    return reply.code(404).send({ error: API_ERROR.notFound });
  });

  const pageHeaders = securityHeaders({
    contentSecurityPolicy: contentSecurityPolicy(config),
    // HSTS only makes sense when the portal is served over https.
    strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  const apiHeaders = apiSecurityHeaders(pageHeaders);
  // on the raw response as helmet does, so answers written past Fastify (the identity provider's) carry them too
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of API_PATH.test(request.url) ? apiHeaders : pageHeaders) reply.raw.setHeader(name, value);
    done();
  });

  // the document collects the routes registered after it
  await registerApiDocs(app, config);

  await app.register(healthRoutes);
  await app.register(metricsRoutes);
  // the development pages, in demo mode only (the one place that decides): the outbox (DESIGN §4) and the screen
  // gallery /dev/screens (issue 8 §1), answering this machine only (issue 15 finding 3)
  if (config.demo) await app.register(devRoutes);
  // the identity provider at /oidc (before the API, which verifies its access tokens)
  await registerIdentityProvider(app);
  // the SAML service provider's public metadata (issue 45)
  await app.register(samlRoutes);
  await app.register(apiRoutes);
  await registerBrowserBuild(app, config.distDir);

  await app.ready();
  mailQueue.kick();
  if (deps.periodicJobs ?? true) {
    // the retention's first run a minute or so after the start (instances started together spread out); the
    // reminders' a few seconds after it (a deadline may be today)
    const retentionMs = config.retention.intervalSeconds * 1000;
    schedule('retention: clean-up', () => app.runRetention(), Math.min(retentionMs, 60_000 + Math.floor(Math.random() * 30_000)), retentionMs);
    schedule('deadline reminders', () => app.runDeadlineReminders(), 5_000 + Math.floor(Math.random() * 5_000), config.deadlineReminders.intervalSeconds * 1000);
    // the IdPs' metadata URLs refreshed daily and their certificates' expiry mails (issue 45)
    const ssoCertificates = () =>
      runSsoCertificates({
        db: database.db,
        mailQueue,
        publicUrl: config.publicUrl,
        fetchMetadata: (url) => guardedFetch(url, { allowLoopback: config.demo, allowPrivate: config.sso.allowPrivateAddresses }),
        warn: (detail, message) => app.log.warn(detail, message),
      });
    schedule('sso certificates', ssoCertificates, 10_000 + Math.floor(Math.random() * 5_000), config.sso.certificateJobIntervalSeconds * 1000);
    // autovacuum's work, which the embedded database has no worker for (db/upkeep.ts)
    if (database.kind === 'pglite') {
      const upkeep = async () => {
        const tables = await upkeepEmbeddedDatabase(database.db);
        if (tables.length > 0) app.log.info({ tables }, 'embedded database: vacuumed and analyzed');
      };
      schedule('embedded database upkeep', upkeep, config.pgliteUpkeepIntervalSeconds * 1000, config.pgliteUpkeepIntervalSeconds * 1000);
    }
  }
  return app;
}
