/**
 * `npm start`: builds what is missing or out of date — the browser bundle (dist/) and the compiled server
 * (build/server/main.js) — then runs the compiled server (in production: `npm run build`, then `npm run serve`, plain
 * node). Its browser build is 'quick' (brotli at quality 5, not 11: a fresh clone serves within a minute, issue 48);
 * any up-to-date build will do, `npm run build`'s too.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { browserBuildIsStale } from './browserBuild.js';
import { buildServer, SERVER_MAIN, serverBuildIsStale } from './buildServer.js';

/**
 * The browser build runs in a process of its own, without the portal's heap limits (PORTAL_HEAP_MB, 512 MB by default):
 * under them webpack spent about a third more CPU collecting garbage (issue 48). Same node, same tsx loader.
 */
function buildBrowserQuick(): void {
  const loader = process.execArgv.filter((flag) => !/^--max-(?:old|semi)-space-size=/.test(flag));
  const build = new URL('./build.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(build)}).then((b) => b.build('production', 'quick')).catch((error) => { console.error(error); process.exit(1); });`;
  const { status } = spawnSync(process.execPath, [...loader, '--eval', code], { stdio: 'inherit' });
  if (status !== 0) {
    console.error('The browser build failed (above).');
    process.exit(1);
  }
}

if (browserBuildIsStale(undefined, 'quick')) {
  console.log('Building the browser bundle…');
  buildBrowserQuick();
}
if (serverBuildIsStale()) {
  console.log('Compiling the server…');
  await buildServer();
}
await import(pathToFileURL(SERVER_MAIN).href);
