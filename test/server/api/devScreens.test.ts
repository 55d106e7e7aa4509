import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { useTestApp } from '../support/testApp.js';

const INDEX_HTML = '<!doctype html><title>portal</title><script src="/assets/main.1a2b3c.js"></script>';
const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

function useDistDir(): string {
  const distDir = path.join(os.tmpdir(), `portal-dist-gallery-${process.pid}-${Math.random().toString(36).slice(2)}`);
  before(async () => {
    await mkdir(path.join(distDir, 'assets'), { recursive: true });
    await writeFile(path.join(distDir, 'index.html'), INDEX_HTML);
  });
  after(async () => rm(distDir, { recursive: true, force: true }));
  return distDir;
}

describe('The screen gallery /dev/screens (issue 8 §1)', () => {
  describe('outside production', () => {
    const distDir = useDistDir();
    const ctx = useTestApp({ env: { DIST_DIR: distDir } });

    it('is the single-page app', async () => {
      for (const url of ['/dev/screens', '/dev/screens?locale=en']) {
        const response = await ctx.app.inject({ url, headers: HTML });
        expect(response.statusCode, url).to.equal(200);
        expect(response.headers['content-type']).to.match(/^text\/html/);
        expect(response.body).to.equal(INDEX_HTML);
      }
    });

    it('is the only app page under /dev: others stay server paths', async () => {
      const response = await ctx.app.inject({ url: '/dev/nothing', headers: HTML });
      expect(response.statusCode).to.equal(404);
      expect(response.body).not.to.equal(INDEX_HTML);
    });
  });

  describe('in production', () => {
    const distDir = useDistDir();
    const ctx = useTestApp({ env: { DIST_DIR: distDir, NODE_ENV: 'production', DEMO: undefined } });

    it('answers 404, not the app', async () => {
      for (const url of ['/dev/screens', '/dev/screens?locale=en', '/dev/screens/']) {
        const response = await ctx.app.inject({ url, headers: HTML });
        expect(response.statusCode, url).to.equal(404);
        expect(response.body, url).not.to.equal(INDEX_HTML);
      }
    });

    it('the other app pages are still served', async () => {
      const response = await ctx.app.inject({ url: '/registration', headers: HTML });
      expect(response.statusCode).to.equal(200);
      expect(response.body).to.equal(INDEX_HTML);
    });
  });
});
