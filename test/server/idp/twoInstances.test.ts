/**
 * The "two instances on one PostgreSQL" gate: everything a user's session depends on is shared through the database,
 * so a load balancer may send each request to either instance. PostgreSQL only (TEST_DATABASE_URL); skipped on PGlite,
 * which one process owns.
 */
import { expect } from 'chai';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorize, bearer, Browser, changePassword, formAction, authorizationPath, logOut, nextSecond, pkce, refresh, signIn } from '../support/oidc.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0', SIGNIN_MAX_FAILURES: '3', SIGNIN_MAX_ADDRESS_FAILURES: '100' };
const ME = '/api/v2/admins/me/affiliations';

describe('two instances on one PostgreSQL database', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;

  before(async function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
    database = await createTestDatabase();
    a = await createTestApp({ env: ENV, testDatabase: database });
    b = await createTestApp({ env: ENV, testDatabase: database });
  });

  after(async () => {
    await a?.close();
    await b?.close();
    await database?.destroy();
  });

  it('signs in on one, calls and refreshes on the other', async () => {
    const session = await signIn(a.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect((await b.app.inject({ url: ME, headers: bearer(session.tokens.access_token) })).statusCode).to.equal(200);
    const refreshed = await refresh(b.app, session.tokens.refresh_token);
    expect(refreshed.statusCode, refreshed.body).to.equal(200);
    expect((await a.app.inject({ url: ME, headers: bearer(refreshed.json().access_token) })).statusCode).to.equal(200);
  });

  it('a logout on one ends the session on the other: access token and refresh token refused', async () => {
    const session = await signIn(a.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await nextSecond();
    expect((await logOut(session, PUBLIC_URL)).statusCode).to.equal(303);
    const api = await b.app.inject({ url: ME, headers: bearer(session.tokens.access_token) });
    expect(api.statusCode).to.equal(401);
    expect(api.json()).to.deep.equal({ error: 'invalid_access_token' });
    expect((await refresh(b.app, session.tokens.refresh_token)).statusCode).to.equal(400);
  });

  it('a password change on one refuses the old access token on the other at once', async () => {
    const session = await signIn(b.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    await nextSecond();
    const change = await changePassword(b.app, 1, session.tokens.access_token, DEMO_PASSWORD, 'NewPassw0rd!2026');
    expect(change.statusCode, change.body).to.equal(200);
    expect((await a.app.inject({ url: ME, headers: bearer(session.tokens.access_token) })).statusCode).to.equal(401);
    expect((await a.app.inject({ url: ME, headers: bearer(change.json().access_token) })).statusCode).to.equal(200);
  });

  it('shares the lockout: failures on one lock the account (from that address) on the other', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await authorize(attempt % 2 ? a.app : b.app, { email: 'pending@example.com', password: `Wrong-${attempt}` });
    }
    const locked = await authorize(b.app, { email: 'pending@example.com', password: 'Wrong-4' });
    expect(locked.lastStatus).to.equal(429);
  });

  it('counts parallel guesses spread over both instances together', async () => {
    const browser = new Browser(a.app);
    const first = await browser.follow(await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge)));
    const action = formAction(first.body);
    const onB = browser.withApp(b.app);
    const guesses = Array.from({ length: 12 }, (_, index) => (index === 11 ? DEMO_PASSWORD : `Wrong-guess-${index}`));
    const answers = await Promise.all(guesses.map((password, index) => (index % 2 ? onB : browser).post(action, { email: 'member@example.com', password })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses, 'no guess signed in').to.not.include(303);
    expect(statuses.filter((status) => status === 401).length).to.be.at.most(2);
  });
});
