/**
 * POST /api/v2/client_errors: the browser reports an unexpected error (SPEC §8, "reported to an
 * error-reporting service, strings cut at 1000 characters"). Logged at error level, answered 204.
 * Abuse is bounded three ways: a 16 KiB body limit, the schema's lengths and counts, and caps on how many
 * reports per minute reach the log, per client (an IPv6 /64 counts as one) and for all clients together (the
 * rest are answered 204 and dropped, so a browser stuck in a loop neither floods the log nor sees errors of its own).
 */
import type { FastifyPluginAsync } from 'fastify';
import { REDACTED, reportedLocation } from '../../common/logRedaction.js';
import { TAG } from './openapi.js';

const MAX_STRING = 1000;

interface ClientErrorReport {
  message: string;
  /** Scalars, or an object such as the failed call's response body (the body limit bounds its size). */
  context?: Record<string, unknown>;
}

/**
 * Fixed-window counters per client and for all clients together; bounded in size. Per instance on purpose: it guards
 * this instance's log. The total cap keeps many addresses (a botnet, an IPv6 range) from flooding it (issue 7 finding 12).
 */
export class ReportLimiter {
  private windowStart = 0;
  private total = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly perWindow = 30,
    readonly windowMs = 60_000,
    readonly maxClients = 10_000,
    private readonly now: () => number = Date.now,
    readonly totalPerWindow = 300,
  ) {}

  /**
   * 'log' for a report to log; 'suppress-first' for a client's first one over its limit, 'suppress-total-first' for
   * the first one over the total limit (each worth one warning); 'suppress' after.
   */
  take(client: string): 'log' | 'suppress-first' | 'suppress-total-first' | 'suppress' {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.total = 0;
      this.counts.clear();
    }
    const count = (this.counts.get(client) ?? 0) + 1;
    if (this.counts.size < this.maxClients || this.counts.has(client)) this.counts.set(client, count);
    else return 'suppress'; // too many distinct clients this window: log none of the new ones
    if (count > this.perWindow) return count === this.perWindow + 1 ? 'suppress-first' : 'suppress';
    this.total += 1;
    if (this.total <= this.totalPerWindow) return 'log';
    return this.total === this.totalPerWindow + 1 ? 'suppress-total-first' : 'suppress';
  }
}

/** The client a report is counted for: an IPv4 address, or an IPv6 address's /64 (one subscriber's usual share). */
export function clientGroup(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/)/i;
const SECRET_KEY = /token|password|secret|verifier|authorization|cookie|capy/i;

/**
 * The context as logged (issue 7 finding 4): values under secret-sounding keys are hidden, URLs (a page's location, a
 * failed call's path) lose their query and hash. Recursive: the JSON parser has bounded the depth.
 */
function forLog(value: unknown): unknown {
  if (typeof value === 'string') return URL_LIKE.test(value) ? reportedLocation(value) : value;
  if (Array.isArray(value)) return value.map(forLog);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? REDACTED : forLog(inner)]));
}

/**
 * The sign-in callback's report (SPEC §8) carries the authorisation code, the state and the stored state and nonce:
 * logged only as present or missing, and whether the states match.
 */
function callbackContext(context: Record<string, unknown>): Record<string, unknown> {
  if (!('storedState' in context)) return context;
  const { code, state, storedState, storedNonce, ...rest } = context;
  const present = (value: unknown) => (value === null || value === undefined || value === '' ? null : REDACTED);
  return { ...rest, code: present(code), state: present(state), storedState: present(storedState), storedNonce: present(storedNonce), stateMatches: state === storedState };
}

export const clientErrorsRoutes: FastifyPluginAsync<{ limiter?: ReportLimiter }> = async (app, options) => {
  const limiter = options.limiter ?? new ReportLimiter();
  app.post<{ Body: ClientErrorReport }>(
    '/client_errors',
    {
      bodyLimit: 16 * 1024,
      // the browser's error report goes to the log: nothing stored (issue 21)
      config: { audit: [] },
      schema: {
        tags: [TAG.monitoring],
        summary: 'Report an error seen in the browser',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['message'],
          properties: {
            message: { type: 'string', minLength: 1, maxLength: MAX_STRING },
            context: {
              type: 'object',
              maxProperties: 20,
              propertyNames: { maxLength: 100 },
              additionalProperties: { anyOf: [{ type: ['string', 'number', 'boolean', 'null'], maxLength: MAX_STRING }, { type: 'object' }] },
            },
          },
        },
        response: { 204: { type: 'null', description: 'Received' } },
      },
    },
    async (request, reply) => {
      const client = clientGroup(request.ip);
      const verdict = limiter.take(client);
      if (verdict === 'log') {
        request.log.error({ clientError: { message: request.body.message, context: forLog(callbackContext(request.body.context ?? {})) } }, 'client error report');
      } else if (verdict === 'suppress-first') {
        request.log.warn({ client }, 'client error reports over the limit: dropping the rest of this minute');
      } else if (verdict === 'suppress-total-first') {
        request.log.warn('client error reports of all clients over the limit: dropping the rest of this minute');
      }
      return reply.code(204).send();
    },
  );
};
