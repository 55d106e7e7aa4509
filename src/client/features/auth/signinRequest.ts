/**
 * The sign-in request of SPEC §4 step 1 and §9 'sign-in values', as pure functions over WebCrypto:
 * state of 32 base-36 characters; nonce = base64 of JSON {salt (32 characters), returnTo, expiresAt = now + 1 h};
 * PKCE code verifier of 128 characters and its S256 challenge (base64url, no padding).
 *
 * Why not oidc-client-ts' OidcClient.createSigninRequest: its state id is a 32-hex-character UUID and its code
 * verifier 96 characters (three UUIDs), it keeps its own SigninState format in its own store, and its CryptoUtils
 * are not exported; the spec fixes other formats and a nonce that carries the return path. So these few lines are
 * ours, and oidc-client-ts is used where it fits: discovery (MetadataService, see identityProvider.ts).
 *
 * Not in the first load: the sagas that sign in and out load it as they start (lazySigninRequest.ts).
 */
import { AUTHORIZATION_PARAM, ADMIN_TYPE, CALLBACK_PATH, PORTAL_CLIENT_ID, POST_LOGOUT_PATH, SCOPES, type PostLogoutPath } from '../../../common/identity.js';
import { safeReturnPath } from './returnPath.js';

export const STATE_LENGTH = 32;
export const SALT_LENGTH = 32;
export const CODE_VERIFIER_LENGTH = 128;
/** The nonce's return path is honoured for one hour (SPEC §9). */
export const NONCE_LIFETIME_MS = 60 * 60 * 1000;

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
/** RFC 7636 unreserved characters allowed in a code verifier. */
const VERIFIER_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

/** `length` characters drawn uniformly from `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = BASE36): string {
  const limit = 256 - (256 % alphabet.length);
  let result = '';
  while (result.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit) result += alphabet[byte % alphabet.length];
      if (result.length === length) break;
    }
  }
  return result;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export function base64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface NoncePayload {
  salt: string;
  /** Absolute URL of the page to return to after sign-in. */
  returnTo: string;
  /** Epoch milliseconds after which returnTo is no longer honoured. */
  expiresAt: number;
}

/** base64 of the UTF-8 JSON (a return path may hold any character). */
export function encodeNonce(payload: NoncePayload): string {
  return bytesToBase64(new TextEncoder().encode(JSON.stringify(payload)));
}

export function decodeNonce(nonce: string): NoncePayload | null {
  try {
    const payload = JSON.parse(new TextDecoder().decode(base64ToBytes(nonce))) as Partial<NoncePayload>;
    if (typeof payload.salt !== 'string' || typeof payload.returnTo !== 'string' || typeof payload.expiresAt !== 'number') return null;
    return payload as NoncePayload;
  } catch {
    return null;
  }
}

export async function codeChallengeS256(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** What the browser keeps between sign-in and callback (SPEC §3 Sign-in verification state). */
export interface VerificationState {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface SigninOptions {
  /** Path (+ query) inside the portal to return to; '/' when absent. */
  returnTo?: string;
  prompt?: string;
  gloplaId?: string;
  errorMessageKey?: string;
  /** The page language, sent as ui_locales. */
  language?: string;
}

export function createVerificationState(origin: string, returnTo: string | undefined, now: number): VerificationState {
  const nonce = encodeNonce({
    salt: randomString(SALT_LENGTH),
    returnTo: new URL(safeReturnPath(returnTo) ?? '/', origin).toString(),
    expiresAt: now + NONCE_LIFETIME_MS,
  });
  return { state: randomString(STATE_LENGTH), nonce, codeVerifier: randomString(CODE_VERIFIER_LENGTH, VERIFIER_ALPHABET) };
}

/** The authorisation request URL (SPEC §7 Identity provider, Authorisation). */
export async function authorizationUrl(
  authorizationEndpoint: string,
  origin: string,
  verification: VerificationState,
  options: SigninOptions,
): Promise<string> {
  const url = new URL(authorizationEndpoint);
  const params: Array<[string, string | undefined]> = [
    ['response_type', 'code'],
    ['client_id', PORTAL_CLIENT_ID],
    ['redirect_uri', `${origin}${CALLBACK_PATH}`],
    ['scope', SCOPES],
    ['state', verification.state],
    ['nonce', verification.nonce],
    [AUTHORIZATION_PARAM.type, ADMIN_TYPE],
    ['code_challenge', await codeChallengeS256(verification.codeVerifier)],
    ['code_challenge_method', 'S256'],
    ['ui_locales', options.language],
    ['prompt', options.prompt],
    [AUTHORIZATION_PARAM.errorMessageKey, options.errorMessageKey],
    [AUTHORIZATION_PARAM.gloplaId, options.gloplaId],
  ];
  for (const [name, value] of params) if (value) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * The path to go to after sign-in (SPEC §4 'Return path'): a path kept in session storage wins; otherwise the
 * nonce's returnTo (path and query only, same origin only) while the nonce has not expired; otherwise undefined.
 */
export function returnPathAfterSignin(nonce: string, origin: string, now: number, stored?: string | null): string | undefined {
  const fromStorage = safeReturnPath(stored);
  if (fromStorage) return fromStorage;
  const payload = decodeNonce(nonce);
  if (!payload || payload.expiresAt <= now) return undefined;
  try {
    const url = new URL(payload.returnTo, origin);
    if (url.origin !== origin) return undefined;
    return `${url.pathname}${url.search}`;
  } catch {
    return undefined;
  }
}

/** The provider's logout URL (SPEC §4 Session, §7 Logout): client_id, post_logout_redirect_uri, type=admin, id_token_hint. */
export function endSessionUrl(endSessionEndpoint: string, origin: string, idToken?: string | null, postLogoutPath: PostLogoutPath = POST_LOGOUT_PATH): string {
  const url = new URL(endSessionEndpoint);
  url.searchParams.set('client_id', PORTAL_CLIENT_ID);
  url.searchParams.set('post_logout_redirect_uri', `${origin}${postLogoutPath}`);
  url.searchParams.set(AUTHORIZATION_PARAM.type, ADMIN_TYPE);
  if (idToken) url.searchParams.set('id_token_hint', idToken);
  return url.toString();
}
