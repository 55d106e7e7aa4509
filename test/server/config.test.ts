import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig, redactUrl } from '../../src/server/config.js';
import { hashPassword, usePasswordHashing, verifyPassword } from '../../src/server/domain/passwords.js';

/** A key for the settings outside demo mode, where SECRET_KEY is required (issue 44). */
const TWO_STEP_KEY = Buffer.alloc(32, 5).toString('base64');

describe('server/config', () => {
  it('applies the defaults of the runtime contract', () => {
    const config = loadConfig({}, '/srv/portal');
    expect(config).to.include({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      dataDir: '/srv/portal/data',
      distDir: '/srv/portal/dist',
      seed: 'demo',
      logLevel: 'info',
      isProduction: false,
      trustProxy: false,
    });
    expect(config.databaseUrl).to.equal(undefined);
    expect(config.smtpUrl).to.equal(undefined);
  });

  it('derives PUBLIC_URL from PORT and reads every setting', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).to.equal('http://localhost:8080');
    const config = loadConfig(
      {
        PORT: '4000',
        PUBLIC_URL: 'https://portal.example.com/',
        SECRET_KEY: TWO_STEP_KEY,
        DATA_DIR: 'var/data',
        DATABASE_URL: 'postgres://u:p@db:5432/portal',
        SMTP_URL: 'smtp://mail:25',
        SEED: 'none',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DIST_DIR: '/opt/dist',
        TRUST_PROXY: '1',
      },
      '/app',
    );
    expect(config).to.include({
      port: 4000,
      publicUrl: 'https://portal.example.com',
      dataDir: path.resolve('/app/var/data'),
      databaseUrl: 'postgres://u:p@db:5432/portal',
      smtpUrl: 'smtp://mail:25',
      seed: 'none',
      isProduction: true,
      logLevel: 'warn',
      distDir: '/opt/dist',
      trustProxy: 1,
    });
  });

  it('accepts memory:// for an in-memory database', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).databaseUrl).to.equal('memory://');
  });

  it('lists every invalid value in one error, without leaking a password', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'abc', SEED: 'all', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://u:secret@h/db', PUBLIC_URL: 'ftp://x', SECRET_KEY: TWO_STEP_KEY });
    } catch (caught) {
      error = caught;
    }
    expect(error).to.be.instanceOf(ConfigError);
    const { problems, message } = error as ConfigError;
    expect(problems).to.have.length(5);
    expect(message).to.match(/PORT/).and.match(/SEED/).and.match(/LOG_LEVEL/).and.match(/DATABASE_URL/).and.match(/PUBLIC_URL/);
    expect(message).not.to.include('secret');
  });

  it('rejects an out-of-range port', () => {
    expect(() => loadConfig({ PORT: '70000' })).to.throw(ConfigError, /PORT/);
  });

  it('has the identity provider and sign-in settings, with their defaults', () => {
    const config = loadConfig({}, '/srv/portal');
    expect(config).to.include({ accessTokenTtl: 900, refreshTokenTtl: 1209600, reauthWindow: 600, cookieKeys: undefined });
    expect(config.signinThrottle).to.deep.equal({ maxAccountFailures: 5, maxAddressFailures: 20, lockoutSeconds: 900, failureDelayMs: 500, maxSecondStepFailures: 10, secondStepMaxTries: 3 });
    const custom = loadConfig({ ACCESS_TOKEN_TTL: '300', REAUTH_WINDOW: '60', COOKIE_KEYS: `${'a'.repeat(32)}, ${'b'.repeat(40)}`, SIGNIN_FAILURE_DELAY_MS: '0' });
    expect(custom).to.include({ accessTokenTtl: 300, reauthWindow: 60 });
    expect(custom.cookieKeys).to.deep.equal(['a'.repeat(32), 'b'.repeat(40)]);
    expect(custom.signinThrottle.failureDelayMs).to.equal(0);
  });

  it('refuses invalid identity provider settings', () => {
    try {
      loadConfig({ ACCESS_TOKEN_TTL: 'soon', REAUTH_WINDOW: '0', COOKIE_KEYS: 'short' });
      expect.fail('loadConfig should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as ConfigError).problems.join('\n')).to.match(/ACCESS_TOKEN_TTL/).and.match(/REAUTH_WINDOW/).and.match(/COOKIE_KEYS/);
    }
  });

  it('has the announcement page (default the portal\'s /announcements) and no support chat unless configured', () => {
    expect(loadConfig({})).to.include({ announcementPageUrl: '/announcements', supportChat: undefined });
    expect(loadConfig({ ANNOUNCEMENT_PAGE_URL: 'https://news.example.com/{lang}' }).announcementPageUrl).to.equal('https://news.example.com/{lang}');
    expect(() => loadConfig({ ANNOUNCEMENT_PAGE_URL: '//news.example.com' })).to.throw(ConfigError, /ANNOUNCEMENT_PAGE_URL/);
    expect(() => loadConfig({ ANNOUNCEMENT_PAGE_URL: 'javascript:alert(1)' })).to.throw(ConfigError, /ANNOUNCEMENT_PAGE_URL/);
  });

  it("sets argon2id's cost of new password hashes, not below OWASP's lowest line; a hash of another cost still verifies", async () => {
    expect(loadConfig({}).passwordHashing).to.deep.equal({ memoryKib: 65536, passes: 3, parallelism: 4 });
    const cost = loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '2', PASSWORD_HASH_PARALLELISM: '1' }).passwordHashing;
    expect(cost).to.deep.equal({ memoryKib: 19456, passes: 2, parallelism: 1 });
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '4096', PASSWORD_HASH_PASSES: '10' })).to.throw(ConfigError, /PASSWORD_HASH_MEMORY_KIB must be an integer of at least 7168/);
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '1' })).to.throw(ConfigError, /PASSWORD_HASH_MEMORY_KIB × PASSWORD_HASH_PASSES must be at least 35840/);
    const earlierHash = await hashPassword('correct horse battery');
    const earlier = usePasswordHashing(cost);
    try {
      const hash = await hashPassword('correct horse battery');
      expect(hash).to.match(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
      expect(await verifyPassword(earlierHash, 'correct horse battery')).to.equal(true);
    } finally {
      usePasswordHashing(earlier);
    }
  });

  it('refuses a support chat without its Japanese key, keys without a script, and http outside demo mode', () => {
    expect(() => loadConfig({ SUPPORT_CHAT_SCRIPT_URL: 'https://chat.example.com/w.js' })).to.throw(ConfigError, /SUPPORT_CHAT_KEY_JA is required/);
    expect(() => loadConfig({ SUPPORT_CHAT_KEY_JA: 'k' })).to.throw(ConfigError, /SUPPORT_CHAT_SCRIPT_URL is not/);
    expect(() => loadConfig({ SUPPORT_CHAT_SCRIPT_URL: 'chat.js', SUPPORT_CHAT_KEY_JA: 'k' })).to.throw(ConfigError, /SUPPORT_CHAT_SCRIPT_URL/);
    const outsideDemo = { PUBLIC_URL: 'https://portal.example.com', SECRET_KEY: TWO_STEP_KEY, SUPPORT_CHAT_KEY_JA: 'k' };
    expect(() => loadConfig({ ...outsideDemo, SUPPORT_CHAT_SCRIPT_URL: 'http://chat.example.com/w.js' })).to.throw(ConfigError, /https/);
    expect(loadConfig({ ...outsideDemo, SUPPORT_CHAT_SCRIPT_URL: 'https://chat.example.com/w.js', SUPPORT_CHAT_KEY_EN: 'e' }).supportChat?.keys).to.deep.equal({ ja: 'k', en: 'e' });
    expect(loadConfig({ SUPPORT_CHAT_SCRIPT_URL: 'http://127.0.0.1:9/w.js', SUPPORT_CHAT_KEY_JA: 'k' }).supportChat?.origin).to.equal('http://127.0.0.1:9');
  });

  it('requires SECRET_KEY outside demo mode, and reads several keys, newest first; TWO_STEP_SECRET_KEY is its former name (issue 44 finding 4)', () => {
    const outsideDemo = { PUBLIC_URL: 'https://portal.example.com' };
    expect(() => loadConfig(outsideDemo)).to.throw(ConfigError, /SECRET_KEY is required outside demo mode/);
    const [newer, older] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    const config = loadConfig({ ...outsideDemo, SECRET_KEY: `${newer.toString('base64')}, ${older.toString('base64')}` });
    expect(config.secretKeys).to.deep.equal([newer, older]);
    expect(loadConfig({ ...outsideDemo, TWO_STEP_SECRET_KEY: older.toString('base64') }).secretKeys).to.deep.equal([older]);
    expect(() => loadConfig({ ...outsideDemo, SECRET_KEY: `${newer.toString('base64')},c2hvcnQ=` })).to.throw(ConfigError, /32-byte keys/);
    expect(loadConfig({}).secretKeys, 'demo mode: generated and kept in the database').to.equal(undefined);
  });

  it('has the session limits: idle 30 min, at most 12 h, the idle timeout not longer than the limit', () => {
    expect(loadConfig({})).to.include({ sessionIdleTimeout: 1800, sessionMaxAge: 43200 });
    expect(loadConfig({ SESSION_IDLE_TIMEOUT: '600', SESSION_MAX_AGE: '3600' })).to.include({ sessionIdleTimeout: 600, sessionMaxAge: 3600 });
    expect(() => loadConfig({ SESSION_IDLE_TIMEOUT: '7200', SESSION_MAX_AGE: '3600' })).to.throw(ConfigError, /SESSION_IDLE_TIMEOUT/);
    expect(() => loadConfig({ SESSION_MAX_AGE: '12h' })).to.throw(ConfigError, /SESSION_MAX_AGE/);
  });

  it('has the corporate subscription values (enlargement deadline 7 days, overlap 12 months), positive integers only', () => {
    expect(loadConfig({}).subscriptions).to.deep.equal({ enlargementDays: 7, overlapMonths: 12 });
    expect(loadConfig({ SUBSCRIPTION_ENLARGEMENT_DAYS: '14', SUBSCRIPTION_OVERLAP_MONTHS: '6' }).subscriptions).to.deep.equal({ enlargementDays: 14, overlapMonths: 6 });
    expect(() => loadConfig({ SUBSCRIPTION_ENLARGEMENT_DAYS: '0' })).to.throw(ConfigError, /SUBSCRIPTION_ENLARGEMENT_DAYS/);
    expect(() => loadConfig({ SUBSCRIPTION_OVERLAP_MONTHS: 'a year' })).to.throw(ConfigError, /SUBSCRIPTION_OVERLAP_MONTHS/);
  });

  it("reads DEMO_LEARNERS, the demo's extra learners (default 0, at most 100,000)", () => {
    expect(loadConfig({}).demoLearners).to.equal(0);
    expect(loadConfig({ DEMO_LEARNERS: '0' }).demoLearners).to.equal(0);
    expect(loadConfig({ DEMO_LEARNERS: '10000' }).demoLearners).to.equal(10_000);
    expect(() => loadConfig({ DEMO_LEARNERS: 'many' })).to.throw(ConfigError, /DEMO_LEARNERS/);
    expect(() => loadConfig({ DEMO_LEARNERS: '100001' })).to.throw(ConfigError, /DEMO_LEARNERS must be at most 100000/);
  });

  it('reads the notification settings: LISTEN_DATABASE_URL (PostgreSQL only), the heartbeat and the bounded age', () => {
    expect(loadConfig({}).notifications).to.deep.equal({ listenDatabaseUrl: undefined, heartbeatIntervalSeconds: 5, tokenValidityMaxAgeSeconds: 30 });
    const config = loadConfig({ DATABASE_URL: 'postgres://u@pgbouncer:6432/portal', LISTEN_DATABASE_URL: 'postgres://u@db:5432/portal', LISTEN_HEARTBEAT_INTERVAL: '2s', TOKEN_VALIDITY_MAX_AGE: '1m' });
    expect(config.notifications).to.deep.equal({ listenDatabaseUrl: 'postgres://u@db:5432/portal', heartbeatIntervalSeconds: 2, tokenValidityMaxAgeSeconds: 60 });
    expect(() => loadConfig({ LISTEN_DATABASE_URL: 'postgres://u@db:5432/portal' })).to.throw(ConfigError, /LISTEN_DATABASE_URL needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://u@db/p', LISTEN_DATABASE_URL: 'http://db' })).to.throw(ConfigError, /LISTEN_DATABASE_URL must be a postgres/);
    expect(() => loadConfig({ TOKEN_VALIDITY_MAX_AGE: 'long' })).to.throw(ConfigError, /TOKEN_VALIDITY_MAX_AGE/);
  });

  it('reads SHUTDOWN_TIMEOUT, a duration (default 5 s)', () => {
    expect(loadConfig({}).shutdownTimeout).to.equal(5);
    expect(loadConfig({ SHUTDOWN_TIMEOUT: '30s' }).shutdownTimeout).to.equal(30);
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT: 'soon' })).to.throw(ConfigError, /SHUTDOWN_TIMEOUT/);
  });

  it("reads PGLITE_UPKEEP_INTERVAL, a duration (default 1 min, autovacuum's naptime)", () => {
    expect(loadConfig({}).pgliteUpkeepIntervalSeconds).to.equal(60);
    expect(loadConfig({ PGLITE_UPKEEP_INTERVAL: '5m' }).pgliteUpkeepIntervalSeconds).to.equal(300);
    expect(() => loadConfig({ PGLITE_UPKEEP_INTERVAL: 'often' })).to.throw(ConfigError, /PGLITE_UPKEEP_INTERVAL/);
  });

  it('has the link rewriting exceptions (SPEC §7) as settings, with demo defaults', () => {
    expect(loadConfig({}).serviceLinks).to.deep.equal({
      learningCheckAdminUrl: 'https://admin.hodai.example.com/learning-check',
      samlIdpUrl: 'https://saml.example.com/',
      signinHost: 'signin.example.com',
      signinOverHttp: true,
    });
    const config = loadConfig({ LEARNING_CHECK_ADMIN_URL: 'https://lc.example.org/admin', PROVIDER_SAML_IDP_URL: 'https://idp.example.org/saml', PROVIDER_SIGNIN_HOST: 'Login.Example.org:8443' });
    expect(config.serviceLinks).to.deep.equal({ learningCheckAdminUrl: 'https://lc.example.org/admin', samlIdpUrl: 'https://idp.example.org/saml', signinHost: 'login.example.org:8443', signinOverHttp: true });
    expect(loadConfig({ PUBLIC_URL: 'https://portal.example.com', SECRET_KEY: TWO_STEP_KEY }).serviceLinks.signinOverHttp).to.equal(false);
  });

  it('refuses link exceptions that are not absolute URLs or a host name', () => {
    try {
      loadConfig({ LEARNING_CHECK_ADMIN_URL: '/learning-check', PROVIDER_SAML_IDP_URL: 'saml', PROVIDER_SIGNIN_HOST: 'https://signin.example.org/' });
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.be.instanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).to.contain('LEARNING_CHECK_ADMIN_URL').and.contain('PROVIDER_SAML_IDP_URL').and.contain('PROVIDER_SIGNIN_HOST');
    }
  });

  it('redacts passwords in URLs', () => {
    expect(redactUrl('postgres://user:pw@host/db')).to.equal('postgres://user:***@host/db');
  });
});
