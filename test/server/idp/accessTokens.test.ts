import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { SignJWT, importJWK, type JSONWebKeySet, type JWK } from 'jose';
import sinon from 'sinon';
import { AccessTokenError, createAccessTokenVerifier } from '../../../src/server/idp/accessTokens.js';

const ISSUER = 'http://localhost:3000/oidc';
const AUDIENCE = 'http://localhost:3000/api';

function keyPair(kid: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateJwk: { ...(privateKey.export({ format: 'jwk' }) as JWK), kid }, publicJwk: { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'RS256', use: 'sig' } };
}

const { privateJwk, publicJwk } = keyPair('k1');
const jwks = { keys: [publicJwk] } as JSONWebKeySet;

async function token(options: { sub?: string; expiresIn?: number; notBefore?: number; jwk?: JWK } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ glopla_id: 'G0000001', auth_time: now })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'k1' })
    .setSubject(options.sub ?? '1')
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 900));
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  return jwt.sign(await importJWK(options.jwk ?? privateJwk, 'RS256'));
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(AccessTokenError);
    return (error as AccessTokenError).code;
  }
  throw new Error('the token was accepted');
}

describe('server/idp/accessTokens: the verifier keeps the tokens it verified (issue 20)', () => {
  afterEach(() => sinon.restore());

  it('answers a kept token with the same claims, and verifies each token string on its own', async () => {
    const verify = createAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    const good = await token({ sub: '7' });
    const first = await verify(good);
    expect(await verify(good)).to.deep.equal(first);
    expect(first).to.include({ adminId: 7, gloplaId: 'G0000001' });
    // the kept token's header and claims with another signature: a different string, verified in full
    const [header, payload] = good.split('.');
    const [, , foreignSignature] = (await token({ sub: '7', jwk: keyPair('k1').privateJwk })).split('.');
    expect(await refusal(verify(`${header}.${payload}.${foreignSignature}`))).to.equal('invalid_access_token');
    expect(await verify(good)).to.deep.equal(first);
  });

  it('refuses a kept token once it expired (access_token_expired), as jose does', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const verify = createAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    const shortLived = await token({ expiresIn: 60 });
    expect((await verify(shortLived)).adminId).to.equal(1);
    clock.tick(59_000);
    expect((await verify(shortLived)).adminId).to.equal(1);
    clock.tick(1_000);
    expect(await refusal(verify(shortLived))).to.equal('access_token_expired');
    expect(await refusal(verify(shortLived))).to.equal('access_token_expired');
  });

  it('refuses a kept token whose nbf is ahead of the clock', async () => {
    const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
    const verify = createAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks });
    const notBefore = Math.floor(Date.now() / 1000);
    const later = await token({ notBefore });
    expect((await verify(later)).adminId).to.equal(1);
    clock.setSystemTime(Date.now() - 5_000); // the clock set back
    expect(await refusal(verify(later))).to.equal('invalid_access_token');
  });

  it('keeps at most cacheSize tokens, and verifies the ones it let go again', async () => {
    const verify = createAccessTokenVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks }, 1);
    const [one, two] = [await token({ sub: '1' }), await token({ sub: '2' })];
    for (let round = 0; round < 3; round += 1) {
      expect((await verify(one)).adminId).to.equal(1);
      expect((await verify(two)).adminId).to.equal(2);
    }
  });
});
