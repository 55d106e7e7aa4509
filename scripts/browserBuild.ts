/** Whether the browser build in dist/ is missing or older than what it is built from. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import type { Compression } from '../webpack.config.js';

const SOURCES = ['src/client', 'src/common', 'schemas', 'screens', 'locales', 'webpack.config.ts', 'package-lock.json'];

export function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newestChange(path.join(target, name))));
}

/**
 * build.ts notes in dist/ how it compressed the build; any other webpack run (`npm run dev`) removes the note with
 * the rest of dist/ (output.clean). Not served: @fastify/static ignores dot files.
 */
export const COMPRESSION_NOTE = '.compression';

export function builtCompression(root = PROJECT_ROOT): Compression | undefined {
  const note = path.join(root, 'dist', COMPRESSION_NOTE);
  if (!existsSync(note)) return undefined;
  const compression = readFileSync(note, 'utf8').trim();
  return compression === 'best' || compression === 'quick' ? compression : undefined;
}

/**
 * `wanted` 'best' (the tests, the benches): `npm start`'s quick build counts as stale too, so that sizes and
 * transfers are measured on what production serves; 'quick' (`npm start`): any up-to-date build will do.
 */
export function browserBuildIsStale(root = PROJECT_ROOT, wanted: Compression = 'best'): boolean {
  const index = path.join(root, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  if (wanted === 'best' && builtCompression(root) === 'quick') return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestChange(path.join(root, source)) > built);
}
