/**
 * Issue 20's first-load budget: a production build (into a temporary folder) whose initial JavaScript and default
 * language's words, gzip -9, stay within FIRST_LOAD_BUDGET_KB; a failure prints each file and the biggest modules.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack from 'webpack';
import { describeFirstLoad, FIRST_LOAD_BUDGET_KB, measureFirstLoad } from '../../scripts/firstLoad.js';
import { generate } from '../../scripts/generate.js';
import { webpackConfig } from '../../webpack.config.js';

function buildInto(outputPath: string): Promise<webpack.Stats> {
  const config = webpackConfig('production');
  return new Promise((resolve, reject) => {
    webpack({ ...config, devtool: false, output: { ...config.output, path: outputPath } }, (error, stats) => {
      if (error || !stats || stats.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only') ?? 'webpack failed'));
      else resolve(stats);
    });
  });
}

describe('first load (issue 20): the JavaScript of a first visit, the language words included', function () {
  this.timeout(300_000);
  this.retries(0);
  let outputPath: string;

  before(() => {
    generate();
    outputPath = mkdtempSync(path.join(tmpdir(), 'first-load-'));
  });
  after(() => rmSync(outputPath, { recursive: true, force: true }));

  it(`stays within ${FIRST_LOAD_BUDGET_KB} KB gzip -9, no screen's conditions or definitions in it`, async () => {
    const load = measureFirstLoad(await buildInto(outputPath));
    const report = describeFirstLoad(load);
    expect(load.bytes / 1024, report).to.be.at.most(FIRST_LOAD_BUDGET_KB);
    const names = load.modules.map((module) => module.name);
    // The lazy context module (the map from a screen id to its chunk) belongs in the first load; the screens do not.
    const definitions = names.filter((name) => /generated\/(screens\.json|screens\/|fragments\.json)/.test(name) && !name.includes(' lazy '));
    expect(definitions, report).to.deep.equal([]);
    expect(names, report).to.not.include('moment');
  });

  it('writes a brotli and a gzip sibling of index.html and every script (issue 26: served as the browser accepts)', () => {
    const main = readdirSync(path.join(outputPath, 'assets')).find((file) => /^main\.[0-9a-f]+\.js$/.test(file));
    for (const file of ['index.html', `assets/${main}`]) {
      const original = readFileSync(path.join(outputPath, file));
      expect(zlib.brotliDecompressSync(readFileSync(path.join(outputPath, `${file}.br`))).equals(original), `${file}.br`).to.equal(true);
      expect(zlib.gunzipSync(readFileSync(path.join(outputPath, `${file}.gz`))).equals(original), `${file}.gz`).to.equal(true);
    }
    expect(existsSync(path.join(outputPath, `assets/${main}.map.br`)), 'source maps stay plain').to.equal(false);
  });
});
