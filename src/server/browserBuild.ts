/**
 * Serves the browser build (DIST_DIR): hashed assets under /assets/ with a year-long immutable cache,
 * other files and index.html with no-cache, and index.html for every HTML navigation the server has
 * no route for (the single-page app's routes). Everything is looked up per request, so a build made
 * after the server started is picked up, and a missing build answers 503 instead of crashing. Every file goes out as
 * the brotli or gzip sibling the build wrote beside it when the browser accepts one (issue 26), `Vary:
 * Accept-Encoding` either way.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const MISSING_BUILD_MESSAGE = 'The browser build is missing: run npm run build';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/**
 * Paths that belong to the server, never to the single-page app. The app's one page under /dev, the screen gallery
 * /dev/screens, has a route of its own outside production (api/devScreens.ts) and is 404 in production.
 */
const SERVER_PATHS = /^\/(?:(?:api|oidc|dev)(?:\/|$)|(?:healthz|readyz)\/?$)/;

export async function registerBrowserBuild(app: FastifyInstance, distDir: string): Promise<void> {
  const assetsDir = path.join(distDir, 'assets') + path.sep;
  await app.register(fastifyStatic, {
    root: distDir,
    prefix: '/',
    wildcard: true, // look files up per request (a later build is served without a restart)
    index: false, // "/" is the app's route: the SPA fallback serves index.html
    cacheControl: false,
    etag: true,
    lastModified: true,
    dotfiles: 'ignore',
    serveDotFiles: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      reply.header('cache-control', filePath.startsWith(assetsDir) ? IMMUTABLE : NO_CACHE);
    },
    // Server paths get the API's JSON 404, and directories ("/", "/assets/") the SPA fallback,
    // not a file: both go to the not-found handler.
    allowedPath: (pathName) => !SERVER_PATHS.test(pathName) && !pathName.endsWith('/'),
  });
}

/** True for a GET/HEAD navigation that accepts HTML and is not a server path. */
export function isAppNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0]!;
  if (SERVER_PATHS.test(pathname)) return false;
  const accept = request.headers.accept ?? '';
  return /\btext\/html\b|\bapplication\/xhtml\+xml\b/.test(accept);
}

/** Sends dist/index.html (never cached, so a new build takes effect at once; compressed as above), or 503 without a build. */
export async function sendIndexHtml(reply: FastifyReply, distDir: string): Promise<FastifyReply> {
  try {
    await access(path.join(distDir, 'index.html'));
  } catch {
    return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(MISSING_BUILD_MESSAGE);
  }
  return reply.code(200).sendFile('index.html', distDir);
}
