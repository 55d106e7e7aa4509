import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  authorizationUrl,
  codeChallengeS256,
  createVerificationState,
  decodeNonce,
  encodeNonce,
  endSessionUrl,
  NONCE_LIFETIME_MS,
  randomString,
  returnPathAfterSignin,
} from '../../../../src/client/features/auth/signinRequest.js';
import { safeReturnPath } from '../../../../src/client/features/auth/returnPath.js';
import { ORIGIN, NOW } from './support.js';

describe('features/auth/signinRequest (SPEC §9 sign-in values)', () => {
  it('state: 32 base-36 characters, different each time', () => {
    const { state } = createVerificationState(ORIGIN, '/', NOW);
    expect(state).to.match(/^[0-9a-z]{32}$/);
    expect(createVerificationState(ORIGIN, '/', NOW).state).to.not.equal(state);
  });

  it('code verifier: 128 RFC 7636 characters; challenge: SHA-256, base64url without padding', async () => {
    const { codeVerifier } = createVerificationState(ORIGIN, '/', NOW);
    expect(codeVerifier).to.match(/^[A-Za-z0-9\-._~]{128}$/);
    const expected = createHash('sha256').update(codeVerifier).digest('base64url');
    expect(await codeChallengeS256(codeVerifier)).to.equal(expected).and.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it('nonce: base64 of JSON {salt (32 characters), returnTo (absolute), expiresAt = now + 1 h}', () => {
    const { nonce } = createVerificationState(ORIGIN, '/account?tab=1', NOW);
    const decoded = JSON.parse(Buffer.from(nonce, 'base64').toString('utf8'));
    expect(Object.keys(decoded)).to.have.members(['salt', 'returnTo', 'expiresAt']);
    expect(decoded.salt).to.match(/^[0-9a-z]{32}$/);
    expect(decoded.returnTo).to.equal(`${ORIGIN}/account?tab=1`);
    expect(decoded.expiresAt).to.equal(NOW + NONCE_LIFETIME_MS).and.equal(NOW + 3_600_000);
  });

  it('nonce round trip keeps any character of the return path', () => {
    const payload = { salt: randomString(32), returnTo: `${ORIGIN}/検索?q=日本`, expiresAt: NOW };
    expect(decodeNonce(encodeNonce(payload))).to.deep.equal(payload);
    expect(decodeNonce('not base64 json')).to.equal(null);
  });

  it('authorisation URL carries the parameters of SPEC §7 and only the optional ones given', async () => {
    const verification = createVerificationState(ORIGIN, '/account', NOW);
    const url = new URL(
      await authorizationUrl(`${ORIGIN}/oidc/auth`, ORIGIN, verification, {
        prompt: 'login',
        gloplaId: 'G0000001',
        errorMessageKey: 'no_organization_affiliation',
        language: 'en',
      }),
    );
    expect(`${url.origin}${url.pathname}`).to.equal(`${ORIGIN}/oidc/auth`);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      response_type: 'code',
      client_id: 'corporate-admin-portal',
      redirect_uri: `${ORIGIN}/auth/openid/callback`,
      scope: 'openid organization unique_access_token',
      state: verification.state,
      nonce: verification.nonce,
      type: 'admin',
      code_challenge: await codeChallengeS256(verification.codeVerifier),
      code_challenge_method: 'S256',
      ui_locales: 'en',
      prompt: 'login',
      error_message_key: 'no_organization_affiliation',
      glopla_id: 'G0000001',
    });
    const plain = new URL(await authorizationUrl(`${ORIGIN}/oidc/auth`, ORIGIN, verification, {}));
    expect(plain.searchParams.has('prompt')).to.equal(false);
    expect(plain.searchParams.has('glopla_id')).to.equal(false);
  });

  it('return path: session storage wins; else path and query of the nonce while it has not expired; never another origin', () => {
    const nonce = encodeNonce({ salt: 'x', returnTo: `${ORIGIN}/account?tab=1#top`, expiresAt: NOW + 1000 });
    expect(returnPathAfterSignin(nonce, ORIGIN, NOW)).to.equal('/account?tab=1');
    expect(returnPathAfterSignin(nonce, ORIGIN, NOW, '/memberships')).to.equal('/memberships');
    expect(returnPathAfterSignin(nonce, ORIGIN, NOW + 1000)).to.equal(undefined);
    const foreign = encodeNonce({ salt: 'x', returnTo: 'https://evil.example/account', expiresAt: NOW + 1000 });
    expect(returnPathAfterSignin(foreign, ORIGIN, NOW)).to.equal(undefined);
  });

  it('only in-portal paths are accepted as return paths', () => {
    expect(safeReturnPath('/account')).to.equal('/account');
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', '', null]) expect(safeReturnPath(bad)).to.equal(undefined);
  });

  it('end-session URL: client_id, post_logout_redirect_uri (portal root), type=admin, id_token_hint', () => {
    const url = new URL(endSessionUrl(`${ORIGIN}/oidc/session/end`, ORIGIN, 'id.token'));
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      client_id: 'corporate-admin-portal',
      post_logout_redirect_uri: `${ORIGIN}/`,
      type: 'admin',
      id_token_hint: 'id.token',
    });
  });
});
