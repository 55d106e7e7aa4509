/**
 * `npm run dev`: rebuilds on change. webpack watches the client code, the configuration files are regenerated when
 * schemas/, screens/ or locales/ change, and the server restarts when its code changes (tsx watch).
 */
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import path from 'node:path';
import webpack from 'webpack';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { webpackConfig } from '../webpack.config.js';
import { generate } from './generate.js';

generate();
for (const dir of ['schemas', 'screens', 'locales']) {
  watch(path.join(PROJECT_ROOT, dir), { recursive: true }, () => {
    try {
      generate();
    } catch (error) {
      console.error(`configuration: ${(error as Error).message}`);
    }
  });
}

webpack(webpackConfig('development')).watch({}, (error, stats) => {
  if (error) console.error(error);
  else console.log(stats?.toString({ colors: true, modules: false, assets: false, children: false }));
});

const server = spawn('npx', ['tsx', 'watch', '--include', 'schemas/**', 'src/server/main.ts'], { stdio: 'inherit', env: process.env });
process.on('SIGINT', () => {
  server.kill('SIGINT');
  process.exit(0);
});
