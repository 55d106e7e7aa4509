import { expect } from 'chai';
import { ISSUER_PATH, PORTAL_CLIENT_ID } from '../../../src/common/identity.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { endAdminTokens } from '../../../src/server/domain/admins.js';
import { bearer, pathOf, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ME = '/api/v2/admins/me/affiliations';

/** Tokens are compared by their iat (whole seconds): a token of the same second as the revocation passes. */
const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 5));

describe('access tokens end with the session: logout, password change, reset (issue 7 finding 3)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });

  const call = (token: string) => ctx.app.inject({ url: ME, headers: bearer(token) });

  async function expectRefused(token: string) {
    const response = await call(token);
    expect(response.statusCode, response.body).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  }

  it('refuses the access token at once after logout at the end-session endpoint', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect((await call(session.tokens.access_token)).statusCode).to.equal(200);
    await nextSecond();
    const query = new URLSearchParams({ client_id: PORTAL_CLIENT_ID, post_logout_redirect_uri: `${PUBLIC_URL}/`, id_token_hint: session.tokens.id_token! });
    const page = await session.browser.get(`${ISSUER_PATH}/session/end?${query}`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1]!;
    const confirmed = await session.browser.post(pathOf(/action="([^"]+)"/.exec(page.body)![1]), { xsrf, logout: 'yes' });
    expect(confirmed.statusCode).to.equal(303);
    await expectRefused(session.tokens.access_token);
  });

  it('refuses the old access token after a password change; the new session works in the same second', async () => {
    const session = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    await nextSecond();
    const change = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v2/admins/1/password',
      headers: bearer(session.tokens.access_token),
      payload: { current: DEMO_PASSWORD, new: 'NewPassw0rd!2026' },
    });
    expect(change.statusCode, change.body).to.equal(200);
    await expectRefused(session.tokens.access_token);
    expect((await call(change.json().access_token)).statusCode).to.equal(200);
  });

  it('refuses every earlier access token of the admin once endAdminTokens ran (reset, role change, deletion)', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await nextSecond();
    await endAdminTokens(ctx.db, 2);
    await expectRefused(session.tokens.access_token);
    // a sign-in afterwards gets a working token
    const again = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect((await call(again.tokens.access_token)).statusCode).to.equal(200);
  });

  it('refuses the access tokens after revokeAdmin (what a password reset runs)', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await nextSecond();
    await ctx.app.identityProvider.revokeAdmin(2);
    await expectRefused(session.tokens.access_token);
  });

  it('refuses the token of an admin that no longer exists', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await ctx.db.deleteFrom('affiliations').where('adminId', '=', 2).execute();
    await ctx.db.deleteFrom('adminTokens').where('adminId', '=', 2).execute();
    await ctx.db.deleteFrom('admins').where('id', '=', 2).execute();
    await expectRefused(session.tokens.access_token);
  });
});
