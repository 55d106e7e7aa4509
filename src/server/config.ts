/**
 * Every environment setting of the server, read and validated once (DESIGN §4, the runtime contract).
 * `loadConfig(env)` never reads process.env itself, so tests pass their own overrides.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { MAX_TOKEN_TTL_SECONDS } from '../common/singleSignOn.js';
import { CAPTCHA_DIFFICULTY } from './domain/captcha.js';
import { DEFAULT_FREE_MAIL_DOMAINS } from './domain/freeMailDomains.js';
import { DEFAULT_PASSWORD_HASHING, MIN_PASSWORD_HASH_MEMORY_KIB, MIN_PASSWORD_HASH_WORK, type PasswordHashing } from './domain/passwords.js';
import { DEFAULT_MFA_CONTEXTS } from './saml/authnContexts.js';

export const SEED_MODES = ['demo', 'none'] as const;
export type SeedMode = (typeof SEED_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `memory://` runs PGlite in memory (tests); unset runs PGlite in DATA_DIR/pgdata. */
export const MEMORY_DATABASE_URL = 'memory://';

export const CAPTCHA_MODES = ['on', 'off'] as const;
export const DEMO_MODES = ['on', 'off'] as const;
export type CaptchaMode = (typeof CAPTCHA_MODES)[number];

/** Activation and reset mail requests (together) allowed per e-mail address and per client address in one window. */
export interface MailRateLimitConfig {
  /** MAIL_RATE_LIMIT_PER_EMAIL, default 5. */
  perEmail: number;
  /** MAIL_RATE_LIMIT_PER_CLIENT, default 20. */
  perClient: number;
  /** MAIL_RATE_LIMIT_WINDOW, seconds, default 1 hour. */
  windowSeconds: number;
}

