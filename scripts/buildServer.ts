/**
 * The compiled server (issue 11): src/server/main.ts and everything it imports from src/ in one ES module,
 * build/server/main.js, run with plain `node` in production (no tsx, no TypeScript at run time). Packages stay
 * imports of node_modules. The file sits two levels below the project, as src/configuration/load.ts does, so
 * PROJECT_ROOT (locales, schemas read at run time) resolves the same; the provider's page assets are copied beside it.
 */
import { cpSync, existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { newestChange } from './browserBuild.js';

export const SERVER_BUILD_DIR = path.join(PROJECT_ROOT, 'build', 'server');
export const SERVER_MAIN = path.join(SERVER_BUILD_DIR, 'main.js');

/** What the server bundle is built from (locales, schemas and screens are read at run time, not bundled). */
const SOURCES = ['src/server', 'src/common', 'src/configuration', 'package-lock.json', 'scripts/buildServer.ts'];

export function serverBuildIsStale(root = PROJECT_ROOT): boolean {
  const main = path.join(root, 'build', 'server', 'main.js');
  if (!existsSync(main)) return true;
  const built = statSync(main).mtimeMs;
  return SOURCES.some((source) => newestChange(path.join(root, source)) > built);
}

/** Writes build/server/main.js over the old one (never a moment without it: a portal may be starting from it). */
export async function buildServer(): Promise<void> {
  await build({
    // the password-strength worker beside main.js, where api/passwordStrength.ts looks for it
    entryPoints: {
      main: path.join(PROJECT_ROOT, 'src/server/main.ts'),
      'passwordStrength.worker': path.join(PROJECT_ROOT, 'src/server/api/passwordStrength.worker.ts'),
    },
    outdir: SERVER_BUILD_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  // src/server/idp/interactions.ts reads its assets beside the module that runs
  cpSync(path.join(PROJECT_ROOT, 'src/server/idp/assets'), path.join(SERVER_BUILD_DIR, 'assets'), { recursive: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer();
  console.log(`built ${path.relative(process.cwd(), SERVER_MAIN)}`);
}
