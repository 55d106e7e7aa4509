/**
 * Issue 20's first-load budget: the production build's initial JavaScript and default language's words, gzip -9, stay
 * within FIRST_LOAD_BUDGET_KB; a failure prints each file and the biggest modules. The build is the one `npm test`
 * and `npm start` use (dist/), measured as it is built (build/first-load.json); built here only when it is stale.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PROJECT_ROOT } from '../../src/configuration/load.js';
import { browserBuildIsStale } from '../../scripts/browserBuild.js';
import { build } from '../../scripts/build.js';
import { describeFirstLoad, FIRST_LOAD_BUDGET_KB, FIRST_LOAD_FILE, type FirstLoad } from '../../scripts/firstLoad.js';

const DIST = path.join(PROJECT_ROOT, 'dist');
/** The block engine's chunk, brotli: within a new connection's first ten segments, its response's headers beside it. */
const BLOCK_ENGINE_BROTLI_BYTES = 14_000;

/** Whether dist/ holds a production build measured after it was made (a development build leaves no measure). */
const measured = () => existsSync(FIRST_LOAD_FILE) && statSync(FIRST_LOAD_FILE).mtimeMs >= statSync(path.join(DIST, 'index.html')).mtimeMs;

describe('first load (issue 20): the JavaScript of a first visit, the language words included', function () {
  this.timeout(300_000);
  this.retries(0);
  let load: FirstLoad;

  before(async () => {
    if (browserBuildIsStale() || !measured()) await build('production');
    load = JSON.parse(readFileSync(FIRST_LOAD_FILE, 'utf8')) as FirstLoad;
  });

  it(`stays within ${FIRST_LOAD_BUDGET_KB} KB gzip -9, no screen's conditions or definitions in it`, () => {
    const report = describeFirstLoad(load);
    expect(load.bytes / 1024, report).to.be.at.most(FIRST_LOAD_BUDGET_KB);
    const names = load.modules.map((module) => module.name);
    // The lazy context module (the map from a screen id to its chunk) belongs in the first load; the screens do not.
    const definitions = names.filter((name) => /generated\/(screens\.json|screens\/|fragments\.json)/.test(name) && !name.includes(' lazy '));
    expect(definitions, report).to.deep.equal([]);
    expect(names, report).to.not.include('moment');
  });

  it('writes a brotli and a gzip sibling of index.html and every script (issue 26: served as the browser accepts)', () => {
    const main = readdirSync(path.join(DIST, 'assets')).find((file) => /^main\.[0-9a-f]+\.js$/.test(file));
    for (const file of ['index.html', `assets/${main}`]) {
      const original = readFileSync(path.join(DIST, file));
      expect(zlib.brotliDecompressSync(readFileSync(path.join(DIST, `${file}.br`))).equals(original), `${file}.br`).to.equal(true);
      expect(zlib.gunzipSync(readFileSync(path.join(DIST, `${file}.gz`))).equals(original), `${file}.gz`).to.equal(true);
    }
    expect(existsSync(path.join(DIST, `assets/${main}.map.br`)), 'source maps stay plain').to.equal(false);
  });

  it("keeps the block engine's chunk within a new connection's first congestion window, the virtualizer in a chunk of its own (issue 47)", () => {
    // every main page asks for the block engine on a connection of its own: beyond ten segments (~14.6 KB with the
    // headers) it took Lighthouse's slow 4G a round trip more, the last node of most pages' largest paint
    const maps = readdirSync(path.join(DIST, 'assets')).filter((file) => file.endsWith('.js.map'));
    const holding = (source: RegExp) =>
      maps.filter((map) => (JSON.parse(readFileSync(path.join(DIST, 'assets', map), 'utf8')) as { sources: string[] }).sources.some((name) => source.test(name))).map((map) => map.replace(/\.map$/, ''));
    const engine = holding(/engine\/screen\/ScreenView\.tsx$/);
    expect(engine, 'the scripts holding the block engine').to.have.length(1);
    expect(statSync(path.join(DIST, 'assets', `${engine[0]}.br`)).size, `${engine[0]}.br`).to.be.at.most(BLOCK_ENGINE_BROTLI_BYTES);
    expect(holding(/@tanstack\/virtual-core/), 'the virtualizer').to.not.include(engine[0]);
    // the route's preload asks for the virtual table beside the block engine: a module the two shared would be a third
    // chunk on every page (or a copy in the table's), so the table is handed the block engine's parts (VirtualTableParts)
    expect(holding(/blocks\/(tableParts|CellView)\.tsx$|screen\/screenData\.ts$/), "the table's parts, in the block engine alone").to.deep.equal(engine);
  });

  it("leaves react-spreadsheet's formula parser out of every script (issue 47: its grammar was built as the learner grid loaded)", () => {
    const scripts = readdirSync(path.join(DIST, 'assets')).filter((file) => file.endsWith('.js'));
    const grid = scripts.filter((file) => readFileSync(path.join(DIST, 'assets', file), 'utf8').includes('Spreadsheet__data-viewer'));
    expect(grid, 'the learner grid is built').to.have.length.greaterThan(0);
    const parser = scripts.filter((file) => readFileSync(path.join(DIST, 'assets', file), 'utf8').includes('performSelfAnalysis'));
    expect(parser, 'scripts with a chevrotain grammar').to.deep.equal([]);
  });
});