export interface Config {
  port: number;
  /**
   * Interface to listen on (HOST). Default `0.0.0.0`, but `localhost` (this machine only) when demo mode follows a
   * loopback PUBLIC_URL: a fresh clone's outbox must not reach the network (issue 15 finding 3).
   */
  host: string;
  /** Base of links in mails and of the issuer, without a trailing slash. */
  publicUrl: string;
  /** Absolute path of the embedded data (PGlite, generated keys). */
  dataDir: string;
  /** `postgres://…` for PostgreSQL, `memory://` for an in-memory PGlite, undefined for PGlite in dataDir. */
  databaseUrl: string | undefined;
  /** Notifications between instances (issue 25 finding 1): see NotificationsConfig. */
  notifications: NotificationsConfig;
  smtpUrl: string | undefined;
  /** Sender of the portal's mails (MAIL_FROM); default no-reply@ the host of PUBLIC_URL. */
  mailFrom: string;
  /** Staff addresses told of each registration request (REGISTRATION_NOTIFY_TO, comma-separated); empty: nobody. */
  registrationNotifyTo: string[];
  /** The captcha of the mail-sending requests (CAPTCHA); 'off' is for local use and refused outside demo mode. */
  captcha: CaptchaMode;
  /** HMAC secret of captcha challenges (CAPTCHA_SECRET); unset: generated once and kept in the database. */
  captchaSecret: string | undefined;
  /** PBKDF2's iterations a try of the captcha's proof of work (CAPTCHA_COST). */
  captchaCost: number;
  /** How long an activation link works, seconds (ACTIVATION_TOKEN_TTL, default 72 h). */
  activationTokenTtl: number;
  /** How long a password-reset link works, seconds (PASSWORD_RESET_TOKEN_TTL, default 1 h). */
  passwordResetTokenTtl: number;
  /** MB of organisations' admin lists, and as much of their application pages, kept between their changes (LIST_CACHE_MB, default 32); 0: none kept. */
  listCacheMb: number;
  mailRateLimit: MailRateLimitConfig;
  seed: SeedMode;
  /** Demo data only: this many more learners of G0000001 on the Users page (DEMO_LEARNERS, default 0), to try it at a large customer's size. */
  demoLearners: number;
  nodeEnv: string | undefined;
  isProduction: boolean;
  /** The API documentation at /api/docs (API_DOCS on/off); default on in demo mode, off outside it. */
  apiDocs: boolean;
  /**
   * Demo mode: the outbox (/dev/mails), demo seeding, CAPTCHA=off and TRUST_PROXY=true. On for a loopback PUBLIC_URL
   * (a fresh clone) or with DEMO=on; off with DEMO=off, with NODE_ENV=production, and on any real host by default.
   */
  demo: boolean;
  logLevel: LogLevel;
  /** Absolute path of the browser build (index.html and assets/). */
  distDir: string;
  /**
   * Fastify's trustProxy (TRUST_PROXY): false, the number of proxy hops to trust, or the proxies' addresses and CIDRs
   * (or proxy-addr's names loopback, linklocal, uniquelocal); true (trust anyone) is refused in production.
   */
  trustProxy: TrustProxy;
  /** Lifetime of the identity provider's access tokens, seconds (ACCESS_TOKEN_TTL). */
  accessTokenTtl: number;
  /** Lifetime of a refresh token, seconds (REFRESH_TOKEN_TTL); rotation never extends it past the first one's. */
  refreshTokenTtl: number;
  /** A password entry older than this (seconds, REAUTH_WINDOW) asks for the password again on sensitive pages. */
  reauthWindow: number;
  /** How long single-sign-on tokens are accepted, seconds (SINGLE_SIGN_ON_TOKEN_TTL, 1–60, default 60). */
  singleSignOnTokenTtl: number;
  /** A session not refreshed for this long ends (seconds, SESSION_IDLE_TIMEOUT, default 30 min): refresh refused, password asked. */
  sessionIdleTimeout: number;
  /** A session ends this long after its password entry however active (seconds, SESSION_MAX_AGE, default 12 h). */
  sessionMaxAge: number;
  /** Keys signing the provider's cookies (COOKIE_KEYS, comma-separated, newest first); unset: generated once and kept in the database. */
  cookieKeys: string[] | undefined;
  /**
   * The keys sealing the secrets the portal reads back (authenticator apps', single-sign-on clients', webhooks'):
   * SECRET_KEY (or its former name TWO_STEP_SECRET_KEY), 32-byte base64 keys, comma-separated, newest first: the first
   * seals, each opens what it sealed. Required outside demo mode; unset in demo mode: one generated once and kept in
   * the database.
   */
  secretKeys: readonly Buffer[] | undefined;
  /** How long the mailed link that opens a first factor's set-up under an organisation's rule works (TWO_STEP_ENROLMENT_TTL, default 30 min). */
  twoStepEnrolmentTtl: number;
  /** The provider's signing keys (IDP_SIGNING_KEYS: a JWKS, or @file); the first that may sign signs. Unset: generated once and kept in the database. */
  signingKeys: SigningJwk[] | undefined;
  /** Failed sign-ins: slowed, then refused for a while, per account and per client address. */
  signinThrottle: SigninThrottleConfig;
  /** argon2id's cost of new password hashes (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_PASSES, PASSWORD_HASH_PARALLELISM). */
  passwordHashing: PasswordHashing;
  /**
   * The page the header's announcements icon opens in a new tab (ANNOUNCEMENT_PAGE_URL): an absolute http(s) URL or a
   * path of the portal; `{lang}` in it becomes the page's language. Default `/announcements` (the portal's own list).
   */
  announcementPageUrl: string;
  /** The third-party support chat widget (SUPPORT_CHAT_SCRIPT_URL and SUPPORT_CHAT_KEY_<LANG>); undefined: none loads. */
  supportChat: SupportChatConfig | undefined;
  /** The provider's pages that SPEC §7's link rewriting names only by description (src/common/serviceLinks.ts). */
  serviceLinks: ServiceLinkExceptions;
  /** The retention clean-up: how often it runs and how long each growing table keeps its rows (docs/operations.md). */
  retention: RetentionConfig;
  /** How often the embedded database's tables are vacuumed and analyzed where due, seconds (PGLITE_UPKEEP_INTERVAL, default 1 min; db/upkeep.ts). */
  pgliteUpkeepIntervalSeconds: number;
  /** The managers' change-deadline reminders (issue 30). */
  deadlineReminders: DeadlineRemindersConfig;
  /**
   * Bearer token of GET /metrics (METRICS_TOKEN, at least 32 characters). Set: required, in demo mode too. Unset: the
   * metrics are open in demo mode and absent (404) outside it.
   */
  metricsToken: string | undefined;
  /** How long SIGTERM waits for the answers in progress before the server exits anyway, seconds (SHUTDOWN_TIMEOUT, default 5). */
  shutdownTimeout: number;
  /** The largest learner CSV the Users page may upload, bytes (USERS_CSV_MAX_BYTES, default 10 MiB: about 100,000 learners with Japanese names): larger answers 400 exceedMaxSize. */
  usersCsvMaxBytes: number;
  /** The largest bulk-update body, bytes (USERS_BULK_UPDATE_MAX_BYTES, default 32 MiB: the previewed rows of 100,000 learners as JSON): larger answers 413. */
  usersBulkUpdateMaxBytes: number;
  /** The most rows of one CSV export, the learners or the audit trail (CSV_EXPORT_MAX_ROWS, default 1,000,000: every entry of a large customer's 400 days, issue 27): a longer file ends with a line saying it was cut. */
  csvExportMaxRows: number;
  /** Corporate subscriptions: the values SPEC §4/§5 leave open (domain/corporateSubscriptions.ts). */
  subscriptions: SubscriptionsConfig;
  /** IF_MATCH_REQUIRED (default off): a change of a versioned record without If-Match answers 428 (api/preconditions.ts). */
  ifMatchRequired: boolean;
  /** Single sign-on with the customer's own identity provider (issue 45). */
  sso: SsoConfig;
  /** The organisation's own API clients (issue 46). */
  apiClients: ApiClientsConfig;
}

/** The organisation's own API clients (issue 46): their request rate and a rotated secret's overlap. */
export interface ApiClientsConfig {
  /** Requests a client may make per second, sustained (API_CLIENT_RATE_LIMIT, default 10). */
  ratePerSecond: number;
  /** Requests a client may make at once after a pause: the bucket's size (API_CLIENT_RATE_BURST, default 50). */
  burst: number;
  /** How long the old secret keeps working after 'Rotate secret', seconds (API_CLIENT_SECRET_OVERLAP, default 24 h). */
  secretOverlapSeconds: number;
}

