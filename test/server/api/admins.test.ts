import { expect } from 'chai';
import { PORTAL_CLIENT_ID } from '../../../src/common/identity.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { PASSWORD_CHANGE_GRANT } from '../../../src/server/idp/passwordChangeGrant.js';
import { authorize, bearer, claimsOf, refresh, signIn, tokenCall } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };

describe('GET /api/v2/admins/me/affiliations', () => {
  const ctx = useTestApp({ env: ENV });

  it("lists the signed-in admin's organisations with role and admin, in snake_case", async () => {
    const response = await ctx.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(await accessToken(ctx.app, { sub: '1' })) });
    expect(response.statusCode).to.equal(200);
    const { affiliations } = response.json();
    expect(affiliations).to.have.length(2);
    expect(affiliations[0]).to.deep.equal({
      role: 'manager',
      organization: { id: 1, glopla_id: 'G0000001', corporation_official_name: '株式会社デモ' },
      admin: { id: 1, first_name: '太郎', last_name: '山田', kana_first_name: 'たろう', kana_last_name: 'やまだ', email: 'manager@example.com' },
    });
    expect(affiliations[1]).to.deep.include({ role: 'member', organization: { id: 2, glopla_id: 'G0000002', corporation_official_name: 'サンプル商事株式会社' } });
  });
});

describe('GET /api/v2/admin/re_authentication_expiration', () => {
  const ctx = useTestApp({ env: { ...ENV, REAUTH_WINDOW: '600' } });
  const now = () => Math.floor(Date.now() / 1000);

  async function expired(authTime: number): Promise<unknown> {
    const response = await ctx.app.inject({ url: '/api/v2/admin/re_authentication_expiration', headers: bearer(await accessToken(ctx.app, { authTime })) });
    expect(response.statusCode).to.equal(200);
    return response.json().is_re_authentication_expired;
  }

  it('is false right after the password was entered', async () => {
    expect(await expired(now() - 5)).to.equal(false);
  });

  it('is true when the last password entry is older than REAUTH_WINDOW', async () => {
    expect(await expired(now() - 601)).to.equal(true);
  });

  it('is false for a token fresh from sign-in', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const response = await ctx.app.inject({ url: '/api/v2/admin/re_authentication_expiration', headers: bearer(session.tokens.access_token) });
    expect(response.json()).to.deep.equal({ is_re_authentication_expired: false });
  });
});

