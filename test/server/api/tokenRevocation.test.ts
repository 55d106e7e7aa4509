import { expect } from 'chai';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { endAdminTokens, endOrganizationTokens } from '../../../src/server/domain/admins.js';
import { tokenValidityChanged } from '../../../src/server/domain/tokenValidity.js';
import { bearer, changePassword, logOut, nextSecond, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ME = '/api/v2/admins/me/affiliations';

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
    expect((await logOut(session, PUBLIC_URL)).statusCode).to.equal(303);
    await expectRefused(session.tokens.access_token);
  });

  it("ends only one organisation's sessions after endOrganizationTokens (role change, removal); logout still ends every session", async () => {
    const inOne = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    const inTwo = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000002' });
    await nextSecond();
    await endOrganizationTokens(ctx.db, 1, 2);
    await expectRefused(inTwo.tokens.access_token);
    expect((await call(inOne.tokens.access_token)).statusCode, 'the session of G0000001').to.equal(200);
    const again = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000002' });
    expect((await call(again.tokens.access_token)).statusCode, 'a new session of G0000002').to.equal(200);
    await nextSecond();
    await endAdminTokens(ctx.db, 1);
    await expectRefused(inOne.tokens.access_token);
    await expectRefused(again.tokens.access_token);
  });

  it('refuses the old access token after a password change; the new session works in the same second', async () => {
    const session = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    await nextSecond();
    const change = await changePassword(ctx.app, 1, session.tokens.access_token, DEMO_PASSWORD, 'NewPassw0rd!2026');
    expect(change.statusCode, change.body).to.equal(200);
    await expectRefused(session.tokens.access_token);
    expect((await call(change.json().access_token)).statusCode).to.equal(200);
  });

  it('refuses every earlier access token of the admin once endAdminTokens ran (reset, deletion)', async () => {
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
    // what the deleting instance does at once (on PostgreSQL the trigger's notification comes a moment later)
    tokenValidityChanged(ctx.db, 2);
    await expectRefused(session.tokens.access_token);
  });
});
