import { expect } from 'chai';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { Browser, endSession, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const AUTO_SUBMIT = /<script src="\/oidc\/assets\/logout\.js"/;

describe('end-session page: submitted by itself only with a valid id_token_hint of the signed-in admin (issue 7 finding 13)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });

  it("submits at once with the admin's own ID token as id_token_hint (the portal's logout)", async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const page = await endSession(session.browser, PUBLIC_URL, session.tokens.id_token);
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.match(AUTO_SUBMIT);
  });

  it('asks with a button when a cross-site link comes without id_token_hint', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const page = await endSession(session.browser, PUBLIC_URL);
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.not.match(AUTO_SUBMIT);
    expect(page.body).to.match(/<button type="submit"/);
  });

  it("asks with a button when the id_token_hint is someone else's (an attacker's own ID token)", async () => {
    const attacker = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    const victim = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const page = await endSession(victim.browser, PUBLIC_URL, attacker.tokens.id_token);
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.not.match(AUTO_SUBMIT);
  });

  it('asks with a button without a provider session and without id_token_hint', async () => {
    const page = await endSession(new Browser(ctx.app), PUBLIC_URL);
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.not.match(AUTO_SUBMIT);
    expect(page.body).to.match(/<button type="submit"/);
  });
});
