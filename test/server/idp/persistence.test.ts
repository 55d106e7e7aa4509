import { expect } from 'chai';
import { ISSUER_PATH } from '../../../src/common/identity.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { bearer, claimsOf, exchangeCode, authorize, refresh, signIn } from '../support/oidc.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/testApp.js';

const ENV = { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' };

async function kids(app: TestApp['app']): Promise<string[]> {
  const { keys } = (await app.inject({ url: `${ISSUER_PATH}/jwks` })).json() as { keys: Array<{ kid: string }> };
  return keys.map((key) => key.kid);
}

describe('identity provider: state in the database', () => {
  let database: TestDatabase;

  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
  });

  after(async () => {
    await database?.destroy();
  });

  it('survives a restart: refresh works, the keys and the provider session are the same', async function () {
    this.timeout(60_000);
    const first = await createTestApp({ env: ENV, testDatabase: database });
    let session: Awaited<ReturnType<typeof signIn>>;
    let kidsBefore: string[];
    try {
      session = await signIn(first.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
      kidsBefore = await kids(first.app);
    } finally {
      await first.close();
    }

    const second = await createTestApp({ env: ENV, testDatabase: database });
    try {
      expect(await kids(second.app)).to.deep.equal(kidsBefore);
      // the access token of the first run is still accepted (same keys)
      const api = await second.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(session.tokens.access_token) });
      expect(api.statusCode).to.equal(200);
      // the refresh token too
      const refreshed = await refresh(second.app, session.tokens.refresh_token);
      expect(refreshed.statusCode, refreshed.body).to.equal(200);
      expect(claimsOf(refreshed.json().id_token)).to.include({ sub: '1', glopla_id: 'G0000001' });
      // and the provider session cookie (signed with the persisted cookie key): no password asked
      const again = await authorize(second.app, { email: 'x', password: 'x', gloplaId: 'G0000001', browser: session.browser.withApp(second.app) });
      expect(again.lastPage).to.equal(undefined);
      expect(again.redirect.searchParams.get('code')).to.be.a('string');
    } finally {
      await second.close();
    }

    const rows = await database.db.selectFrom('idpKeys').select('kind').execute();
    expect(rows.map((row) => row.kind).sort()).to.deep.equal(['cookie', 'signing']);
  });

  it('lets two instances on one database serve the same sessions', async function () {
    this.timeout(60_000);
    const a = await createTestApp({ env: ENV, testDatabase: database });
    const b = await createTestApp({ env: ENV, testDatabase: database });
    try {
      // authorise on A, exchange the code on B, refresh on A, call the API on B
      const authorized = await authorize(a.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      const tokens = await exchangeCode(b.app, authorized);
      const refreshed = await refresh(a.app, tokens.refresh_token);
      expect(refreshed.statusCode, refreshed.body).to.equal(200);
      const api = await b.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(refreshed.json().access_token) });
      expect(api.statusCode).to.equal(200);
      // the rotated refresh token is refused on either instance
      expect((await refresh(b.app, tokens.refresh_token)).statusCode).to.equal(400);
      // the provider session made on A is known on B
      const again = await authorize(b.app, { email: 'x', password: 'x', browser: authorized.browser.withApp(b.app) });
      expect(again.redirect.searchParams.get('code')).to.be.a('string');
      expect(await kids(a.app)).to.deep.equal(await kids(b.app));
    } finally {
      await a.close();
      await b.close();
    }
  });
});
