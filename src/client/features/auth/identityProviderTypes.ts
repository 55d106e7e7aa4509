/** The identity provider client the auth sagas use (implemented in identityProvider.ts, replaced by a fake in tests). */
import type { JWTPayload } from 'jose';
import type { TokenResponse } from '../../state/session.js';

export interface ProviderMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
  revocationEndpoint?: string;
  endSessionEndpoint?: string;
}

export interface IdentityProvider {
  metadata(): Promise<ProviderMetadata>;
  /** grant_type=authorization_code with the PKCE verifier. */
  exchangeCode(args: { code: string; codeVerifier: string }): Promise<TokenResponse>;
  /** grant_type=refresh_token. */
  refresh(refreshToken: string): Promise<TokenResponse>;
  /** Revocation endpoint, 10 s timeout. */
  revoke(token: string, tokenTypeHint?: 'access_token' | 'refresh_token'): Promise<void>;
  /** The claims of an ID token, unverified (throws when it is not a JWT). */
  decodeIdToken(idToken: string): Promise<JWTPayload>;
  /** Signature (JWKS), issuer, audience, 300 s leeway and nonce; resolves to the claims. */
  verifyIdToken(idToken: string, expectedNonce: string): Promise<JWTPayload>;
}

export class IdentityProviderError extends Error {
  readonly status?: number;
  readonly code?: string;
  constructor(message: string, options: { cause?: unknown; status?: number; code?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'IdentityProviderError';
    if (options.status !== undefined) this.status = options.status;
    if (options.code !== undefined) this.code = options.code;
  }
}
