/** Liveness and readiness (DESIGN §4): /healthz while the process is up, /readyz while the database answers. */
import type { FastifyPluginAsync } from 'fastify';
import type { LevelWithSilent, Logger } from 'pino';
import { TAG } from './openapi.js';

const statusResponse = { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] } as const;

export const healthRoutes: FastifyPluginAsync = async (app) => {
  // Probes come every few seconds: log their requests only at warn and above (or quieter, if configured).
  const logger = app.log as Logger;
  const logLevel = (logger.levelVal >= 40 ? logger.level : 'warn') as LevelWithSilent;
  app.get('/healthz', { schema: { tags: [TAG.health], summary: 'The process is up', response: { 200: statusResponse } }, logLevel }, async () => ({
    status: 'ok',
  }));

  app.get(
    '/readyz',
    { schema: { tags: [TAG.health], summary: 'The database answers', response: { 200: statusResponse, 503: statusResponse } }, logLevel },
    async (request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ok' };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );
};