export interface SsoConfig {
  /**
   * The resolvers asked for the TXT records that verify a domain (DNS_SERVERS: IP addresses, each optionally with a
   * port — `192.0.2.53:53`, `[2001:db8::53]:53` — comma-separated); undefined: the system's.
   */
  dnsServers: readonly string[] | undefined;
  /** Domains no organisation may claim, nor their subdomains (SSO_FREE_MAIL_DOMAINS, comma-separated; default domain/freeMailDomains.ts). */
  freeMailDomains: readonly string[];
  /** The SAML AuthnContextClassRefs that count as multi-factor (SSO_MFA_CONTEXTS, comma-separated URIs; default saml/authnContexts.ts). */
  mfaContexts: readonly string[];
  /**
   * An IdP's metadata or discovery URL may name the private ranges — RFC 1918, IPv6 ULA — for an IdP on the company
   * network (SSO_ALLOW_PRIVATE_ADDRESSES on/off, default off); loopback, link-local and the rest stay refused.
   */
  allowPrivateAddresses: boolean;
  /**
   * How often one instance refreshes the IdPs' metadata URLs (each once a day) and mails the managers of IdP
   * certificates about to expire, seconds (SSO_CERTIFICATE_JOB_INTERVAL, default 1 h; domain/ssoCertificates.ts).
   */
  certificateJobIntervalSeconds: number;
}

export interface NotificationsConfig {
  /** The listening connection's own PostgreSQL URL (LISTEN_DATABASE_URL, default DATABASE_URL): direct, not through a pooler in transaction mode. */
  listenDatabaseUrl: string | undefined;
  /** How often the listening connection must hear its own notification back, seconds (LISTEN_HEARTBEAT_INTERVAL, default 5). */
  heartbeatIntervalSeconds: number;
  /** How long an admin's token validity is kept before it is read again whatever the notifications say, seconds (TOKEN_VALIDITY_MAX_AGE, default 30). */
  tokenValidityMaxAgeSeconds: number;
}

export interface SubscriptionsConfig {
  /** Learners may be added to a confirmed class application until startsOn + this many days (SUBSCRIPTION_ENLARGEMENT_DAYS, default 7). */
  enlargementDays: number;
  /** Another application of the same group starting less than this many months apart overlaps (SUBSCRIPTION_OVERLAP_MONTHS, default 12): its learners warn engagedRequestCode. */
  overlapMonths: number;
}

/** The support chat widget's script and its key per language (SPEC 2.2). */
export interface SupportChatConfig {
  /** Absolute URL of the widget's script; the CSP allows its origin. */
  scriptUrl: string;
  /** The script URL's origin (`https://chat.example.com`), the only one the CSP opens for the widget. */
  origin: string;
  /** The widget's key by language; a language without one uses ja's. */
  keys: { ja: string; en: string };
}

export interface ServiceLinkExceptions {
  /** LEARNING_CHECK_ADMIN_URL: the learning-check admin page; admin links under it get no glopla_id. */
  learningCheckAdminUrl: string;
  /** PROVIDER_SAML_IDP_URL: the provider's SAML identity provider; gls other_sso links under it get no glopla_id. */
  samlIdpUrl: string;
  /** PROVIDER_SIGNIN_HOST: the provider's sign-in host; https links to it get at={gloplaId}:{token}. */
  signinHost: string;
  /** Demo mode: plain http links to the sign-in host get `at` too (never outside it: the access token in clear). */
  signinOverHttp: boolean;
}

/**
 * A private RSA signing key (JWK) of the identity provider. `key_ops: ["verify"]` marks a key that is published and
 * verifies but does not sign yet (key rotation, see README).
 */
export interface SigningJwk {
  kty: 'RSA';
  kid: string;
  alg: 'RS256';
  use: 'sig';
  key_ops?: string[];
  [name: string]: unknown;
}

export interface SigninThrottleConfig {
  /** Failures of one account before it is locked (SIGNIN_MAX_FAILURES). */
  maxAccountFailures: number;
  /** Failures from one client address before it is locked (SIGNIN_MAX_ADDRESS_FAILURES). */
  maxAddressFailures: number;
  /** How long a lock lasts and how long failures are remembered, seconds (SIGNIN_LOCKOUT). */
  lockoutSeconds: number;
  /** Extra wait per failure after the second one, milliseconds, capped at 3 s (SIGNIN_FAILURE_DELAY_MS). */
  failureDelayMs: number;
  /** Wrong second-step codes of one account, from any address, before its second step is locked (SIGNIN_MAX_SECOND_STEP_FAILURES). */
  maxSecondStepFailures: number;
  /** Wrong codes at one second step before the password must be entered again (SECOND_STEP_MAX_TRIES). */
  secondStepMaxTries: number;
}

export type TrustProxy = boolean | number | string[];

/** When the managers are reminded of an application's change deadline (issue 30, domain/deadlineReminders.ts). */
export interface DeadlineRemindersConfig {
  /** Reminded when the deadline is this many business days away or fewer (DEADLINE_REMINDER_BUSINESS_DAYS, default 3); Home highlights such deadlines too. */
  businessDays: number;
  /** How often one instance looks for deadlines to remind of, seconds (DEADLINE_REMINDER_INTERVAL, default 1 h). */
  intervalSeconds: number;
}

