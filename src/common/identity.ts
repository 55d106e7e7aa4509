/**
 * What the browser and the embedded identity provider (/oidc) share about sign-in (SPEC §7 Identity provider,
 * §9 sign-in values): the portal's public client, its scopes and redirect paths, the extra authorisation
 * parameters and the ID-token claims both sides read.
 */
import { GATEWAY_PATH } from './singleSignOn.js';

/** The portal's public OpenID Connect client: PKCE S256, no secret. */
export const PORTAL_CLIENT_ID = 'corporate-admin-portal';

/** Scopes requested at sign-in, joined by spaces. */
export const SCOPES = 'openid organization unique_access_token';

/** Mount path of the provider; the issuer is `${origin}${ISSUER_PATH}`. */
export const ISSUER_PATH = '/oidc';

/** The portal route the provider redirects back to with code and state (redirect_uri = origin + this). */
export const CALLBACK_PATH = '/auth/openid/callback';

/** Where the provider sends the browser after end-session (post_logout_redirect_uri = origin + this). */
export const POST_LOGOUT_PATH = '/';

/**
 * Every post-logout redirect the portal's client may ask for: the default, and the single-sign-on gateway, whose
 * glo=true signs out and comes back there to sign in again.
 */
export const POST_LOGOUT_PATHS = [POST_LOGOUT_PATH, GATEWAY_PATH] as const;
export type PostLogoutPath = (typeof POST_LOGOUT_PATHS)[number];

/** The portal's sign-in route; the provider sends a user without an affiliation back here. */
export const SIGNIN_ROUTE = '/signin';

/** Claims of the ID token the portal reads. */
export const CLAIM = {
  /** The chosen organisation's gloplaId. */
  gloplaId: 'glopla_id',
  /** The admin's language. */
  locale: 'locale',
  /** How the admin signed in (RFC 8176): `mfa` after a second step. */
  amr: 'amr',
  /** In the access token, true: the chosen organisation requires two-step sign-in (issue 44: a password-only session is held at set-up). */
  twoStepRequired: 'two_step_required',
} as const;

/** Extra parameters of the authorisation request, besides the standard ones. */
export const AUTHORIZATION_PARAM = {
  /** Always ADMIN_TYPE for this portal. */
  type: 'type',
  /** Ask for this organisation directly (skips the choice when the admin belongs to it). */
  gloplaId: 'glopla_id',
  /** A locale key the provider shows as a message on its sign-in page. */
  errorMessageKey: 'error_message_key',
} as const;

/** Value of `type` in authorisation and end-session requests. */
export const ADMIN_TYPE = 'admin';

/** error_message_key values. */
export const SIGNIN_ERROR = {
  /** The admin has no affiliation, or none matching the requested/returned gloplaId. */
  noOrganizationAffiliation: 'no_organization_affiliation',
} as const;
export type SigninErrorKey = (typeof SIGNIN_ERROR)[keyof typeof SIGNIN_ERROR];

/** Clock tolerance when verifying ID tokens (SPEC §9: id-token leeway 300 s). */
export const ID_TOKEN_CLOCK_TOLERANCE_S = 300;

/**
 * The token endpoint's JSON response (also the body of a successful `PUT admins/{adminId}/password`), snake_case
 * as on the wire. `created_at` is epoch seconds.
 */
export interface TokenEndpointResponse {
  access_token: string;
  id_token?: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
  created_at: number;
  refresh_token_expires_in: number;
}
