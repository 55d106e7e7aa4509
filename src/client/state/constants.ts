/**
 * Client-side timing and limit constants of SPEC sections 2.2, 7, 8 and 9, in one place.
 * Values the spec leaves unlabelled are marked as our choice.
 */

/** A flash message is cleared this long after it is shown (SPEC 2.2, §9). */
export const FLASH_CLEAR_MS = 3800;
/** After the close button, a flash is removed once its closing animation has run (SPEC 2.2, §9). */
export const FLASH_CLOSE_ANIMATION_MS = 800;

/** Default timeout of every API call (SPEC §7, §9). */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** Timeout of subscription create/update calls (SPEC §9); screen calls name it `"timeout": "subscriptionWrite"`. */
export const SUBSCRIPTION_WRITE_TIMEOUT_MS = 600_000;
/** The named timeouts of screen calls (src/common/screens.ts CALL_TIMEOUTS). */
export const CALL_TIMEOUT_MS = { subscriptionWrite: SUBSCRIPTION_WRITE_TIMEOUT_MS } as const;
/** Timeout of the token revoke call (SPEC §9). */
export const TOKEN_REVOKE_TIMEOUT_MS = 10_000;

/** Idempotent calls are retried this many times on a network failure (never on an HTTP status). */
export const NETWORK_RETRIES = 2;
/** Backoff before network retry n (0-based): base × 2^n. */
export const NETWORK_RETRY_BASE_DELAY_MS = 300;

/**
 * Delay between the 'enter your password again' message and the redirect to sign-in with
 * prompt=login (SPEC §4 Re-authentication, §8). The spec does not show the value: our choice.
 */
export const REAUTH_REDIRECT_DELAY_MS = 3000;

/** Every string of an error report is cut to this length (SPEC §8, §9). */
export const ERROR_REPORT_MAX_LENGTH = 1000;

/** Only notices with this target are shown (SPEC 2.2, §9). */
export const NOTICE_TARGET = 'enterprise_portal';

/** The sign-in route (SPEC §7 Identity provider). */
export const SIGNIN_PATH = '/signin';

/** Timeout of an error report, so a slow report never holds back the message the user sees (our choice). */
export const ERROR_REPORT_TIMEOUT_MS = 10_000;

/** Sign-in security (issue 29): where an organisation's two-step rule sends an admin without a second factor. */
export const SECURITY_PATH = '/account/security';
