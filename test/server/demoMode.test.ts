import { expect } from 'chai';
import { DEMO_PASSWORD, demoAdmins } from '../../src/server/db/seed/demoData.js';
import { ConfigError, loadConfig } from '../../src/server/config.js';
import { capturingLogger } from './support/log.js';
import { authorize } from './support/oidc.js';
import { createTestApp, createTestDatabase, TEST_SECRET_KEY } from './support/testApp.js';

/** Outside demo mode the app secrets' key is required (issue 44). */
const KEY = { SECRET_KEY: TEST_SECRET_KEY };

describe('demo mode (issue 7 finding 7)', () => {
  it('is on for a loopback PUBLIC_URL (a fresh clone: localhost), off on a real host', () => {
    expect(loadConfig({}).demo).to.equal(true);
    for (const url of ['http://127.0.0.1:3000', 'http://127.8.9.10', 'http://[::1]:8080', 'http://LOCALHOST:3000']) {
      expect(loadConfig({ PUBLIC_URL: url }).demo, url).to.equal(true);
    }
    for (const url of ['https://portal.example.com', 'http://localhost.example.com', 'http://127.0.0.1.nip.io', 'http://10.0.0.5:3000', 'http://[::2]']) {
      expect(loadConfig({ PUBLIC_URL: url, ...KEY }).demo, url).to.equal(false);
    }
  });

  it('is on on any host when asked for with DEMO=on, and off with DEMO=off or NODE_ENV=production', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com', DEMO: 'on' }).demo).to.equal(true);
    expect(loadConfig({ DEMO: 'off', ...KEY }).demo).to.equal(false);
    expect(loadConfig({ NODE_ENV: 'production', ...KEY }).demo).to.equal(false);
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: 'on' })).to.throw(ConfigError, /DEMO=on/);
    expect(() => loadConfig({ DEMO: 'yes' })).to.throw(ConfigError, /DEMO must be one of on, off/);
  });

  it('refuses CAPTCHA=off and TRUST_PROXY=true outside demo mode', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'https://portal.example.com', CAPTCHA: 'off' })).to.throw(ConfigError, /CAPTCHA=off/);
    expect(() => loadConfig({ PUBLIC_URL: 'https://portal.example.com', TRUST_PROXY: 'true' })).to.throw(ConfigError, /TRUST_PROXY=true/);
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com', CAPTCHA: 'off', DEMO: 'on' }).captcha).to.equal('off');
    expect(loadConfig({ CAPTCHA: 'off' }).captcha).to.equal('off');
  });

  it('a portal on a real host without DEMO=on seeds no demo accounts and serves no outbox, even without NODE_ENV', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.com', SEED: 'demo', DEMO: undefined } });
    try {
      expect(app.config.demo).to.equal(false);
      const admins = await app.db.selectFrom('admins').select('id').execute();
      expect(admins).to.have.length(0);
      expect((await app.app.inject({ url: '/dev/mails.json' })).statusCode).to.equal(404);
    } finally {
      await app.close();
    }
  });

  it('the same portal with DEMO=on has both', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.com', SEED: 'demo', DEMO: 'on' } });
    try {
      expect(await app.db.selectFrom('admins').select('id').execute()).to.have.length(demoAdmins.length);
      expect((await app.app.inject({ url: '/dev/mails.json' })).statusCode).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('listens on this machine only when demo mode follows a loopback PUBLIC_URL; HOST and DEMO=on keep 0.0.0.0 (issue 15 finding 3)', () => {
    expect(loadConfig({}).host).to.equal('localhost');
    expect(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).host).to.equal('localhost');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).to.equal('0.0.0.0');
    expect(loadConfig({ DEMO: 'on' }).host).to.equal('0.0.0.0');
    expect(loadConfig({ DEMO: 'off', ...KEY }).host).to.equal('0.0.0.0');
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com', ...KEY }).host).to.equal('0.0.0.0');
  });

  it('the /dev pages answer only clients on this machine, whatever X-Forwarded-For says and with TRUST_PROXY=true (issue 15 finding 3)', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.com', DEMO: 'on', TRUST_PROXY: 'true' } });
    try {
      const get = (url: string, remoteAddress: string, headers: Record<string, string> = {}) => app.app.inject({ url, remoteAddress, headers });
      for (const url of ['/dev/mails', '/dev/mails.json', '/dev/mails/1.html', '/dev/screens', '/dev/partner']) {
        const remote = await get(url, '203.0.113.5');
        expect(remote.statusCode, url).to.equal(403);
        expect(remote.body, url).to.match(/only the machine/);
        // request.ip would be 127.0.0.1 here: the socket decides
        expect((await get(url, '203.0.113.5', { 'x-forwarded-for': '127.0.0.1' })).statusCode, url).to.equal(403);
        // a proxy on this machine relays other machines' requests
        expect((await get(url, '127.0.0.1', { 'x-forwarded-for': '203.0.113.5' })).statusCode, url).to.equal(403);
        expect((await get(url, '::1', { forwarded: 'for=203.0.113.5' })).statusCode, url).to.equal(403);
      }
      expect((await get('/dev/mails.json', '127.0.0.1')).statusCode).to.equal(200);
      expect((await get('/dev/mails.json', '::1')).statusCode).to.equal(200);
      expect((await get('/dev/mails.json', '::ffff:127.0.0.1')).statusCode).to.equal(200);
      // the rest of the portal answers everyone
      expect((await get('/healthz', '203.0.113.5')).statusCode).to.equal(200);
    } finally {
      await app.close();
    }
  });

  it('outside demo mode, says at startup when demo accounts with the published password are still there', async () => {
    const database = await createTestDatabase();
    try {
      const demo = await createTestApp({ testDatabase: database, env: { SEED: 'demo', DEMO: 'on' } });
      await demo.close();
      const log = capturingLogger();
      const real = await createTestApp({ testDatabase: database, logger: log.logger, env: { PUBLIC_URL: 'https://portal.example.com', DEMO: undefined } });
      await real.close();
      const warning = log.lines.find((line) => String(line.msg).startsWith('demo accounts with the published password'));
      expect(warning).to.include({ level: 50 });
      const withPassword = demoAdmins.filter((admin) => admin.password === DEMO_PASSWORD).map((admin) => admin.email);
      expect(warning!.accounts).to.have.members(withPassword);
      expect(withPassword).to.include.members(['manager@example.com', 'member@example.com']);
    } finally {
      await database.destroy();
    }
  });

  it('outside demo mode the published demo password signs nobody in, in a database seeded for a demo', async () => {
    const database = await createTestDatabase();
    try {
      const demo = await createTestApp({ testDatabase: database, env: { SEED: 'demo', DEMO: 'on', PUBLIC_URL: 'http://localhost:3000' } });
      const inDemo = await authorize(demo.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      expect(inDemo.redirect.searchParams.get('code'), 'signs in in demo mode').to.be.a('string');
      await demo.close();
      const real = await createTestApp({ testDatabase: database, env: { PUBLIC_URL: 'http://localhost:3000', DEMO: 'off' } });
      try {
        const refused = await authorize(real.app, { email: 'member@example.com', password: DEMO_PASSWORD });
        expect(refused.redirect.searchParams.get('code')).to.equal(null);
        expect(refused.lastStatus).to.equal(401);
      } finally {
        await real.close();
      }
    } finally {
      await database.destroy();
    }
  });
});
