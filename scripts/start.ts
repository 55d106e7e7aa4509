/**
 * `npm start`: builds what is missing or out of date — the browser bundle (dist/) and the compiled server
 * (build/server/main.js) — then runs the compiled server (in production: `npm run serve`, plain node).
 */
import { pathToFileURL } from 'node:url';
import { browserBuildIsStale } from './browserBuild.js';
import { build } from './build.js';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from './buildServer.js';

if (browserBuildIsStale()) {
  console.log('Building the browser bundle…');
  await build();
}
if (serverBuildIsStale()) {
  console.log('Compiling the server…');
  await buildServer();
}
await import(pathToFileURL(SERVER_MAIN).href);
