/**
 * Recognises the errors that mean "the database cannot be reached" (as opposed to a bad query),
 * so the API can answer 503 maintenance instead of 500.
 */

/** Network errors of the socket to PostgreSQL. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
]);

/** SQLSTATEs that mean the server is going away or not accepting work. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
]);

/** Messages of pg, pg-pool, PGlite and Kysely for a connection that is gone or never came. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /Client was closed/,
  /Cannot use a pool after calling end on the pool/,
  /^PGlite is clos(ed|ing)$/,
  /^PGLite not initialized$/,
  /driver has already been destroyed/,
  /^Database unavailable/,
];

export class DatabaseUnavailableError extends Error {
  constructor(message = 'Database unavailable', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnavailableError';
  }
}

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  if (error instanceof DatabaseUnavailableError) return true;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    // Class 08: connection exception, but protocol_violation (08P01): a statement the server refuses (one with too
    // many parameters, issue 15 finding 1) over a connection that is fine; 503 would call a bad request an outage.
    if (/^08[0-9A-Z]{3}$/.test(code) && code !== '08P01') return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return cause !== undefined && isDatabaseUnavailable(cause, depth + 1);
}
