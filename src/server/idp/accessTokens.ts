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

export function createAccessTokenVerifier({ issuer, audience, jwks, clockTolerance = 0 }: VerifierOptions): AccessTokenVerifier {
  const keySet = createLocalJWKSet(jwks);
  return async (token) => {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keySet, { issuer, audience, typ: 'at+jwt', algorithms: ['RS256'], clockTolerance, requiredClaims: ['sub', 'exp', 'iat'] }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AccessTokenError(API_ERROR.accessTokenExpired, error.message);
      throw new AccessTokenError(API_ERROR.invalidAccessToken, error instanceof Error ? error.message : String(error));
    }
    if (typeof payload.sub !== 'string' || !/^\d+$/.test(payload.sub)) throw new AccessTokenError(API_ERROR.invalidAccessToken, 'sub is not an admin id');
    return {
      adminId: Number(payload.sub),
      authTime: typeof payload.auth_time === 'number' ? payload.auth_time : undefined,
      gloplaId: typeof payload.glopla_id === 'string' ? payload.glopla_id : undefined,
      issuedAt: payload.iat!,
      expiresAt: payload.exp!,
    };
  };
}
