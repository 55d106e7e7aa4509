/** Whether the browser build in dist/ is missing or older than what it is built from. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/configuration/load.js';

const SOURCES = ['src/client', 'src/common', 'schemas', 'screens', 'locales', 'webpack.config.ts', 'package-lock.json'];

export function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stats = statSync(target);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(target).map((name) => newestChange(path.join(target, name))));
}

export function browserBuildIsStale(root = PROJECT_ROOT): boolean {
  const index = path.join(root, 'dist', 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestChange(path.join(root, source)) > built);
}
