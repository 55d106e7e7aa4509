/**
 * Local verification of the provider's JWT access tokens (issue 3 §3): signature with the provider's public keys
 * (no call to the provider), issuer, audience (the portal API), type at+jwt and expiry.
 */
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet } from 'jose';
import { API_ERROR } from '../../common/errorCodes.js';

export interface AccessTokenClaims {
  /** The admin's id (the token's sub). */
  adminId: number;
  /** Epoch seconds of the last password entry. */
  authTime: number | undefined;
  /** The organisation chosen at sign-in. */
  gloplaId: string | undefined;
  /** How the admin signed in (RFC 8176: pwd; otp and mfa after a second step). */
  amr: readonly string[];
  /** Epoch seconds of the session's last second step (mfa_time), when it made one. */
  secondStepTime: number | undefined;
  /** The single-sign-on connection the session was signed in through (sso_connection; issue 45). */
  ssoConnectionId: string | undefined;
  /** Epoch seconds. */
  issuedAt: number;
  /** Epoch seconds. */
  expiresAt: number;
}

export type AccessTokenErrorCode = typeof API_ERROR.accessTokenExpired | typeof API_ERROR.invalidAccessToken;

export class AccessTokenError extends Error {
  constructor(
    readonly code: AccessTokenErrorCode,
    message: string = code,
  ) {
    super(message);
    this.name = 'AccessTokenError';
  }
}

export interface VerifierOptions {
  issuer: string;
  audience: string;
  jwks: JSONWebKeySet;
  /** Seconds of tolerated clock skew; default 0. */
  clockTolerance?: number;
}

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims>;

/** Verified tokens kept at most (about a kilobyte each, with the token itself as the key). */
export const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

interface Verified {
  claims: AccessTokenClaims;
  /** The token's nbf, when it has one (epoch seconds). */
  notBefore: number | undefined;
}

/**
 * A verifier of the provider's access tokens. The browser sends the same token with every call until it refreshes it,
 * and the RS256 signature check took a tenth to a fifth of an authenticated read's CPU (issue 20): a token that verified is
 * kept, keyed by the whole token string (signature included: any other string, a forged one too, is verified in full),
 * with its claims until it expires; the least recently used goes first beyond `cacheSize`. The keys are fixed for the
 * verifier's life (the provider's signing keys are read at start). Expiry and nbf are checked on every hit as jose
 * checks them, and a token past them is verified in full again, so it is refused with jose's error exactly as before.
 * Revocation is not this cache's business: the caller asks tokens_valid_after on every call (api/auth.ts).
 */
export function createAccessTokenVerifier({ issuer, audience, jwks, clockTolerance = 0 }: VerifierOptions, cacheSize = VERIFIED_TOKEN_CACHE_SIZE): AccessTokenVerifier {
  const keySet = createLocalJWKSet(jwks);
  const verified = new Map<string, Verified>();

  async function verify(token: string): Promise<Verified> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keySet, { issuer, audience, typ: 'at+jwt', algorithms: ['RS256'], clockTolerance, requiredClaims: ['sub', 'exp', 'iat'] }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AccessTokenError(API_ERROR.accessTokenExpired, error.message);
      throw new AccessTokenError(API_ERROR.invalidAccessToken, error instanceof Error ? error.message : String(error));
    }
    if (typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub)) throw new AccessTokenError(API_ERROR.invalidAccessToken, 'sub is not an admin id');
    const claims: AccessTokenClaims = Object.freeze({
      adminId: Number(payload.sub),
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : undefined,
      amr: Array.isArray(payload.amr) ? payload.amr.filter((method): method is string => typeof method === 'string') : [],
      secondStepTime: typeof payload.mfa_time === 'number' ? payload.mfa_time : undefined,
      gloplaId: typeof payload.glopla_id === 'string' ? payload.glopla_id : undefined,
      ssoConnectionId: typeof payload.sso_connection === 'string' ? payload.sso_connection : undefined,
      issuedAt: payload.iat!,
      expiresAt: payload.exp!,
    });
    return { claims, notBefore: payload.nbf };
  }

  return async (token) => {
    const kept = verified.get(token);
    if (kept) {
      verified.delete(token);
      // jose's own checks: expired when exp <= now - tolerance, not yet valid when nbf > now + tolerance
      const now = Math.floor(Date.now() / 1000);
      if (kept.claims.expiresAt > now - clockTolerance && (kept.notBefore === undefined || kept.notBefore <= now + clockTolerance)) {
        verified.set(token, kept); // most recently used last: the first key is the one to evict
        return kept.claims;
      }
    }
    const fresh = await verify(token);
    verified.set(token, fresh);
    if (verified.size > cacheSize) verified.delete(verified.keys().next().value!);
    return fresh.claims;
  };
}
