import { expect } from 'chai';
import sinon from 'sinon';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { createIdentityProvider, normalizeTokenResponse } from '../../../../src/client/features/auth/identityProvider.js';
import { jsonResponse } from '../../api/harness.js';
import { NOW, ORIGIN } from './support.js';

const discovery = {
  issuer: `${ORIGIN}/oidc`,
  authorization_endpoint: `${ORIGIN}/oidc/auth`,
  token_endpoint: `${ORIGIN}/oidc/token`,
  revocation_endpoint: `${ORIGIN}/oidc/token/revocation`,
  end_session_endpoint: `${ORIGIN}/oidc/session/end`,
  jwks_uri: `${ORIGIN}/oidc/jwks`,
};

describe('features/auth identity provider client (SPEC §7 Identity provider)', () => {
  let privateKey: CryptoKey;
  let jwk: JWK;
  let fetch: sinon.SinonStub;
  const tokenBody = {
    access_token: 'at',
    id_token: 'it',
    refresh_token: 'rt',
    token_type: 'Bearer',
    expires_in: 900,
    scope: 'openid organization unique_access_token',
    created_at: 1_743_498_000,
    refresh_token_expires_in: 1_209_600,
  };

  before(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey as CryptoKey;
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  });

  beforeEach(() => {
    fetch = sinon.stub(globalThis, 'fetch').callsFake(async (input: string | URL | Request) => {
      const url = String(input);
      if (url.endsWith('/.well-known/openid-configuration')) return jsonResponse(200, discovery);
      if (url === discovery.jwks_uri) return jsonResponse(200, { keys: [jwk] });
      if (url === discovery.token_endpoint) return jsonResponse(200, tokenBody);
      if (url === discovery.revocation_endpoint) return new Response(null, { status: 200 });
      return jsonResponse(404, {});
    });
  });
  afterEach(() => fetch.restore());

  const provider = () => createIdentityProvider({ origin: ORIGIN, now: () => NOW });
  const idToken = (claims: Record<string, unknown>, options: { audience?: string; issuer?: string; expiresAt?: number; key?: CryptoKey } = {}) =>
    new SignJWT({ glopla_id: 'G0000001', locale: 'ja', nonce: 'the-nonce', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('1')
      .setIssuer(options.issuer ?? discovery.issuer)
      .setAudience(options.audience ?? 'corporate-admin-portal')
      .setIssuedAt(Math.floor(NOW / 1000) - 10)
      .setExpirationTime(options.expiresAt ?? Math.floor(NOW / 1000) + 600)
      .sign(options.key ?? privateKey);

  it('discovery through oidc-client-ts at ${origin}/oidc/.well-known/openid-configuration', async () => {
    const metadata = await provider().metadata();
    expect(metadata).to.deep.equal({
      issuer: discovery.issuer,
      authorizationEndpoint: discovery.authorization_endpoint,
      tokenEndpoint: discovery.token_endpoint,
      jwksUri: discovery.jwks_uri,
      revocationEndpoint: discovery.revocation_endpoint,
      endSessionEndpoint: discovery.end_session_endpoint,
    });
    expect(String(fetch.firstCall.args[0])).to.equal(`${ORIGIN}/oidc/.well-known/openid-configuration`);
  });

  it('code exchange: a form post with the parameters of SPEC §7; the response becomes the session fields', async () => {
    const result = await provider().exchangeCode({ code: 'c', codeVerifier: 'v'.repeat(128) });
    const call = fetch.getCalls().find((c) => String(c.args[0]) === discovery.token_endpoint)!;
    expect((call.args[1] as RequestInit).headers).to.include({ 'content-type': 'application/x-www-form-urlencoded' });
    expect(Object.fromEntries(new URLSearchParams(String((call.args[1] as RequestInit).body)))).to.deep.equal({
      grant_type: 'authorization_code',
      scope: 'openid organization unique_access_token',
      code: 'c',
      redirect_uri: `${ORIGIN}/auth/openid/callback`,
      client_id: 'corporate-admin-portal',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:none',
      code_verifier: 'v'.repeat(128),
    });
    expect(result).to.deep.equal({ accessToken: 'at', idToken: 'it', refreshToken: 'rt', createdAt: 1_743_498_000, expiresIn: 900, refreshTokenExpiresIn: 1_209_600 });
  });

  it('refresh: grant_type=refresh_token, refresh_token, client_id', async () => {
    await provider().refresh('rt');
    const call = fetch.getCalls().find((c) => String(c.args[0]) === discovery.token_endpoint)!;
    expect(Object.fromEntries(new URLSearchParams(String((call.args[1] as RequestInit).body)))).to.deep.equal({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
      client_id: 'corporate-admin-portal',
    });
  });

  it('a token endpoint error is an error carrying status and code', async () => {
    fetch.withArgs(discovery.token_endpoint).resolves(jsonResponse(400, { error: 'invalid_grant' }));
    try {
      await provider().refresh('rt');
      expect.fail('should have thrown');
    } catch (error) {
      expect(error).to.include({ status: 400, code: 'invalid_grant' });
    }
  });

  it('revocation: client_id and token, with a 10 s timeout', async () => {
    await provider().revoke('rt', 'refresh_token');
    const call = fetch.getCalls().find((c) => String(c.args[0]) === discovery.revocation_endpoint)!;
    expect(Object.fromEntries(new URLSearchParams(String((call.args[1] as RequestInit).body)))).to.deep.equal({
      client_id: 'corporate-admin-portal',
      token: 'rt',
      token_type_hint: 'refresh_token',
    });
    expect((call.args[1] as RequestInit).signal).to.be.instanceOf(AbortSignal);
  });

  it('verifies a good ID token against the JWKS and returns its claims', async () => {
    const claims = await provider().verifyIdToken(await idToken({}), 'the-nonce');
    expect(claims).to.include({ glopla_id: 'G0000001', locale: 'ja', sub: '1' });
  });

  it('accepts a token expired less than 300 s ago (leeway), refuses one expired longer ago', async () => {
    await provider().verifyIdToken(await idToken({}, { expiresAt: Math.floor(NOW / 1000) - 200 }), 'the-nonce');
    try {
      await provider().verifyIdToken(await idToken({}, { expiresAt: Math.floor(NOW / 1000) - 400 }), 'the-nonce');
      expect.fail('should have thrown');
    } catch (error) {
      expect((error as { code?: string }).code).to.equal('ERR_JWT_EXPIRED');
    }
  });

  for (const [name, make, nonce] of [
    ['a wrong audience', () => idToken({}, { audience: 'other-client' }), 'the-nonce'],
    ['a wrong issuer', () => idToken({}, { issuer: 'https://evil.example/oidc' }), 'the-nonce'],
    ['another nonce', () => idToken({}), 'other-nonce'],
    ['a bad signature', async () => idToken({}, { key: (await generateKeyPair('RS256')).privateKey as CryptoKey }), 'the-nonce'],
  ] as const) {
    it(`refuses an ID token with ${name}`, async () => {
      const token = await make();
      let failed = false;
      try {
        await provider().verifyIdToken(token, nonce);
      } catch {
        failed = true;
      }
      expect(failed).to.equal(true);
    });
  }

  it('decodes an ID token without verifying it (for glopla_id before verification)', async () => {
    expect(await provider().decodeIdToken(await idToken({}))).to.include({ glopla_id: 'G0000001' });
  });

  it('normalizeTokenResponse: missing created_at is now, a missing refresh lifetime is the access lifetime', () => {
    expect(normalizeTokenResponse({ access_token: 'a', refresh_token: 'r', expires_in: 60 }, NOW)).to.deep.equal({
      accessToken: 'a',
      refreshToken: 'r',
      createdAt: Math.floor(NOW / 1000),
      expiresIn: 60,
      refreshTokenExpiresIn: 60,
    });
  });
});
