import { expect } from 'chai';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorize, refresh, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Refreshes every `everyMs` for `forMs`; returns the last refresh token. */
async function keepRefreshing(app: Parameters<typeof refresh>[0], refreshToken: string, everyMs: number, forMs: number): Promise<string> {
  let token = refreshToken;
  for (const until = Date.now() + forMs; Date.now() < until; ) {
    await sleep(everyMs);
    const response = await refresh(app, token);
    expect(response.statusCode, response.body).to.equal(200);
    token = response.json().refresh_token;
  }
  return token;
}

describe('sessions: idle timeout (issue 7 finding 9)', () => {
  const ctx = useTestApp({ env: { ...ENV, SESSION_IDLE_TIMEOUT: '3', SESSION_MAX_AGE: '3600' } });

  it('refuses the refresh after SESSION_IDLE_TIMEOUT seconds without one, and the provider asks for the password again', async function () {
    this.timeout(30_000);
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(session.tokens.refresh_token_expires_in).to.be.at.most(3);
    await sleep(4000);
    const refused = await refresh(ctx.app, session.tokens.refresh_token);
    expect(refused.statusCode).to.equal(400);
    expect(refused.json().error).to.equal('invalid_grant');
    const again = await authorize(ctx.app, { email: 'member@example.com', password: 'not-the-password', browser: session.browser });
    expect(again.lastStatus, 'the sign-in page, not a silent sign-in').to.equal(401);
  });

  it('keeps a session that refreshes within the timeout past it, and its browser signs in again without the password', async function () {
    this.timeout(30_000);
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await keepRefreshing(ctx.app, session.tokens.refresh_token, 1000, 4500);
    const again = await authorize(ctx.app, { email: 'unused', password: 'unused', browser: session.browser });
    expect(again.lastPage).to.equal(undefined);
    expect(again.redirect.searchParams.get('code')).to.be.a('string');
  });
});

describe('sessions: absolute limit (issue 7 finding 9)', () => {
  const ctx = useTestApp({ env: { ...ENV, SESSION_IDLE_TIMEOUT: '3', SESSION_MAX_AGE: '5' } });

  it('refuses the refresh SESSION_MAX_AGE seconds after the password entry however often it refreshed', async function () {
    this.timeout(30_000);
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    let token = session.tokens.refresh_token;
    let refused = false;
    for (const until = Date.now() + 8000; Date.now() < until && !refused; ) {
      await sleep(1000);
      const response = await refresh(ctx.app, token);
      if (response.statusCode === 200) token = response.json().refresh_token;
      else refused = true;
    }
    expect(refused, 'a refresh was refused within 8 s').to.equal(true);
    const again = await authorize(ctx.app, { email: 'member@example.com', password: 'not-the-password', browser: session.browser });
    expect(again.lastStatus, 'the sign-in page, not a silent sign-in').to.equal(401);
  });
});