/** How long rows that grow with traffic are kept, and how often the clean-up runs (docs/operations.md, Retention). */
export interface RetentionConfig {
  /** How often one instance runs the clean-up, seconds (RETENTION_INTERVAL, default 10 min). */
  intervalSeconds: number;
  /** Used or expired activation and reset links, kept this long after their use or expiry (TOKEN_RETENTION, default 30 d). */
  tokenSeconds: number;
  /** Mails in the outbox (demo mode, no SMTP_URL), kept this long (OUTBOX_RETENTION, default 14 d). */
  outboxSeconds: number;
  /** Mail jobs given up after their last attempt, kept this long for diagnosis (FAILED_MAIL_RETENTION, default 30 d). */
  failedMailSeconds: number;
  /** Registration requests (also mailed to the staff), kept this long (REGISTRATION_REQUEST_RETENTION, default 365 d). */
  registrationRequestSeconds: number;
  /** The audit trail's entries, kept this long (AUDIT_RETENTION, default 400 d: a year's audit and some). */
  auditSeconds: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Reads the settings from `env` (normally process.env); throws a ConfigError listing every invalid value. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const value = (name: string): string | undefined => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };

  const port = parsePort(value('PORT') ?? '3000');
  if (port === undefined) problems.push(`PORT must be an integer from 0 to 65535, got "${env.PORT}"`);

  const publicUrl = value('PUBLIC_URL') ?? `http://localhost:${port ?? 3000}`;
  if (!isHttpUrl(publicUrl)) problems.push(`PUBLIC_URL must be an absolute http(s) URL, got "${publicUrl}"`);

  const isProduction = value('NODE_ENV') === 'production';
  const demoSetting = value('DEMO');
  if (demoSetting !== undefined && !(DEMO_MODES as readonly string[]).includes(demoSetting)) problems.push(`DEMO must be one of ${DEMO_MODES.join(', ')}, got "${demoSetting}"`);
  else if (demoSetting === 'on' && isProduction) problems.push('DEMO=on (published demo passwords, the outbox with every mailed link) is refused when NODE_ENV=production');
  const demo = demoSetting === undefined ? !isProduction && isLoopbackUrl(publicUrl) : demoSetting === 'on' && !isProduction;

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && databaseUrl !== MEMORY_DATABASE_URL && !isPostgresUrl(databaseUrl)) {
    problems.push(`DATABASE_URL must be a postgres:// or postgresql:// URL (or ${MEMORY_DATABASE_URL}), got "${redactUrl(databaseUrl)}"`);
  }

  const smtpUrl = value('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) {
    problems.push(`SMTP_URL must be an smtp:// or smtps:// URL, got "${redactUrl(smtpUrl)}"`);
  }

  const mailFrom = value('MAIL_FROM') ?? `no-reply@${hostOf(publicUrl) ?? 'localhost'}`;
  if (!/^[^@\s<>]+@[^@\s<>]+$|<[^@\s<>]+@[^@\s<>]+>$/.test(mailFrom)) problems.push(`MAIL_FROM must be an e-mail address (optionally "Name <address>"), got "${mailFrom}"`);

  const registrationNotifyTo = (value('REGISTRATION_NOTIFY_TO') ?? '')
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);
  for (const address of registrationNotifyTo) {
    if (!/^[^@\s]+@[^@\s]+$/.test(address)) problems.push(`REGISTRATION_NOTIFY_TO must be comma-separated e-mail addresses, got "${address}"`);
  }

  const captcha = value('CAPTCHA') ?? 'on';
  if (!(CAPTCHA_MODES as readonly string[]).includes(captcha)) problems.push(`CAPTCHA must be one of ${CAPTCHA_MODES.join(', ')}, got "${captcha}"`);
  else if (captcha === 'off' && !demo) problems.push('CAPTCHA=off is for local use only: refused outside demo mode (a loopback PUBLIC_URL or DEMO=on)');
  const captchaSecret = value('CAPTCHA_SECRET');
  if (captchaSecret !== undefined && captchaSecret.length < 32) problems.push('CAPTCHA_SECRET must be at least 32 characters long');

  const duration = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const parsed = parseDuration(raw);
    if (parsed === undefined) problems.push(`${name} must be a duration such as 3600, 90s, 30m, 72h or 7d, got "${env[name]}"`);
    return parsed ?? fallback;
  };
  const count = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) problems.push(`${name} must be a positive integer, got "${env[name]}"`);
    return /^\d+$/.test(raw) && Number(raw) >= 1 ? Number(raw) : fallback;
  };
  const captchaCost = count('CAPTCHA_COST', CAPTCHA_DIFFICULTY.cost);
  const activationTokenTtl = duration('ACTIVATION_TOKEN_TTL', 72 * 3600);
  const passwordResetTokenTtl = duration('PASSWORD_RESET_TOKEN_TTL', 3600);
  const mailRateLimit: MailRateLimitConfig = {
    perEmail: count('MAIL_RATE_LIMIT_PER_EMAIL', 5),
    perClient: count('MAIL_RATE_LIMIT_PER_CLIENT', 20),
    windowSeconds: duration('MAIL_RATE_LIMIT_WINDOW', 3600),
  };

  const absoluteUrl = (name: string, fallback: string): string => {
    const raw = value(name) ?? fallback;
    if (!isHttpUrl(raw)) problems.push(`${name} must be an absolute http(s) URL, got "${raw}"`);
    return raw;
  };
  const signinHost = (value('PROVIDER_SIGNIN_HOST') ?? 'signin.example.com').toLowerCase();
  if (!/^[a-z0-9.-]+(:\d+)?$/.test(signinHost)) problems.push(`PROVIDER_SIGNIN_HOST must be a host name (optionally with a port), got "${signinHost}"`);
  const serviceLinks: ServiceLinkExceptions = Object.freeze({
    learningCheckAdminUrl: absoluteUrl('LEARNING_CHECK_ADMIN_URL', 'https://admin.hodai.example.com/learning-check'),
    samlIdpUrl: absoluteUrl('PROVIDER_SAML_IDP_URL', 'https://saml.example.com/'),
    signinHost,
    signinOverHttp: demo,
  });

  const seed = value('SEED') ?? 'demo';
  const demoLearners = value('DEMO_LEARNERS') === '0' ? 0 : count('DEMO_LEARNERS', 0);
  if (demoLearners > 100_000) problems.push(`DEMO_LEARNERS must be at most 100000, got "${env.DEMO_LEARNERS}"`);
  if (!(SEED_MODES as readonly string[]).includes(seed)) problems.push(`SEED must be one of ${SEED_MODES.join(', ')}, got "${seed}"`);

  const logLevel = value('LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const trustProxy = parseTrustProxy(value('TRUST_PROXY') ?? 'false');
  if (trustProxy === undefined) problems.push(`TRUST_PROXY must be false, a number of hops or comma-separated proxy addresses/CIDRs, got "${env.TRUST_PROXY}"`);
  else if (trustProxy === true && !demo) {
    problems.push('TRUST_PROXY=true trusts X-Forwarded-For/Host from any client and is refused outside demo mode: give the number of proxy hops or the proxies\' addresses');
  }

  const seconds = (name: string, fallback: number, min = 1): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      problems.push(`${name} must be an integer of at least ${min}, got "${env[name]}"`);
      return fallback;
    }
    return Number(raw);
  };
  const accessTokenTtl = seconds('ACCESS_TOKEN_TTL', 900, 10);
  const refreshTokenTtl = seconds('REFRESH_TOKEN_TTL', 14 * 24 * 60 * 60, 60);
  const reauthWindow = seconds('REAUTH_WINDOW', 600);
  const singleSignOnTokenTtl = seconds('SINGLE_SIGN_ON_TOKEN_TTL', MAX_TOKEN_TTL_SECONDS);
  if (singleSignOnTokenTtl > MAX_TOKEN_TTL_SECONDS) problems.push(`SINGLE_SIGN_ON_TOKEN_TTL must not exceed ${MAX_TOKEN_TTL_SECONDS} seconds, got "${env.SINGLE_SIGN_ON_TOKEN_TTL}"`);
  const listCacheMb = seconds('LIST_CACHE_MB', 32, 0);
  const sessionIdleTimeout = seconds('SESSION_IDLE_TIMEOUT', 30 * 60);
  const sessionMaxAge = seconds('SESSION_MAX_AGE', 12 * 60 * 60);
  if (sessionIdleTimeout > sessionMaxAge) problems.push(`SESSION_IDLE_TIMEOUT (${sessionIdleTimeout}) must not exceed SESSION_MAX_AGE (${sessionMaxAge})`);
  const signinThrottle: SigninThrottleConfig = {
    maxAccountFailures: seconds('SIGNIN_MAX_FAILURES', 5),
    maxAddressFailures: seconds('SIGNIN_MAX_ADDRESS_FAILURES', 20),
    lockoutSeconds: seconds('SIGNIN_LOCKOUT', 15 * 60),
    failureDelayMs: seconds('SIGNIN_FAILURE_DELAY_MS', 500, 0),
    maxSecondStepFailures: seconds('SIGNIN_MAX_SECOND_STEP_FAILURES', 10),
    secondStepMaxTries: seconds('SECOND_STEP_MAX_TRIES', 3),
  };
  const passwordHashing: PasswordHashing = {
    memoryKib: seconds('PASSWORD_HASH_MEMORY_KIB', DEFAULT_PASSWORD_HASHING.memoryKib, MIN_PASSWORD_HASH_MEMORY_KIB),
    passes: seconds('PASSWORD_HASH_PASSES', DEFAULT_PASSWORD_HASHING.passes),
    parallelism: seconds('PASSWORD_HASH_PARALLELISM', DEFAULT_PASSWORD_HASHING.parallelism),
  };
  if (passwordHashing.memoryKib * passwordHashing.passes < MIN_PASSWORD_HASH_WORK) {
    problems.push(`PASSWORD_HASH_MEMORY_KIB × PASSWORD_HASH_PASSES must be at least ${MIN_PASSWORD_HASH_WORK} (OWASP: 7168 KiB × 5 passes, 19456 × 2, 47104 × 1), got ${passwordHashing.memoryKib} × ${passwordHashing.passes}`);
  }
  const cookieKeys = value('COOKIE_KEYS')
    ?.split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (cookieKeys?.some((key) => key.length < 32)) problems.push('COOKIE_KEYS must be a comma-separated list of keys of at least 32 characters');
  const secretKeys = (value('SECRET_KEY') ?? value('TWO_STEP_SECRET_KEY'))
    ?.split(',')
    .map((key) => Buffer.from(key.trim(), 'base64'));
  if (secretKeys?.some((key) => key.length !== 32)) problems.push('SECRET_KEY must be 32-byte keys in base64, comma-separated, newest first (openssl rand -base64 32)');
  // a key kept in the database beside the secrets it seals protects nothing against a copy of the database (issue 44 finding 4)
  else if (!secretKeys && !demo) problems.push('SECRET_KEY is required outside demo mode: the secrets kept at rest (authenticator apps, single-sign-on clients, webhooks) are encrypted with it (openssl rand -base64 32)');
  const twoStepEnrolmentTtl = duration('TWO_STEP_ENROLMENT_TTL', 30 * 60);

  const deadlineReminders: DeadlineRemindersConfig = {
    businessDays: count('DEADLINE_REMINDER_BUSINESS_DAYS', 3),
    intervalSeconds: duration('DEADLINE_REMINDER_INTERVAL', 3600),
  };
  if (deadlineReminders.businessDays > 20) problems.push(`DEADLINE_REMINDER_BUSINESS_DAYS must be at most 20, got "${env.DEADLINE_REMINDER_BUSINESS_DAYS}"`);
  const retention: RetentionConfig = {
    intervalSeconds: duration('RETENTION_INTERVAL', 10 * 60),
    tokenSeconds: duration('TOKEN_RETENTION', 30 * 86400),
    outboxSeconds: duration('OUTBOX_RETENTION', 14 * 86400),
    failedMailSeconds: duration('FAILED_MAIL_RETENTION', 30 * 86400),
    registrationRequestSeconds: duration('REGISTRATION_REQUEST_RETENTION', 365 * 86400),
    auditSeconds: duration('AUDIT_RETENTION', 400 * 86400),
  };
  const pgliteUpkeepIntervalSeconds = duration('PGLITE_UPKEEP_INTERVAL', 60);
  const usersCsvMaxBytes = count('USERS_CSV_MAX_BYTES', 10 * 1024 * 1024);
  const usersBulkUpdateMaxBytes = count('USERS_BULK_UPDATE_MAX_BYTES', 32 * 1024 * 1024);
  const csvExportMaxRows = count('CSV_EXPORT_MAX_ROWS', 1_000_000);
  const shutdownTimeout = duration('SHUTDOWN_TIMEOUT', 5);
  const listenDatabaseUrl = value('LISTEN_DATABASE_URL');
  if (listenDatabaseUrl !== undefined && !isPostgresUrl(listenDatabaseUrl)) problems.push(`LISTEN_DATABASE_URL must be a postgres:// or postgresql:// URL, got "${redactUrl(listenDatabaseUrl)}"`);
  else if (listenDatabaseUrl !== undefined && (databaseUrl === undefined || !isPostgresUrl(databaseUrl))) problems.push('LISTEN_DATABASE_URL needs DATABASE_URL (PostgreSQL): the embedded database has no listening connection');
  const notifications: NotificationsConfig = {
    listenDatabaseUrl,
    heartbeatIntervalSeconds: Math.max(1, duration('LISTEN_HEARTBEAT_INTERVAL', 5)),
    tokenValidityMaxAgeSeconds: Math.max(1, duration('TOKEN_VALIDITY_MAX_AGE', 30)),
  };
  const subscriptions: SubscriptionsConfig = { enlargementDays: count('SUBSCRIPTION_ENLARGEMENT_DAYS', 7), overlapMonths: count('SUBSCRIPTION_OVERLAP_MONTHS', 12) };
  const metricsToken = value('METRICS_TOKEN');
  if (metricsToken !== undefined && metricsToken.length < 32) problems.push('METRICS_TOKEN must be at least 32 characters long');

  const ifMatchRequired = value('IF_MATCH_REQUIRED') ?? 'off';
  if (ifMatchRequired !== 'on' && ifMatchRequired !== 'off') problems.push(`IF_MATCH_REQUIRED must be on or off, got "${ifMatchRequired}"`);
  const apiDocs = value('API_DOCS') ?? (demo ? 'on' : 'off');
  if (apiDocs !== 'on' && apiDocs !== 'off') problems.push(`API_DOCS must be on or off, got "${apiDocs}"`);
  const signingKeys = parseSigningKeys(value('IDP_SIGNING_KEYS'), cwd, problems);
  const sso = Object.freeze({
    ...parseSso(value('DNS_SERVERS'), value('SSO_FREE_MAIL_DOMAINS'), value('SSO_MFA_CONTEXTS'), value('SSO_ALLOW_PRIVATE_ADDRESSES'), problems),
    certificateJobIntervalSeconds: duration('SSO_CERTIFICATE_JOB_INTERVAL', 3600),
  });

  const apiClients: ApiClientsConfig = {
    ratePerSecond: count('API_CLIENT_RATE_LIMIT', 10),
    burst: count('API_CLIENT_RATE_BURST', 50),
    secretOverlapSeconds: duration('API_CLIENT_SECRET_OVERLAP', 24 * 3600),
  };

  const announcementPageUrl = value('ANNOUNCEMENT_PAGE_URL') ?? '/announcements';
  if (!isHttpUrl(announcementPageUrl) && !/^\/(?!\/)/.test(announcementPageUrl)) {
    problems.push(`ANNOUNCEMENT_PAGE_URL must be an absolute http(s) URL or a path starting with /, got "${announcementPageUrl}"`);
  }
  const supportChat = parseSupportChat(value('SUPPORT_CHAT_SCRIPT_URL'), value('SUPPORT_CHAT_KEY_JA'), value('SUPPORT_CHAT_KEY_EN'), demo, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  const nodeEnv = value('NODE_ENV');
  return Object.freeze({
    port: port!,
    host: value('HOST') ?? (demo && demoSetting === undefined ? 'localhost' : '0.0.0.0'),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir: path.resolve(cwd, value('DATA_DIR') ?? './data'),
    databaseUrl,
    notifications: Object.freeze(notifications),
    smtpUrl,
    mailFrom,
    registrationNotifyTo: Object.freeze(registrationNotifyTo) as string[],
    captcha: captcha as CaptchaMode,
    captchaSecret,
    captchaCost,
    activationTokenTtl,
    passwordResetTokenTtl,
    listCacheMb,
    mailRateLimit: Object.freeze(mailRateLimit),
    seed: seed as SeedMode,
    demoLearners,
    nodeEnv,
    isProduction,
    demo,
    apiDocs: apiDocs === 'on',
    ifMatchRequired: ifMatchRequired === 'on',
    logLevel: logLevel as LogLevel,
    distDir: path.resolve(cwd, value('DIST_DIR') ?? './dist'),
    trustProxy: trustProxy!,
    usersCsvMaxBytes,
    usersBulkUpdateMaxBytes,
    csvExportMaxRows,
    shutdownTimeout,
    subscriptions: Object.freeze(subscriptions),
    accessTokenTtl,
    refreshTokenTtl,
    reauthWindow,
    singleSignOnTokenTtl,
    sessionIdleTimeout,
    sessionMaxAge,
    cookieKeys: cookieKeys && cookieKeys.length > 0 ? cookieKeys : undefined,
    secretKeys,
    twoStepEnrolmentTtl,
    signingKeys,
    signinThrottle: Object.freeze(signinThrottle),
    passwordHashing: Object.freeze(passwordHashing),
    announcementPageUrl,
    supportChat,
    serviceLinks,
    retention: Object.freeze(retention),
    pgliteUpkeepIntervalSeconds,
    deadlineReminders: Object.freeze(deadlineReminders),
    metricsToken,
    sso,
    apiClients: Object.freeze(apiClients),
  });
}

