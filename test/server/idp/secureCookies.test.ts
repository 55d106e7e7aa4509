import { expect } from 'chai';
import type { LightMyRequestResponse } from 'fastify';
import { ISSUER_PATH } from '../../../src/common/identity.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorizationPath, Browser, pathOf, pkce, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return Array.isArray(header) ? header : header ? [header] : [];
}

/** Every cookie the browser gets on its way through a sign-in, from the authorisation request to the code. */
async function cookiesOfSignin(app: Parameters<typeof signIn>[0], publicUrl: string): Promise<string[]> {
  const browser = new Browser(app);
  const seen: string[] = [];
  const record = (response: LightMyRequestResponse) => (seen.push(...setCookies(response)), response);
  const original = browser.request.bind(browser);
  browser.request = async (...args) => record(await original(...args));
  const first = await browser.get(authorizationPath(publicUrl, pkce().challenge));
  await browser.get(pathOf(first.headers.location as string));
  await signIn(app, { email: 'member@example.com', password: DEMO_PASSWORD, browser });
  return seen;
}

describe('provider cookies are Secure when PUBLIC_URL is https (issue 7 finding 14)', () => {
  const PUBLIC_URL = 'https://portal.example.com';
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });

  it('sets every cookie of the sign-in with Secure, behind a TLS proxy that is not trusted for its headers', async () => {
    const cookies = await cookiesOfSignin(ctx.app, PUBLIC_URL);
    expect(cookies.some((cookie) => cookie.startsWith('_session='))).to.equal(true);
    for (const cookie of cookies) expect(cookie, cookie).to.match(/;\s*secure/i);
  });

  it('publishes https endpoints', async () => {
    const discovery = (await ctx.app.inject({ url: `${ISSUER_PATH}/.well-known/openid-configuration` })).json();
    expect(discovery.token_endpoint).to.match(/^https:\/\/[^/]+\/oidc\/token$/);
  });
});

describe('provider cookies over http (local use)', () => {
  const PUBLIC_URL = 'http://localhost:3000';
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });

  it('are not Secure, so the browser keeps them', async () => {
    const cookies = await cookiesOfSignin(ctx.app, PUBLIC_URL);
    expect(cookies).to.not.be.empty;
    for (const cookie of cookies) expect(cookie, cookie).to.not.match(/;\s*secure/i);
  });
});
