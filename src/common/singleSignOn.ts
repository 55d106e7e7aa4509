/**
 * What the browser and the server share about the single-sign-on gateway (SPEC 2.3, §3 Single-sign-on tokens, §7
 * Single-sign-on forwarding): the gateway's route and query, and the parameters the browser carries to the partner.
 * The token design (what each field carries, how a partner verifies them) is in README 'Single-sign-on gateway'.
 */

/** The gateway route (SPEC 2.1). Also a post-logout redirect of the provider: `glo=true` signs out and comes back here. */
export const GATEWAY_PATH = '/auth/gateway';

/** The gateway's query: partner product code, the partner's own state (echoed unchanged), language, forced sign-out. */
export const GATEWAY_QUERY = { productCode: 'gpc', state: 'gss', language: 'gul', signOutFirst: 'glo' } as const;

/** The parameters the browser adds to the partner's authUrl (SPEC §7), besides projectId and projectCode. */
export const FORWARDED_TOKEN_FIELDS = ['guq', 'gss', 'gui', 'gsg', 'ghs', 'gul'] as const;
/** The organisation's gloplaId, added by the browser from the session. */
export const ORGANIZATION_PARAM = 'goi';

/** The product whose forwarding also carries projectId and projectCode (SPEC §7, §9). */
export const PROJECT_PRODUCT_ID = 4;
/** The local-storage keys (and query parameter names) of the project, read once and then removed. */
export const PROJECT_FIELDS = ['projectId', 'projectCode'] as const;

/** The partner state's limits: at most this long, no line break, no surrounding white space (it is signed as is). */
export const STATE_MAX_LENGTH = 512;
export const STATE_PATTERN = '^(?:\\S(?:[^\\r\\n]*\\S)?)?$';

/** Upper bound (and default) of SINGLE_SIGN_ON_TOKEN_TTL, seconds: the tokens expire within 60 seconds. */
export const MAX_TOKEN_TTL_SECONDS = 60;