/** DNS_SERVERS (each an IP address, optionally with a port; IPv6 with one in brackets), SSO_FREE_MAIL_DOMAINS, SSO_MFA_CONTEXTS, SSO_ALLOW_PRIVATE_ADDRESSES. */
function parseSso(dnsServers: string | undefined, freeMail: string | undefined, mfa: string | undefined, allowPrivate: string | undefined, problems: string[]): Omit<SsoConfig, 'certificateJobIntervalSeconds'> {
  const servers = dnsServers?.split(',').map((entry) => entry.trim());
  if (servers?.some((entry) => !isDnsServer(entry))) problems.push(`DNS_SERVERS must be comma-separated IP addresses, each optionally with a port (192.0.2.53:53, [2001:db8::53]:53), got "${dnsServers}"`);
  const domains = freeMail?.split(',').map((entry) => entry.trim().toLowerCase()).filter(Boolean);
  if (domains?.some((domain) => !/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain))) problems.push(`SSO_FREE_MAIL_DOMAINS must be comma-separated domain names, got "${freeMail}"`);
  const mfaContexts = mfa?.split(',').map((entry) => entry.trim()).filter(Boolean);
  if (mfa !== undefined && (!mfaContexts?.length || mfaContexts.some((entry) => !/^[a-z][a-z0-9+.-]*:\S+$/i.test(entry)))) problems.push(`SSO_MFA_CONTEXTS must be comma-separated URIs (AuthnContextClassRef values), got "${mfa}"`);
  if (allowPrivate !== undefined && allowPrivate !== 'on' && allowPrivate !== 'off') problems.push(`SSO_ALLOW_PRIVATE_ADDRESSES must be on or off, got "${allowPrivate}"`);
  return Object.freeze({
    dnsServers: servers && Object.freeze(servers),
    freeMailDomains: Object.freeze(domains ?? DEFAULT_FREE_MAIL_DOMAINS),
    mfaContexts: Object.freeze(mfaContexts ?? DEFAULT_MFA_CONTEXTS),
    allowPrivateAddresses: allowPrivate === 'on',
  });
}

