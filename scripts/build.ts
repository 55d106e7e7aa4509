/**
 * `npm run build`: generates the configuration modules, runs webpack (dist/), then compiles the server (build/server).
 * Its brotli siblings at the highest quality ('best'); `npm start` builds 'quick' (webpack.config.ts, issue 48).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpack from 'webpack';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { COMPRESSION_NOTE } from './browserBuild.js';
import { buildServer } from './buildServer.js';
import { FIRST_LOAD_FILE, measureFirstLoad } from './firstLoad.js';
import { generate } from './generate.js';
import { webpackConfig, type Compression } from '../webpack.config.js';

export function build(mode: 'production' | 'development' = 'production', compression: Compression = 'best'): Promise<webpack.Stats> {
  generate();
  return new Promise((resolve, reject) => {
    webpack(webpackConfig(mode, compression), (error, stats) => {
      if (error) return reject(error);
      if (!stats || stats.hasErrors()) return reject(new Error(stats?.toString('errors-only') ?? 'webpack failed'));
      // webpack leaves a file it would write unchanged as it was: the stale check (browserBuild.ts) reads this time
      const now = new Date();
      utimesSync(path.join(PROJECT_ROOT, 'dist', 'index.html'), now, now);
      if (mode === 'production') {
        writeFileSync(path.join(PROJECT_ROOT, 'dist', COMPRESSION_NOTE), compression);
        mkdirSync(path.dirname(FIRST_LOAD_FILE), { recursive: true });
        writeFileSync(FIRST_LOAD_FILE, JSON.stringify(measureFirstLoad(stats)));
      }
      resolve(stats);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stats = await build(process.env.NODE_ENV === 'development' ? 'development' : 'production');
  console.log(stats.toString({ colors: false, modules: false, children: false, chunks: false, assets: true }));
  await buildServer();
  console.log('server compiled: build/server/main.js (run it with `npm run serve` or `node build/server/main.js`)');
}
