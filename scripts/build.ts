/** `npm run build`: generates the configuration modules, then runs webpack. */
import webpack from 'webpack';
import { generate } from './generate.js';
import { webpackConfig } from '../webpack.config.js';

export function build(mode: 'production' | 'development' = 'production'): Promise<webpack.Stats> {
  generate();
  return new Promise((resolve, reject) => {
    webpack(webpackConfig(mode), (error, stats) => {
      if (error) return reject(error);
      if (!stats || stats.hasErrors()) return reject(new Error(stats?.toString('errors-only') ?? 'webpack failed'));
      resolve(stats);
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stats = await build(process.env.NODE_ENV === 'development' ? 'development' : 'production');
  console.log(stats.toString({ colors: false, modules: false, children: false, chunks: false, assets: true }));
}