/** An address Node's dns Resolver.setServers takes: 192.0.2.53, 192.0.2.53:5353, 2001:db8::53, [2001:db8::53]:5353. */
function isDnsServer(entry: string): boolean {
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry) ?? /^([\d.]+):(\d+)$/.exec(entry) ?? [entry, entry, undefined];
  const [, address, port] = match;
  return net.isIP(address ?? '') !== 0 && (port === undefined || (/^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535));
}

/**
 * SUPPORT_CHAT_SCRIPT_URL (https; http only in demo mode, for a local stand-in) with SUPPORT_CHAT_KEY_JA (required with
 * it) and SUPPORT_CHAT_KEY_EN (default: ja's key). A key without the script URL is refused: it would silently do nothing.
 */
function parseSupportChat(scriptUrl: string | undefined, keyJa: string | undefined, keyEn: string | undefined, demo: boolean, problems: string[]): SupportChatConfig | undefined {
  if (scriptUrl === undefined) {
    if (keyJa !== undefined || keyEn !== undefined) problems.push('SUPPORT_CHAT_KEY_JA/SUPPORT_CHAT_KEY_EN are set but SUPPORT_CHAT_SCRIPT_URL is not');
    return undefined;
  }
  let url: URL | undefined;
  try {
    url = new URL(scriptUrl);
  } catch {
    url = undefined;
  }
  if (!url || !(url.protocol === 'https:' || (demo && url.protocol === 'http:')) || url.username || url.password) {
    problems.push(`SUPPORT_CHAT_SCRIPT_URL must be an absolute https URL (http only in demo mode) without credentials, got "${redactUrl(scriptUrl)}"`);
    return undefined;
  }
  if (keyJa === undefined) {
    problems.push('SUPPORT_CHAT_KEY_JA is required with SUPPORT_CHAT_SCRIPT_URL');
    return undefined;
  }
  return Object.freeze({ scriptUrl: url.href, origin: url.origin, keys: Object.freeze({ ja: keyJa, en: keyEn ?? keyJa }) });
}

