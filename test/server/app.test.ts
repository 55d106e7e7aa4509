import { mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect } from 'chai';
import { ON_THE_FLY_BROTLI_QUALITY, ON_THE_FLY_GZIP_LEVEL } from '../../src/server/api/compression.js';
import { MISSING_BUILD_MESSAGE } from '../../src/server/browserBuild.js';
import { Browser, authorizationPath, formAction, pkce } from './support/oidc.js';
import { useTestApp } from './support/testApp.js';
import { cspDirectives as directives } from './support/csp.js';

describe('server/app', () => {
  describe('security headers and errors', () => {
    const ctx = useTestApp();

    it('sends a strict Content-Security-Policy without unsafe-eval or inline script', async () => {
      const response = await ctx.app.inject({ url: '/healthz' });
      const header = response.headers['content-security-policy'];
      expect(header).to.be.a('string');
      expect(header).not.to.include('unsafe-eval');
      expect(header).not.to.include('unsafe-inline');
      const csp = directives(header);
      expect(csp.get('default-src')).to.equal("'self'");
      expect(csp.get('script-src')).to.equal("'self'");
      expect(csp.get('style-src')).to.equal("'self'");
      expect(csp.get('img-src')).to.equal("'self' data:");
      expect(csp.get('frame-ancestors')).to.equal("'none'");
      expect(response.headers['x-content-type-options']).to.equal('nosniff');
    });

    it("gives API answers an API's headers: nothing loaded, framed, sniffed or cached, none of a page's others", async () => {
      for (const url of ['/api/v2/portal_settings', '/api/v2/nothing-here']) {
        const { headers } = await ctx.app.inject({ url });
        expect(directives(headers['content-security-policy']).get('default-src'), url).to.equal("'none'");
        expect(directives(headers['content-security-policy']).get('frame-ancestors'), url).to.equal("'none'");
        expect(headers['x-frame-options'], url).to.equal('DENY');
        expect(headers['x-content-type-options'], url).to.equal('nosniff');
        expect(headers['cache-control'], url).to.equal('no-store');
        expect(headers['cross-origin-resource-policy'], url).to.equal('same-origin');
        expect(headers, url).not.to.have.any.keys('x-dns-prefetch-control', 'x-xss-protection', 'origin-agent-cluster', 'cross-origin-opener-policy');
      }
      // the API's documentation is a page
      expect((await ctx.app.inject({ url: '/api/docs/', headers: { accept: 'text/html' } })).headers['x-dns-prefetch-control']).to.equal('off');
    });

    it('answers an unknown /api path with 404 not_found, even for a browser', async () => {
      for (const [method, url] of [
        ['GET', '/api/v2/nothing-here'],
        ['POST', '/api/v2/nothing-here'],
        ['GET', '/api/v1/nothing'],
        ['GET', '/api'],
      ] as const) {
        const response = await ctx.app.inject({ method, url, headers: { accept: 'text/html' } });
        expect(response.statusCode, `${method} ${url}`).to.equal(404);
        expect(response.json()).to.deep.equal({ error: 'not_found' });
      }
    });

    it('serves the OpenAPI document built from the route schemas', async () => {
      const response = await ctx.app.inject({ url: '/api/docs/json' });
      expect(response.statusCode).to.equal(200);
      const document = response.json();
      const post = document.paths['/api/v2/registration_requests'].post;
      expect(post.requestBody.content['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/RegistrationRequest' });
      const body = document.components.schemas.RegistrationRequest;
      expect(body.required).to.include('corporation_name');
      expect(body.properties.zip_code.maxLength).to.equal(11);
      expect(post.responses).to.have.keys('201', '422', '400', '500', '503');
      expect(document.paths).to.have.property('/api/v1/notices');
      expect(document.paths).to.have.property('/api/v2/client_errors');
    });

    it('serves the docs page with its own policy that still forbids eval and inline script', async () => {
      const page = await ctx.app.inject({ url: '/api/docs/', headers: { accept: 'text/html' } });
      expect(page.statusCode).to.equal(200);
      expect(page.body).to.include('swagger-ui');
      expect(page.body).not.to.match(/<script>(?!\s*<\/script>)/); // no inline script blocks
      const csp = directives(page.headers['content-security-policy']);
      expect(csp.get('script-src')).to.equal("'self'");
      expect(String(page.headers['content-security-policy'])).not.to.include('unsafe-eval');

      const initializer = await ctx.app.inject({ url: '/api/docs/static/swagger-initializer.js' });
      expect(initializer.statusCode).to.equal(200);
    });
  });

  describe('browser build', () => {
    const distDir = path.join(os.tmpdir(), `portal-dist-${process.pid}-${Date.now()}`);
    const ctx = useTestApp({ env: { DIST_DIR: distDir } });

    before(async () => {
      // Written after the app is built on purpose: the build is looked up per request.
      await mkdir(path.join(distDir, 'assets'), { recursive: true });
      await writeFile(path.join(distDir, 'index.html'), '<!doctype html><title>portal</title><script src="/assets/main.3f2a1b.js"></script>');
      await writeFile(path.join(distDir, 'assets', 'main.3f2a1b.js'), 'console.log("app")');
      await writeFile(path.join(distDir, 'favicon.ico'), 'icon');
    });
    after(async () => {
      await rm(distDir, { recursive: true, force: true });
    });

    it('serves index.html for the app routes, never cached', async () => {
      for (const url of ['/', '/memberships', '/services/1?x=1', '/subscription/group/1/new/input']) {
        const response = await ctx.app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
        expect(response.statusCode, url).to.equal(200);
        expect(response.headers['content-type']).to.match(/^text\/html/);
        expect(response.headers['cache-control']).to.equal('no-cache');
        expect(response.body).to.include('<title>portal</title>');
        expect(response.headers['content-security-policy']).to.include("script-src 'self'");
      }
    });

    it('serves hashed assets with a long immutable cache, other files with no-cache', async () => {
      const asset = await ctx.app.inject({ url: '/assets/main.3f2a1b.js' });
      expect(asset.statusCode).to.equal(200);
      expect(asset.body).to.equal('console.log("app")');
      expect(asset.headers['cache-control']).to.equal('public, max-age=31536000, immutable');

      const icon = await ctx.app.inject({ url: '/favicon.ico' });
      expect(icon.statusCode).to.equal(200);
      expect(icon.headers['cache-control']).to.equal('no-cache');
    });

    it('answers 404 for a missing asset and for requests that do not accept HTML', async () => {
      for (const url of ['/assets/gone.js', '/assets', '/assets/']) {
        const response = await ctx.app.inject({ url, headers: { accept: '*/*' } });
        expect(response.statusCode, url).to.equal(404);
      }
      const json = await ctx.app.inject({ url: '/memberships', headers: { accept: 'application/json' } });
      expect(json.statusCode).to.equal(404);
      expect(json.json()).to.deep.equal({ error: 'not_found' });
      const post = await ctx.app.inject({ method: 'POST', url: '/memberships', headers: { accept: 'text/html' } });
      expect(post.statusCode).to.equal(404);
    });

    it('never answers the server paths with the app', async () => {
      // (/dev/mails is the outbox, served outside production: see test/server/mail/delivery.test.ts)
      for (const url of ['/api/v2/unknown', '/dev/unknown']) {
        const response = await ctx.app.inject({ url, headers: { accept: 'text/html' } });
        expect(response.statusCode, url).to.equal(404);
        expect(response.json()).to.deep.equal({ error: 'not_found' });
      }
      // /oidc belongs to the identity provider, which answers unknown paths with its own error page
      const provider = await ctx.app.inject({ url: '/oidc/unknown', headers: { accept: 'text/html' } });
      expect(provider.statusCode).to.equal(404);
      expect(provider.body).to.not.contain('<div id="root">');
    });
  });

  describe('compression (issue 26)', () => {
    const distDir = path.join(os.tmpdir(), `portal-dist-compressed-${process.pid}-${Date.now()}`);
    const ctx = useTestApp({ env: { DIST_DIR: distDir, SEED: 'demo' } });
    const script = `console.log(${JSON.stringify('app '.repeat(500))})`;
    const html = `<!doctype html><title>portal</title>${'<!-- padding -->'.repeat(100)}`;

    before(async () => {
      await mkdir(path.join(distDir, 'assets'), { recursive: true });
      // what the build writes (webpack.config.ts): each file with its .br and .gz siblings
      for (const [file, content] of [['index.html', html], ['assets/main.0a1b2c3d.js', script]] as const) {
        await writeFile(path.join(distDir, file), content);
        await writeFile(path.join(distDir, `${file}.br`), zlib.brotliCompressSync(content));
        await writeFile(path.join(distDir, `${file}.gz`), zlib.gzipSync(content));
      }
    });
    after(async () => {
      await rm(distDir, { recursive: true, force: true });
    });

    const decoded = (response: { rawPayload: Buffer; headers: Record<string, unknown> }) =>
      response.headers['content-encoding'] === 'br' ? zlib.brotliDecompressSync(response.rawPayload).toString() : response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(response.rawPayload).toString() : response.rawPayload.toString();

    it("sends the build's brotli or gzip sibling as the browser accepts, the plain file otherwise, varying on Accept-Encoding", async () => {
      for (const [acceptEncoding, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['identity', undefined]] as const) {
        for (const [url, accept, content] of [['/assets/main.0a1b2c3d.js', '*/*', script], ['/memberships', 'text/html', html]] as const) {
          const response = await ctx.app.inject({ url, headers: { accept, 'accept-encoding': acceptEncoding } });
          expect(response.statusCode, url).to.equal(200);
          expect(response.headers['content-encoding'], `${url} ${acceptEncoding}`).to.equal(encoding);
          expect(response.headers.vary, url).to.match(/accept-encoding/i);
          expect(decoded(response), url).to.equal(content);
        }
      }
    });

    it('compresses JSON answers above the threshold on the fly, not the small ones', async () => {
      const large = await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
      expect(large.headers['content-encoding']).to.equal('br');
      expect(JSON.parse(decoded(large))).to.have.property('openapi');
      const small = await ctx.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br' } });
      expect(small.headers['content-encoding']).to.equal(undefined);
      expect(small.json()).to.deep.equal({ status: 'ok' });
    });

    it('compresses a large answer off the event loop: handed to zlib as a stream (no Content-Length), the same JSON', async () => {
      const plain = await ctx.app.inject({ url: '/api/docs/json' });
      expect(plain.rawPayload.length).to.be.at.least(64 * 1024); // large enough to be streamed
      expect(plain.headers['content-length']).to.equal(String(plain.rawPayload.length));
      for (const encoding of ['br', 'gzip']) {
        const large = await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': encoding } });
        expect(large.headers['content-encoding']).to.equal(encoding);
        expect(large.headers['content-length'], encoding).to.equal(undefined);
        expect(JSON.parse(decoded(large))).to.deep.equal(plain.json());
      }
    });

    it('compresses on the fly at brotli quality ON_THE_FLY_BROTLI_QUALITY and gzip level ON_THE_FLY_GZIP_LEVEL (a large list at brotli 4 took 4.5 times as long)', async () => {
      const plain = (await ctx.app.inject({ url: '/api/docs/json' })).rawPayload;
      const sent = async (encoding: string) => (await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': encoding } })).rawPayload.length;
      const brotli = (quality: number) => zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality } }).length;
      const gzip = (level: number) => zlib.gzipSync(plain, { level }).length;
      expect(await sent('br')).to.equal(brotli(ON_THE_FLY_BROTLI_QUALITY)).and.not.equal(brotli(4));
      expect(await sent('gzip')).to.equal(gzip(ON_THE_FLY_GZIP_LEVEL)).and.not.equal(gzip(6));
    });

    it("never compresses the identity provider's answers (tokens and CSRF-guarded pages, per BREACH)", async () => {
      const discovery = await ctx.app.inject({ url: '/oidc/.well-known/openid-configuration', headers: { 'accept-encoding': 'gzip, br' } });
      expect(discovery.statusCode).to.equal(200);
      expect(discovery.headers['content-encoding']).to.equal(undefined);
      const token = await ctx.app.inject({ method: 'POST', url: '/oidc/token', headers: { 'accept-encoding': 'gzip, br', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=refresh_token&client_id=portal&refresh_token=x' });
      expect(token.headers['content-encoding']).to.equal(undefined);
      expect(token.json()).to.have.property('error');
    });

    it("never compresses the provider's interaction pages, which echo the typed e-mail (per BREACH), while the API's answers still are", async () => {
      const browser = new Browser(ctx.app, undefined, undefined, { 'accept-encoding': 'gzip, br' });
      const page = await browser.follow(await browser.get(authorizationPath(ctx.app.config.publicUrl, pkce().challenge)));
      expect(page.statusCode).to.equal(200);
      expect(page.headers['content-encoding']).to.equal(undefined);
      const refused = await browser.post(formAction(decoded(page)), { email: 'manager@example.com', password: 'not the password' });
      expect(refused.statusCode).to.equal(401);
      expect(refused.headers['content-encoding']).to.equal(undefined);
      expect(refused.body).to.include('manager@example.com');
      const api = await ctx.app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip, br' } });
      expect(api.headers['content-encoding']).to.equal('br');
    });

    it('does not inflate compressed request bodies', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/registration_requests',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: zlib.gzipSync(JSON.stringify({ email: 'a@example.com' })),
      });
      expect(response.statusCode).to.be.within(400, 499);
    });
  });

  describe('without a browser build', () => {
    const ctx = useTestApp({ env: { DIST_DIR: path.join(os.tmpdir(), 'portal-no-such-dist') } });

    it('answers 503 with a hint instead of crashing', async () => {
      const response = await ctx.app.inject({ url: '/memberships', headers: { accept: 'text/html' } });
      expect(response.statusCode).to.equal(503);
      expect(response.headers['content-type']).to.match(/^text\/plain/);
      expect(response.body).to.equal(MISSING_BUILD_MESSAGE);
      expect((await ctx.app.inject({ url: '/healthz' })).statusCode).to.equal(200);
    });
  });
});

