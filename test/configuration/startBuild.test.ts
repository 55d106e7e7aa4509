/**
 * Issue 48: `npm start` on a fresh clone serves within a minute. Brotli at quality 11 over every file of the browser
 * build costs about half a minute of CPU on this 2-core machine (quality 5: under a second, about 8 % larger), so
 * start builds 'quick' and only `npm run build` (production) compresses at the highest quality; the tests and the
 * benches, which measure what production serves, rebuild a quick build rather than take it.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import { browserBuildIsStale, builtCompression, COMPRESSION_NOTE } from '../../scripts/browserBuild.js';
import { webpackConfig, type Compression } from '../../webpack.config.js';

/** The brotli quality of a production build made with `compression`, as its CompressionPlugin is set up. */
function brotliQuality(compression: Compression): number | undefined {
  const plugins = webpackConfig('production', compression).plugins ?? [];
  const brotli = plugins.find((plugin) => plugin instanceof CompressionPlugin && (plugin as unknown as { options: { algorithm: unknown } }).options.algorithm === 'brotliCompress');
  const options = (brotli as unknown as { options: { compressionOptions: zlib.BrotliOptions } } | undefined)?.options.compressionOptions;
  return options?.params?.[zlib.constants.BROTLI_PARAM_QUALITY] as number | undefined;
}

describe('npm start builds quick, npm run build at the highest quality (issue 48)', () => {
  it("compresses a quick build's brotli siblings at quality 5 at most, a production build's at 11", () => {
    expect(brotliQuality('best')).to.equal(11);
    expect(brotliQuality('quick')).to.be.a('number').and.at.most(5);
  });

  it('differs from the production build in the compression only', () => {
    const withoutCompression = (compression: Compression) => {
      const config = webpackConfig('production', compression);
      return JSON.stringify({ ...config, plugins: (config.plugins ?? []).filter((plugin) => !(plugin instanceof CompressionPlugin)).map((plugin) => plugin?.constructor.name) });
    };
    expect(withoutCompression('quick')).to.equal(withoutCompression('best'));
  });

  describe('the stale check', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(path.join(tmpdir(), 'portal-start-build-'));
      mkdirSync(path.join(root, 'dist'));
      // sources older than the build, so that only the compression decides
      mkdirSync(path.join(root, 'src/client'), { recursive: true });
      writeFileSync(path.join(root, 'src/client/main.ts'), '');
      utimesSync(path.join(root, 'src/client/main.ts'), new Date(2020, 0, 1), new Date(2020, 0, 1));
      writeFileSync(path.join(root, 'dist/index.html'), '<!doctype html>');
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    const noted = (compression: Compression) => writeFileSync(path.join(root, 'dist', COMPRESSION_NOTE), compression);

    it("takes npm start's quick build for npm start, not for the tests and the benches", () => {
      noted('quick');
      expect(builtCompression(root)).to.equal('quick');
      expect(browserBuildIsStale(root, 'quick')).to.equal(false);
      expect(browserBuildIsStale(root, 'best')).to.equal(true);
      expect(browserBuildIsStale(root), 'the default is what production serves').to.equal(true);
    });

    it("takes npm run build's build for both, and a build without a note (npm run dev's) as before", () => {
      noted('best');
      expect(browserBuildIsStale(root, 'quick')).to.equal(false);
      expect(browserBuildIsStale(root, 'best')).to.equal(false);
      rmSync(path.join(root, 'dist', COMPRESSION_NOTE));
      expect(builtCompression(root)).to.equal(undefined);
      expect(browserBuildIsStale(root, 'quick')).to.equal(false);
      expect(browserBuildIsStale(root, 'best')).to.equal(false);
    });

    it('builds again for both when a source is newer, or without a build', () => {
      noted('quick');
      writeFileSync(path.join(root, 'src/client/main.ts'), 'changed');
      utimesSync(path.join(root, 'src/client/main.ts'), new Date(2030, 0, 1), new Date(2030, 0, 1));
      expect(browserBuildIsStale(root, 'quick')).to.equal(true);
      rmSync(path.join(root, 'dist'), { recursive: true });
      expect(browserBuildIsStale(root, 'quick')).to.equal(true);
    });
  });
});
