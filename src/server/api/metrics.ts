/**
 * GET /metrics: the Prometheus text format (issue 11), never public outside demo mode.
 * - METRICS_TOKEN set: only with `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise), in demo mode too;
 * - unset: open in demo mode (a laptop), and 404 outside it (as if there were no such page).
 * Not an admin API: admin access tokens open nothing here. Not in the API document (it is not /api).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { metricsText } from '../metrics.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the Authorization header carries the token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}

export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const { config, metrics } = app;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (config.metricsToken === undefined && !config.demo) return reply.code(404).send({ error: API_ERROR.notFound });
    if (config.metricsToken !== undefined && !bearerMatches(request.headers.authorization, config.metricsToken)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ error: API_ERROR.invalidAccessToken });
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
    return metricsText(metrics);
  });
};