describe('PUT /api/v2/admins/:adminId/password', () => {
  const ctx = useTestApp({ env: ENV });
  const NEW_PASSWORD = 'NewPassw0rd!2026';

  function change(token: string, adminId: number, body: Record<string, unknown>) {
    return ctx.app.inject({ method: 'PUT', url: `/api/v2/admins/${adminId}/password`, headers: bearer(token), payload: body });
  }

  it('answers a wrong current password with 400 current_password_mismatch', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const response = await change(session.tokens.access_token, 2, { current: 'Wrong-passw0rd', new: NEW_PASSWORD });
    expect(response.statusCode).to.equal(400);
    expect(response.json()).to.deep.equal({ error: 'current_password_mismatch' });
  });

  it("refuses to change someone else's password with 403", async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const response = await change(session.tokens.access_token, 1, { current: DEMO_PASSWORD, new: NEW_PASSWORD });
    expect(response.statusCode).to.equal(403);
    expect(response.json()).to.deep.equal({ error: 'forbidden' });
  });

  it('validates the body with schemas/password-change.json (policy, new differs from current)', async () => {
    const token = await accessToken(ctx.app, { sub: '2' });
    const weak = await change(token, 2, { current: DEMO_PASSWORD, new: 'weak' });
    expect(weak.statusCode).to.equal(422);
    expect(weak.json().errors.map((error: { field: string }) => error.field)).to.deep.equal(['new']);
    const same = await change(token, 2, { current: DEMO_PASSWORD, new: DEMO_PASSWORD });
    expect(same.statusCode).to.equal(422);
    expect(same.json().errors[0]).to.include({ field: 'new' });
  });

  it('refuses the password-change grant without a valid ticket', async () => {
    for (const form of [{}, { ticket: 'forged' }] as Array<Record<string, string>>) {
      const response = await tokenCall(ctx.app, { grant_type: PASSWORD_CHANGE_GRANT, client_id: PORTAL_CLIENT_ID, ...form });
      expect(response.statusCode).to.equal(400);
      expect(response.json().error).to.match(/invalid_request|invalid_grant/);
    }
  });

  describe('a successful change', () => {
    let before: Awaited<ReturnType<typeof signIn>>;
    let elsewhere: Awaited<ReturnType<typeof signIn>>;
    let tokens: Record<string, unknown>;

    it('answers with a new session (token response of SPEC §3)', async () => {
      before = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000002' });
      elsewhere = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
      const response = await change(before.tokens.access_token, 1, { current: DEMO_PASSWORD, new: NEW_PASSWORD });
      expect(response.statusCode, response.body).to.equal(200);
      tokens = response.json();
      expect(tokens).to.have.all.keys('access_token', 'refresh_token', 'id_token', 'expires_in', 'created_at', 'refresh_token_expires_in', 'token_type', 'scope');
      expect(tokens.token_type).to.equal('Bearer');
      expect(tokens.expires_in).to.equal(900);
      expect(tokens.created_at).to.be.closeTo(Math.floor(Date.now() / 1000), 30);
      expect(tokens.refresh_token_expires_in).to.be.greaterThan(0);
    });

    it('keeps the organisation of the session and counts as a password just entered', async () => {
      const idClaims = claimsOf(tokens.id_token as string);
      expect(idClaims).to.include({ sub: '1', glopla_id: 'G0000002', aud: PORTAL_CLIENT_ID });
      const accessClaims = claimsOf(tokens.access_token as string);
      expect(accessClaims).to.include({ sub: '1', glopla_id: 'G0000002', aud: `${PUBLIC_URL}/api/v2` });
      expect(accessClaims.auth_time).to.be.closeTo(Math.floor(Date.now() / 1000), 30);
      const reauth = await ctx.app.inject({ url: '/api/v2/admin/re_authentication_expiration', headers: bearer(tokens.access_token as string) });
      expect(reauth.json()).to.deep.equal({ is_re_authentication_expired: false });
    });

    it('the new session works: API calls and refresh', async () => {
      const api = await ctx.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(tokens.access_token as string) });
      expect(api.statusCode).to.equal(200);
      const refreshed = await refresh(ctx.app, tokens.refresh_token as string);
      expect(refreshed.statusCode, refreshed.body).to.equal(200);
      expect(claimsOf(refreshed.json().id_token)).to.include({ glopla_id: 'G0000002' });
      tokens.refresh_token = refreshed.json().refresh_token;
    });

    it("revokes the admin's other refresh tokens, this browser's and other ones", async () => {
      expect((await refresh(ctx.app, before.tokens.refresh_token)).statusCode).to.equal(400);
      expect((await refresh(ctx.app, elsewhere.tokens.refresh_token)).statusCode).to.equal(400);
      // and ends the provider sessions: the password is asked again
      const again = await authorize(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, browser: elsewhere.browser });
      expect(again.lastStatus).to.equal(401);
    });

    it('signs in with the new password only', async () => {
      const result = await signIn(ctx.app, { email: 'manager@example.com', password: NEW_PASSWORD, gloplaId: 'G0000001' });
      expect(claimsOf(result.tokens.id_token!)).to.include({ sub: '1' });
      const hash = await ctx.db.selectFrom('admins').select('passwordHash').where('id', '=', 1).executeTakeFirstOrThrow();
      expect(hash.passwordHash).to.match(/^\$argon2id\$/);
    });
  });
});

describe('PUT /api/v2/admins/:adminId/password: wrong current passwords are throttled like sign-ins (issue 7 finding 10)', () => {
  const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '3', SIGNIN_MAX_ADDRESS_FAILURES: '100' } });

  function change(token: string, current: string) {
    return ctx.app.inject({ method: 'PUT', url: '/api/v2/admins/2/password', headers: bearer(token), payload: { current, new: 'NewPassw0rd!2026' } });
  }

  it('answers 429 too_many_requests with Retry-After once SIGNIN_MAX_FAILURES were wrong, even for the right password', async () => {
    const token = await accessToken(ctx.app, { sub: '2' });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await change(token, `Wrong-passw0rd-${attempt}`)).statusCode, `attempt ${attempt}`).to.equal(400);
    }
    const refused = await change(token, DEMO_PASSWORD);
    expect(refused.statusCode).to.equal(429);
    expect(refused.json()).to.deep.equal({ error: 'too_many_requests' });
    expect(Number(refused.headers['retry-after'])).to.be.within(1, 900);
  });

  it('shares the counts with sign-in: the account is locked there too from this address', async () => {
    const result = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(result.lastStatus).to.equal(429);
  });
});
