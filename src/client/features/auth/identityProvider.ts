/**
 * The browser's side of the embedded identity provider (SPEC §7 Identity provider): discovery, code exchange,
 * refresh, revocation, end-session URL and ID-token verification.
 *
 * - Discovery uses oidc-client-ts' MetadataService (fetches and caches /.well-known/openid-configuration).
 * - The token calls are our own form posts: the spec fixes their parameters (client_assertion_type none and scope on
 *   the code exchange) and reads created_at / refresh_token_expires_in, which oidc-client-ts' token client neither
 *   sends nor keeps.
 * - oidc-client-ts does not verify ID-token signatures; jose does, against the provider's JWKS: issuer, audience
 *   (the portal's client id), 300 s clock tolerance, and the nonce we sent.
 *
 * This module and its libraries are a chunk of their own (see lazyIdentityProvider.ts): nothing here is needed
 * before the first sign-in, refresh or logout.
 */
import { createLocalJWKSet, decodeJwt, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import { MetadataService, OidcClientSettingsStore } from 'oidc-client-ts';
import {
  CALLBACK_PATH,
  ID_TOKEN_CLOCK_TOLERANCE_S,
  ISSUER_PATH,
  PORTAL_CLIENT_ID,
  SCOPES,
} from '../../../common/identity.js';
import { toCamelKeys } from '../../api/caseConversion.js';
import { DEFAULT_TIMEOUT_MS, TOKEN_REVOKE_TIMEOUT_MS } from '../../state/constants.js';
import type { TokenResponse } from '../../state/session.js';
import { IdentityProviderError, type IdentityProvider, type ProviderMetadata } from './identityProviderTypes.js';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

export interface IdentityProviderOptions {
  /** The portal's origin, e.g. 'https://portal.example.com'. */
  origin: string;
  /** For the token, revocation and JWKS calls; default the global fetch. */
  fetch?: Fetch;
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

/** camelCased token endpoint JSON → TokenResponse; a missing created_at means now, a missing refresh lifetime the access one. */
export function normalizeTokenResponse(json: unknown, nowMs: number): TokenResponse {
  const body = toCamelKeys<Record<string, unknown>>(json ?? {});
  if (typeof body.accessToken !== 'string' || typeof body.refreshToken !== 'string') {
    throw new IdentityProviderError('token response without access_token or refresh_token');
  }
  const expiresIn = Number(body.expiresIn ?? 0);
  const response: TokenResponse = {
    accessToken: body.accessToken,
    refreshToken: body.refreshToken,
    createdAt: typeof body.createdAt === 'number' ? body.createdAt : Math.floor(nowMs / 1000),
    expiresIn,
    refreshTokenExpiresIn: typeof body.refreshTokenExpiresIn === 'number' ? body.refreshTokenExpiresIn : expiresIn,
  };
  if (typeof body.idToken === 'string') response.idToken = body.idToken;
  return response;
}

export function createIdentityProvider(options: IdentityProviderOptions): IdentityProvider {
  const { origin } = options;
  const fetchFn: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const issuer = `${origin}${ISSUER_PATH}`;
  const redirectUri = `${origin}${CALLBACK_PATH}`;
  const metadataService = new MetadataService(
    new OidcClientSettingsStore({ authority: issuer, client_id: PORTAL_CLIENT_ID, redirect_uri: redirectUri }),
  );
  let jwks: ReturnType<typeof createLocalJWKSet> | undefined;

  async function metadata(): Promise<ProviderMetadata> {
    let raw;
    try {
      raw = await metadataService.getMetadata();
    } catch (cause) {
      throw new IdentityProviderError('discovery failed', { cause });
    }
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const required = (name: 'issuer' | 'authorization_endpoint' | 'token_endpoint' | 'jwks_uri') => {
      const value = text(raw[name]);
      if (!value) throw new IdentityProviderError(`discovery without ${name}`);
      return value;
    };
    return {
      issuer: required('issuer'),
      authorizationEndpoint: required('authorization_endpoint'),
      tokenEndpoint: required('token_endpoint'),
      jwksUri: required('jwks_uri'),
      revocationEndpoint: text(raw.revocation_endpoint),
      endSessionEndpoint: text(raw.end_session_endpoint),
    };
  }

  async function post(url: string, form: Record<string, string>, timeoutMs: number): Promise<Response> {
    try {
      return await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new IdentityProviderError(`POST ${url} failed: network error or timeout`, { cause });
    }
  }

  async function tokenCall(form: Record<string, string>): Promise<TokenResponse> {
    const { tokenEndpoint } = await metadata();
    const response = await post(tokenEndpoint, form, DEFAULT_TIMEOUT_MS);
    const body = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!response.ok) {
      const code = typeof body?.error === 'string' ? body.error : undefined;
      throw new IdentityProviderError(`token endpoint answered ${response.status}${code ? ` (${code})` : ''}`, { status: response.status, code });
    }
    return normalizeTokenResponse(body, now());
  }

  async function keySet(reload: boolean) {
    if (!jwks || reload) {
      const { jwksUri } = await metadata();
      const response = await fetchFn(jwksUri, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new IdentityProviderError(`JWKS answered ${response.status}`, { status: response.status });
      jwks = createLocalJWKSet((await response.json()) as JSONWebKeySet);
    }
    return jwks;
  }

  return {
    metadata,

    exchangeCode: ({ code, codeVerifier }) =>
      tokenCall({
        grant_type: 'authorization_code',
        scope: SCOPES,
        code,
        redirect_uri: redirectUri,
        client_id: PORTAL_CLIENT_ID,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:none',
        code_verifier: codeVerifier,
      }),

    refresh: (refreshToken) => tokenCall({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: PORTAL_CLIENT_ID }),

    async revoke(token, tokenTypeHint) {
      const { revocationEndpoint } = await metadata();
      if (!revocationEndpoint) return;
      const form: Record<string, string> = { client_id: PORTAL_CLIENT_ID, token };
      if (tokenTypeHint) form.token_type_hint = tokenTypeHint;
      const response = await post(revocationEndpoint, form, TOKEN_REVOKE_TIMEOUT_MS);
      if (!response.ok) throw new IdentityProviderError(`revocation answered ${response.status}`, { status: response.status });
    },

    decodeIdToken: async (idToken) => decodeJwt(idToken),

    async verifyIdToken(idToken, expectedNonce) {
      const { issuer: expectedIssuer } = await metadata();
      const verify = async (reload: boolean): Promise<JWTPayload> =>
        (
          await jwtVerify(idToken, await keySet(reload), {
            issuer: expectedIssuer,
            audience: PORTAL_CLIENT_ID,
            clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_S,
            algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
            currentDate: new Date(now()),
          })
        ).payload;
      let payload: JWTPayload;
      try {
        payload = await verify(false);
      } catch (error) {
        // the provider may have rotated its keys since the set was cached: fetch it once more
        if ((error as { code?: string }).code !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
        payload = await verify(true);
      }
      if (payload.nonce !== expectedNonce) throw new IdentityProviderError('ID token nonce does not match');
      return payload;
    },
  };
}