/**
 * IDP_SIGNING_KEYS: a JWKS (`{"keys": […]}` or an array) as the value, or `@path` of a file holding it (relative to
 * the working directory). Private RSA keys with distinct kids; at least one that may sign.
 */
function parseSigningKeys(raw: string | undefined, cwd: string, problems: string[]): SigningJwk[] | undefined {
  if (raw === undefined) return undefined;
  const fail = (why: string) => (problems.push(`IDP_SIGNING_KEYS ${why}`), undefined);
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = readFileSync(path.resolve(cwd, raw.slice(1)), 'utf8');
    } catch (error) {
      return fail(`names a file that cannot be read: ${(error as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('must be a JWKS in JSON ({"keys": [...]}) or @path of a file holding one');
  }
  const keys: unknown = Array.isArray(parsed) ? parsed : (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) return fail('must hold at least one key');
  const kids = new Set<string>();
  for (const key of keys as Array<Record<string, unknown>>) {
    if (typeof key !== 'object' || key === null || key.kty !== 'RSA' || typeof key.d !== 'string') return fail('keys must be private RSA keys (kty RSA with d)');
    if (typeof key.kid !== 'string' || key.kid === '' || kids.has(key.kid)) return fail('keys must each have a kid of their own');
    if ((key.alg ?? 'RS256') !== 'RS256' || (key.use ?? 'sig') !== 'sig') return fail('keys must be for RS256 signatures (alg RS256, use sig)');
    if (key.key_ops !== undefined && !(Array.isArray(key.key_ops) && key.key_ops.every((op) => op === 'sign' || op === 'verify'))) {
      return fail('key_ops may only list "sign" and "verify"');
    }
    kids.add(key.kid);
  }
  const signing = (keys as SigningJwk[]).map((key) => ({ ...key, alg: 'RS256' as const, use: 'sig' as const }));
  if (!signing.some(canSign)) return fail('needs a key that may sign (not every key can be key_ops ["verify"])');
  return Object.freeze(signing) as SigningJwk[];
}

/** Whether the provider may sign with the key (a key_ops without "sign" publishes it for verification only). */
export function canSign(key: Record<string, unknown>): boolean {
  return !Array.isArray(key.key_ops) || key.key_ops.includes('sign');
}

/** '3600' and '3600s' → 3600; '30m', '72h', '7d' likewise in seconds; anything else (or 0) → undefined. */
export function parseDuration(raw: string): number | undefined {
  const match = /^(\d+)\s*(s|m|h|d)?$/.exec(raw.trim());
  if (!match) return undefined;
  const seconds = Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(match[2] ?? 's') as 's' | 'm' | 'h' | 'd'];
  return seconds > 0 ? seconds : undefined;
}

function hostOf(raw: string): string | undefined {
  try {
    return new URL(raw).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** localhost, 127.0.0.0/8 or ::1: a portal only this machine reaches. */
function isLoopbackUrl(raw: string): boolean {
  const host = hostOf(raw)?.toLowerCase();
  if (host === undefined) return false;
  if (host === 'localhost' || host === '[::1]') return true;
  return net.isIPv4(host) && host.startsWith('127.');
}

function parsePort(raw: string): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const port = Number(raw);
  return port <= 65535 ? port : undefined;
}

const PROXY_ADDRESS_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

function parseTrustProxy(raw: string): TrustProxy | undefined {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  return entries.every(isProxyAddress) ? entries : undefined;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

function isPostgresUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Hides a password in a URL before it reaches an error message or a log. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return raw.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
