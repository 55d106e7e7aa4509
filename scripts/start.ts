/**
 * `npm start`: builds what is missing or out of date — the browser bundle (dist/) and the compiled server
 * (build/server/main.js) — then runs the compiled server (in production: `npm run build`, then `npm run serve`, plain
 * node). Its browser build is 'quick' (brotli at quality 5, not 11: a fresh clone serves within a minute, issue 48);
 * any up-to-date build will do, `npm run build`'s too.
 */
import { pathToFileURL } from 'node:url';
import { browserBuildIsStale } from './browserBuild.js';
import { build } from './build.js';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from './buildServer.js';

if (browserBuildIsStale(undefined, 'quick')) {
  console.log('Building the browser bundle…');
  await build('production', 'quick');
}
if (serverBuildIsStale()) {
  console.log('Compiling the server…');
  await buildServer();
}
await import(pathToFileURL(SERVER_MAIN).href);
