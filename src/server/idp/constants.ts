/** Values of the embedded identity provider that several of its modules (and the API) share. */
import { ISSUER_PATH } from '../../common/identity.js';
import type { Config } from '../config.js';

/** Every scope the provider knows; the portal asks for all of them. */
export const SUPPORTED_SCOPES = ['openid', 'organization', 'unique_access_token'] as const;
/** The scopes that also go to the API's access token. */
export const API_SCOPES = ['organization', 'unique_access_token'] as const;
/** Cookie remembering the sign-in pages' language. */
export const LANGUAGE_COOKIE = 'idp_lang';

export function issuerOf(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}${ISSUER_PATH}`;
}

/** The resource indicator and audience of the portal API's access tokens. */
export function apiAudienceOf(config: Pick<Config, 'publicUrl'>): string {
  return `${config.publicUrl}/api/v2`;
}

/** An https PUBLIC_URL: the provider's cookies (and ours on its pages) are Secure. */
export function isSecureUrl(publicUrl: string): boolean {
  return publicUrl.startsWith('https:');
}

/**
 * The authentication context classes the provider names in `acr` (issue 29): a password only, or two steps (a second
 * factor, or a passkey with user verification). A client asking `acr_values=…two-step` gets the second step.
 */
export const ACR = { password: 'urn:corporate-admin-portal:acr:password', twoStep: 'urn:corporate-admin-portal:acr:two-step' } as const;
