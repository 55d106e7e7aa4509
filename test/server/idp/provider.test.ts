import { expect } from 'chai';
import { CALLBACK_PATH, ISSUER_PATH, PORTAL_CLIENT_ID, SCOPES } from '../../../src/common/identity.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorize, Browser, claimsOf, bearer, confirmLogout, endSession, exchangeCode, refresh, signIn, tokenCall } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';

describe('identity provider: the code flow over HTTP', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });

  it("publishes discovery with the issuer, the endpoints, S256, the public client method and the API clients' (issue 46)", async () => {
    const response = await ctx.app.inject({ url: `${ISSUER_PATH}/.well-known/openid-configuration` });
    expect(response.statusCode).to.equal(200);
    const discovery = response.json();
    expect(discovery.issuer).to.equal(`${PUBLIC_URL}/oidc`);
    for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'revocation_endpoint', 'end_session_endpoint']) {
      expect(discovery[endpoint], endpoint).to.match(/\/oidc\//);
    }
    expect(discovery.code_challenge_methods_supported).to.deep.equal(['S256']);
    // none: the portal; the organisations' API clients: their secret, or a key they registered (issue 46)
    expect(discovery.token_endpoint_auth_methods_supported).to.deep.equal(['none', 'client_secret_basic', 'private_key_jwt']);
    expect(discovery.scopes_supported).to.include.members(SCOPES.split(' '));
    expect(discovery.grant_types_supported).to.include.members(['authorization_code', 'refresh_token', 'client_credentials']);
  });

  it('publishes only public keys at the JWKS endpoint', async () => {
    const { keys } = (await ctx.app.inject({ url: `${ISSUER_PATH}/jwks` })).json();
    expect(keys).to.have.length(1);
    expect(keys[0]).to.include({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(keys[0]).to.not.have.any.keys('d', 'p', 'q', 'dp', 'dq', 'qi');
  });

  it('refuses an authorisation request without PKCE', async () => {
    const browser = new Browser(ctx.app);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: PORTAL_CLIENT_ID,
      redirect_uri: `${PUBLIC_URL}${CALLBACK_PATH}`,
      scope: SCOPES,
      state: 'state1',
    });
    const response = await browser.get(`${ISSUER_PATH}/auth?${query}`);
    expect(response.statusCode).to.equal(303);
    const redirect = new URL(response.headers.location as string);
    expect(redirect.pathname).to.equal(CALLBACK_PATH);
    expect(redirect.searchParams.get('error')).to.equal('invalid_request');
  });

  it('refuses a redirect URI that is not the portal callback', async () => {
    const browser = new Browser(ctx.app);
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: PORTAL_CLIENT_ID,
      redirect_uri: 'https://evil.example.com/callback',
      scope: SCOPES,
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const response = await browser.get(`${ISSUER_PATH}/auth?${query}`);
    expect(response.statusCode).to.equal(400);
    expect(response.headers['content-type']).to.match(/text\/html/);
    expect(response.body).to.not.match(/<script|style=/);
  });

  describe('a full sign-in: PKCE, sign-in form, organisation, tokens, refresh, revocation, end-session', () => {
    let result: Awaited<ReturnType<typeof signIn>>;

    before(async () => {
      result = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, nonce: 'nonce-1', state: 'state-1' });
    });

    it('returns to the portal callback with the code and the state', () => {
      expect(`${result.redirect.origin}${result.redirect.pathname}`).to.equal(`${PUBLIC_URL}${CALLBACK_PATH}`);
      expect(result.redirect.searchParams.get('state')).to.equal('state-1');
      expect(result.choiceShown).to.equal(false);
    });

    it('answers the token request with the session fields of SPEC §3', () => {
      const { tokens } = result;
      expect(tokens).to.include.keys('access_token', 'refresh_token', 'id_token', 'expires_in', 'created_at', 'refresh_token_expires_in', 'token_type', 'scope');
      expect(tokens.token_type).to.equal('Bearer');
      expect(tokens.expires_in).to.equal(900);
      // SESSION_IDLE_TIMEOUT (30 min): unused that long, the refresh token and the session end
      expect(tokens.refresh_token_expires_in).to.equal(1800);
      expect(tokens.created_at).to.be.closeTo(Math.floor(Date.now() / 1000), 30);
    });

    it('puts sub, glopla_id, locale and the nonce in the ID token', () => {
      const claims = claimsOf(result.tokens.id_token!);
      expect(claims).to.include({ sub: '2', glopla_id: 'G0000001', locale: 'ja-JP', nonce: 'nonce-1', aud: PORTAL_CLIENT_ID, iss: `${PUBLIC_URL}/oidc` });
    });

    it('issues a JWT access token for the API with auth_time and glopla_id', () => {
      const [header] = result.tokens.access_token.split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).to.include({ typ: 'at+jwt', alg: 'RS256' });
      const claims = claimsOf(result.tokens.access_token);
      expect(claims).to.include({ sub: '2', aud: `${PUBLIC_URL}/api/v2`, iss: `${PUBLIC_URL}/oidc`, glopla_id: 'G0000001', client_id: PORTAL_CLIENT_ID });
      expect(claims.auth_time).to.be.closeTo(Math.floor(Date.now() / 1000), 30);
      expect((claims.exp as number) - (claims.iat as number)).to.equal(900);
    });

    it('refuses a second exchange of the same code, and revokes what the first one gave', async () => {
      const other = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      const error = await exchangeCode(ctx.app, other).then(
        () => undefined,
        (failure: Error) => failure,
      );
      expect(error?.message).to.match(/400.*invalid_grant/);
      expect((await refresh(ctx.app, other.tokens.refresh_token)).statusCode).to.equal(400);
    });

    it('rotates the refresh token; the old one is refused afterwards', async () => {
      const first = await refresh(ctx.app, result.tokens.refresh_token);
      expect(first.statusCode, first.body).to.equal(200);
      const rotated = first.json();
      expect(rotated.refresh_token).to.be.a('string').and.not.equal(result.tokens.refresh_token);
      expect(rotated).to.include.keys('created_at', 'refresh_token_expires_in', 'id_token');
      expect(rotated.refresh_token_expires_in).to.be.at.most(result.tokens.refresh_token_expires_in);
      expect(claimsOf(rotated.id_token)).to.include({ glopla_id: 'G0000001' });
      expect(claimsOf(rotated.access_token).auth_time).to.equal(claimsOf(result.tokens.access_token).auth_time);
      const api = await ctx.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(rotated.access_token) });
      expect(api.statusCode).to.equal(200);

      const reused = await refresh(ctx.app, result.tokens.refresh_token);
      expect(reused.statusCode).to.equal(400);
      expect(reused.json().error).to.equal('invalid_grant');
      // reuse of a rotated token revokes the whole grant
      expect((await refresh(ctx.app, rotated.refresh_token)).statusCode).to.equal(400);
    });

    it('ends the access tokens already minted in a grant whose refresh token is presented again (issue 25 finding 8)', async () => {
      // an admin no other test of this file signs in: the reuse ends this admin's tokens of the current second
      const session = await signIn(ctx.app, { email: 'support@example.com', password: DEMO_PASSWORD });
      const first = (await refresh(ctx.app, session.tokens.refresh_token)).json();
      const affiliations = (token: string) => ctx.app.inject({ url: '/api/v2/admins/me/affiliations', headers: bearer(token) });
      expect((await affiliations(first.access_token)).statusCode).to.equal(200);
      expect((await refresh(ctx.app, session.tokens.refresh_token)).statusCode).to.equal(400);
      for (const token of [first.access_token, session.tokens.access_token]) {
        const refused = await affiliations(token);
        expect(refused.statusCode).to.equal(401);
        expect(refused.json().error).to.equal('invalid_access_token');
      }
    });

    it('revokes a refresh token at the revocation endpoint', async () => {
      const again = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      const revoked = await ctx.app.inject({
        method: 'POST',
        url: `${ISSUER_PATH}/token/revocation`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ client_id: PORTAL_CLIENT_ID, token: again.tokens.refresh_token }).toString(),
      });
      expect(revoked.statusCode).to.equal(200);
      const refused = await refresh(ctx.app, again.tokens.refresh_token);
      expect(refused.statusCode).to.equal(400);
      expect(refused.json().error).to.equal('invalid_grant');
    });

    it('signs out at the end-session endpoint and lands on the portal root', async () => {
      const browser = new Browser(ctx.app);
      const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, browser });
      const page = await endSession(browser, PUBLIC_URL, session.tokens.id_token);
      expect(page.statusCode).to.equal(200);
      expect(page.body).to.match(/<script src="\/oidc\/assets\/logout\.js" defer><\/script>/);
      expect(page.body).to.not.match(/<script>|style=/);
      const confirmed = await confirmLogout(browser, page);
      expect(confirmed.statusCode).to.equal(303);
      expect(confirmed.headers.location).to.equal(`${PUBLIC_URL}/`);
      // the session's grant is gone with it
      expect((await refresh(ctx.app, session.tokens.refresh_token)).statusCode).to.equal(400);
      // and the provider asks for the password again
      const next = await authorize(ctx.app, { email: 'member@example.com', password: 'wrong', browser });
      expect(next.lastStatus).to.equal(401);
      expect(next.lastPage).to.contain('name="password"');
    });
  });

  it('signs out without a provider session too (its page has no inline script either)', async () => {
    const browser = new Browser(ctx.app);
    const page = await endSession(browser, PUBLIC_URL);
    expect(page.statusCode).to.equal(200);
    expect(page.body).to.not.match(/<script>|Submitting Callback/);
    expect(String(page.headers['content-security-policy'])).to.not.contain('sha256-');
    const confirmed = await confirmLogout(browser, page);
    expect(confirmed.statusCode).to.equal(303);
    expect(confirmed.headers.location).to.equal(`${PUBLIC_URL}/`);
  });

  it('keeps the provider session: a second authorisation signs in without the password and replaces the first grant', async () => {
    const first = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const second = await signIn(ctx.app, { email: 'unused', password: 'unused', browser: first.browser });
    expect(second.lastPage).to.equal(undefined);
    expect(claimsOf(second.tokens.id_token!)).to.include({ sub: '2', glopla_id: 'G0000001' });
    // tokens are bound to the provider session's current grant: the earlier refresh token is no longer valid
    expect((await refresh(ctx.app, first.tokens.refresh_token)).statusCode).to.equal(400);
    expect((await refresh(ctx.app, second.tokens.refresh_token)).statusCode).to.equal(200);
  });

  it('asks for the password again with prompt=login, with a new auth_time', async function () {
    this.timeout(20_000);
    const first = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const refused = await authorize(ctx.app, { email: 'member@example.com', password: 'not-the-password', prompt: 'login', browser: first.browser });
    expect(refused.lastStatus).to.equal(401);
    const again = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, prompt: 'login', browser: first.browser, gloplaId: 'G0000001' });
    expect(claimsOf(again.tokens.access_token).auth_time).to.be.greaterThan(claimsOf(first.tokens.access_token).auth_time as number);
  });

  it('adds created_at and refresh_token_expires_in only to successful token responses', async () => {
    const response = await tokenCall(ctx.app, { grant_type: 'refresh_token', refresh_token: 'nope', client_id: PORTAL_CLIENT_ID });
    expect(response.statusCode).to.equal(400);
    expect(response.json()).to.not.have.any.keys('created_at', 'refresh_token_expires_in');
  });
});
