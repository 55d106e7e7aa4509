/**
 * Every environment setting of the server, read and validated once (DESIGN §4, the runtime contract).
 * `loadConfig(env)` never reads process.env itself, so tests pass their own overrides.
 */
import path from 'node:path';

export const SEED_MODES = ['demo', 'none'] as const;
export type SeedMode = (typeof SEED_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `memory://` runs PGlite in memory (tests); unset runs PGlite in DATA_DIR/pgdata. */
export const MEMORY_DATABASE_URL = 'memory://';

export interface Config {
  port: number;
  /** Interface to listen on. */
  host: string;
  /** Base of links in mails and of the issuer, without a trailing slash. */
  publicUrl: string;
  /** Absolute path of the embedded data (PGlite, generated keys). */
  dataDir: string;
  /** `postgres://…` for PostgreSQL, `memory://` for an in-memory PGlite, undefined for PGlite in dataDir. */
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  seed: SeedMode;
  nodeEnv: string | undefined;
  isProduction: boolean;
  logLevel: LogLevel;
  /** Absolute path of the browser build (index.html and assets/). */
  distDir: string;
  /** Fastify's trustProxy: false, true, or the number of proxy hops to trust. */
  trustProxy: boolean | number;
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

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl !== undefined && databaseUrl !== MEMORY_DATABASE_URL && !isPostgresUrl(databaseUrl)) {
    problems.push(`DATABASE_URL must be a postgres:// or postgresql:// URL (or ${MEMORY_DATABASE_URL}), got "${redactUrl(databaseUrl)}"`);
  }

  const smtpUrl = value('SMTP_URL');
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^/]+/.test(smtpUrl)) {
    problems.push(`SMTP_URL must be an smtp:// or smtps:// URL, got "${redactUrl(smtpUrl)}"`);
  }

  const seed = value('SEED') ?? 'demo';
  if (!(SEED_MODES as readonly string[]).includes(seed)) problems.push(`SEED must be one of ${SEED_MODES.join(', ')}, got "${seed}"`);

  const logLevel = value('LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);

  const trustProxy = parseTrustProxy(value('TRUST_PROXY') ?? 'false');
  if (trustProxy === undefined) problems.push(`TRUST_PROXY must be true, false or a number of hops, got "${env.TRUST_PROXY}"`);

  if (problems.length > 0) throw new ConfigError(problems);

  const nodeEnv = value('NODE_ENV');
  return Object.freeze({
    port: port!,
    host: value('HOST') ?? '0.0.0.0',
    publicUrl: publicUrl.replace(/\/+$/, ''),
    dataDir: path.resolve(cwd, value('DATA_DIR') ?? './data'),
    databaseUrl,
    smtpUrl,
    seed: seed as SeedMode,
    nodeEnv,
    isProduction: nodeEnv === 'production',
    logLevel: logLevel as LogLevel,
    distDir: path.resolve(cwd, value('DIST_DIR') ?? './dist'),
    trustProxy: trustProxy!,
  });
}

function parsePort(raw: string): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const port = Number(raw);
  return port <= 65535 ? port : undefined;
}

function parseTrustProxy(raw: string): boolean | number | undefined {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
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
