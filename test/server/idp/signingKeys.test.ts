import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ISSUER_PATH } from '../../../src/common/identity.js';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { bearer, signIn } from '../support/oidc.js';
import { createTestApp, createTestDatabase, TEST_ENV, type TestApp, type TestDatabase } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };
const ME = '/api/v2/admins/me/affiliations';

function rsaKey(kid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  return { ...jwk, kid, ...extra };
}

const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString('utf8')).kid as string;

describe('identity provider: signing keys from IDP_SIGNING_KEYS, and their rotation (issue 7 finding 15)', function () {
  this.timeout(60_000);
  const oldKey = rsaKey('key-2026-01');
  const newKey = rsaKey('key-2026-07');
  let database: TestDatabase;
  const apps: TestApp[] = [];

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    for (const app of apps) await app.app.close();
    await database.destroy();
  });

  async function appWith(keys: unknown[]): Promise<TestApp> {
    const app = await createTestApp({ testDatabase: database, env: { ...ENV, IDP_SIGNING_KEYS: JSON.stringify({ keys }) } });
    apps.push(app);
    return app;
  }

  const jwksOf = async (app: TestApp) => (await app.app.inject({ url: `${ISSUER_PATH}/jwks` })).json().keys as Array<Record<string, unknown>>;

  it('signs with the configured key and keeps no signing key in the database', async () => {
    const app = await appWith([oldKey]);
    const session = await signIn(app.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(kidOf(session.tokens.access_token)).to.equal('key-2026-01');
    expect(kidOf(session.tokens.id_token!)).to.equal('key-2026-01');
    expect((await jwksOf(app)).map((key) => key.kid)).to.deep.equal(['key-2026-01']);
    const stored = await database.db.selectFrom('idpKeys').select('kind').where('kind', '=', 'signing').execute();
    expect(stored).to.have.length(0);
  });

  it('step 1: a new key marked key_ops ["verify"] is published but does not sign yet', async () => {
    const app = await appWith([{ ...newKey, key_ops: ['verify'] }, oldKey]);
    expect((await jwksOf(app)).map((key) => key.kid)).to.have.members(['key-2026-07', 'key-2026-01']);
    const session = await signIn(app.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(kidOf(session.tokens.access_token)).to.equal('key-2026-01');
  });

  it('step 2: the new key first signs; tokens of the old key still verify until it is removed', async () => {
    const before = await appWith([oldKey]);
    const old = await signIn(before.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const after = await appWith([newKey, oldKey]);
    expect((await after.app.inject({ url: ME, headers: bearer(old.tokens.access_token) })).statusCode).to.equal(200);
    const fresh = await signIn(after.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(kidOf(fresh.tokens.access_token)).to.equal('key-2026-07');
    expect((await after.app.inject({ url: ME, headers: bearer(fresh.tokens.access_token) })).statusCode).to.equal(200);
    // step 3: without the old key its tokens are refused
    const done = await appWith([newKey]);
    expect((await done.app.inject({ url: ME, headers: bearer(old.tokens.access_token) })).statusCode).to.equal(401);
    expect((await done.app.inject({ url: ME, headers: bearer(fresh.tokens.access_token) })).statusCode).to.equal(200);
  });

  it('publishes only the public halves', async () => {
    const app = await appWith([newKey, oldKey]);
    for (const key of await jwksOf(app)) expect(key).to.not.have.any.keys('d', 'p', 'q', 'dp', 'dq', 'qi');
  });
});

describe('IDP_SIGNING_KEYS in the configuration', () => {
  it('reads the JWKS from a file with @path', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-keys-'));
    try {
      await writeFile(path.join(dir, 'jwks.json'), JSON.stringify({ keys: [rsaKey('file-key')] }));
      const config = loadConfig({ ...TEST_ENV, IDP_SIGNING_KEYS: '@jwks.json' }, dir);
      expect(config.signingKeys!.map((key) => key.kid)).to.deep.equal(['file-key']);
      expect(config.signingKeys![0]).to.include({ alg: 'RS256', use: 'sig' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what cannot sign: not JSON, public keys only, missing or repeated kid, every key verify-only, a missing file', () => {
    const key = rsaKey('a');
    const { d: _d, ...publicOnly } = key;
    for (const value of [
      'not json',
      JSON.stringify({ keys: [] }),
      JSON.stringify({ keys: [publicOnly] }),
      JSON.stringify({ keys: [{ ...key, kid: undefined }] }),
      JSON.stringify({ keys: [key, key] }),
      JSON.stringify({ keys: [{ ...key, key_ops: ['verify'] }] }),
      JSON.stringify({ keys: [{ ...key, kty: 'EC' }] }),
      '@/nonexistent/jwks.json',
    ]) {
      expect(() => loadConfig({ IDP_SIGNING_KEYS: value }), value.slice(0, 60)).to.throw(ConfigError, /IDP_SIGNING_KEYS/);
    }
  });
});
