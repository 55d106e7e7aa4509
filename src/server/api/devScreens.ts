/**
 * The screen gallery at /dev/screens (issue 8 §1), for product staff: a page of the single-page app, so this route
 * only sends index.html. Paths under /dev are server paths, which the SPA fallback never answers with index.html
 * (browserBuild.ts), so without this route — in production, where app.ts does not register it — /dev/screens is 404.
 */
import type { FastifyPluginAsync } from 'fastify';
import { sendIndexHtml } from '../browserBuild.js';

export const DEV_SCREENS_PATH = '/dev/screens';

export const devScreensRoutes: FastifyPluginAsync = async (app) => {
  app.get(DEV_SCREENS_PATH, { schema: { hide: true } }, async (_request, reply) => sendIndexHtml(reply, app.config.distDir));
};
