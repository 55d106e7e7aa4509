/**
 * POST /api/v2/client_errors: the browser reports an unexpected error (SPEC §8, "reported to an
 * error-reporting service, strings cut at 1000 characters"). Logged at error level, answered 204.
 * Abuse is bounded three ways: a 16 KiB body limit, the schema's lengths and counts, and a per-client
 * cap on how many reports per minute reach the log (the rest are answered 204 and dropped, so a
 * browser stuck in a loop neither floods the log nor sees errors of its own).
 */
import type { FastifyPluginAsync } from 'fastify';
import { reportedLocation } from '../../common/logRedaction.js';
import { commonResponses, validationErrorResponse } from './schemas.js';

const MAX_STRING = 1000;

interface ClientErrorReport {
  message: string;
  /** Scalars, or an object such as the failed call's response body (the body limit bounds its size). */
  context?: Record<string, unknown>;
}

/** Fixed-window counter per client address; bounded in size. Per instance on purpose: it guards this instance's log. */
export class ReportLimiter {
  private windowStart = 0;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly perWindow = 30,
    readonly windowMs = 60_000,
    readonly maxClients = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** 'log' for a report to log, 'suppress-first' for the first one over the limit, 'suppress' after. */
  take(client: string): 'log' | 'suppress-first' | 'suppress' {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now;
      this.counts.clear();
    }
    const count = (this.counts.get(client) ?? 0) + 1;
    if (this.counts.size < this.maxClients || this.counts.has(client)) this.counts.set(client, count);
    else return 'suppress'; // too many distinct clients this window: log none of the new ones
    if (count <= this.perWindow) return 'log';
    return count === this.perWindow + 1 ? 'suppress-first' : 'suppress';
  }
}

const URL_LIKE = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/)/i;

/** The context as logged: URLs (a page's location, a failed call's path) lose their query and hash (issue 7 finding 4). */
function contextForLog(context: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(context).map(([key, value]) => [key, typeof value === 'string' && URL_LIKE.test(value) ? reportedLocation(value) : value]),
  );
}

export const clientErrorsRoutes: FastifyPluginAsync<{ limiter?: ReportLimiter }> = async (app, options) => {
  const limiter = options.limiter ?? new ReportLimiter();
  app.post<{ Body: ClientErrorReport }>(
    '/client_errors',
    {
      bodyLimit: 16 * 1024,
      schema: {
        tags: ['monitoring'],
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
        response: { 204: { type: 'null', description: 'Received' }, 422: validationErrorResponse, ...commonResponses },
      },
    },
    async (request, reply) => {
      const verdict = limiter.take(request.ip);
      if (verdict === 'log') {
        request.log.error({ clientError: { message: request.body.message, context: contextForLog(request.body.context ?? {}) } }, 'client error report');
      } else if (verdict === 'suppress-first') {
        request.log.warn({ client: request.ip }, 'client error reports over the limit: dropping the rest of this minute');
      }
      return reply.code(204).send();
    },
  );
};
