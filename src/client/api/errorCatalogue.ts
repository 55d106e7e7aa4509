/**
 * The general handling of SPEC §8, implemented once; callApi runs it for every failed call that the
 * caller's `handle` does not claim.
 *
 * | situation                                        | result                                                    |
 * |--------------------------------------------------|-----------------------------------------------------------|
 * | 401 access_token_expired / invalid_access_token  | error flash errors.sessionExpired                         |
 * | error reauthentication_expired                   | error flash errors.reauthenticationExpired, then after    |
 * |                                                  | REAUTH_REDIRECT_DELAY_MS /signin?prompt=login&returnTo=…  |
 * | 409 admin_already_deleted                        | error flash errors.adminAlreadyDeleted                    |
 * | 403 mfa_required (the organisation's rule)       | warning flash errors.mfaRequired, navigate to Sign-in     |
 * |                                                  | security (/account/security) to set up a second factor    |
 * | any 403                                          | navigate to /signin                                       |
 * | any 503                                          | warning flash errors.maintenance                          |
 * | any 429 (too_many_requests: a rate limit)        | error flash errors.tooManyRequests                        |
 * | 412 precondition_failed (changed meanwhile)      | error flash errors.changedMeanwhile: who and when         |
 * | timeout                                          | error flash errors.timeout                                |
 * | no status, not a timeout                         | error flash errors.network                                |
 * | anything else                                    | report (strings cut at 1000), then errors.unexpected      |
 */
import { call, delay, put, select, spawn } from 'redux-saga/effects';
import { API_ERROR } from '../../common/errorCodes.js';
import { REAUTH_REDIRECT_DELAY_MS, SECURITY_PATH, SIGNIN_PATH } from '../state/constants.js';
import { flashShown, type FlashKind } from '../state/flash.js';
import type { SessionRootState } from '../state/session.js';
import { currentPathFromContext, navigateTo } from './context.js';
import { isApiError } from './http.js';
import { errorReportFor, reportError } from './report.js';

export type GeneralHandling =
  | 'sessionExpired'
  | 'reauthenticationExpired'
  | 'adminAlreadyDeleted'
  | 'mfaRequired'
  | 'forbidden'
  | 'maintenance'
  | 'tooManyRequests'
  | 'changedMeanwhile'
  | 'timeout'
  | 'network'
  | 'unexpected';

/** The flash each row shows (forbidden shows none, it redirects). */
export const GENERAL_HANDLING_FLASH: Record<GeneralHandling, { kind: FlashKind; messageKey: string } | null> = {
  sessionExpired: { kind: 'error', messageKey: 'errors.sessionExpired' },
  reauthenticationExpired: { kind: 'error', messageKey: 'errors.reauthenticationExpired' },
  adminAlreadyDeleted: { kind: 'error', messageKey: 'errors.adminAlreadyDeleted' },
  mfaRequired: { kind: 'warning', messageKey: 'errors.mfaRequired' },
  forbidden: null,
  maintenance: { kind: 'warning', messageKey: 'errors.maintenance' },
  tooManyRequests: { kind: 'error', messageKey: 'errors.tooManyRequests' },
  changedMeanwhile: { kind: 'error', messageKey: 'errors.changedMeanwhile' },
  timeout: { kind: 'error', messageKey: 'errors.timeout' },
  network: { kind: 'error', messageKey: 'errors.network' },
  unexpected: { kind: 'error', messageKey: 'errors.unexpected' },
};

/** 401 codes meaning the session's access token is no longer accepted. */
export function isSessionExpiredError(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 401 &&
    (error.code === API_ERROR.accessTokenExpired || error.code === API_ERROR.invalidAccessToken)
  );
}

/** Pure: which row of the general handling table an error falls under. */
export function classifyApiError(error: unknown): GeneralHandling {
  if (!isApiError(error)) return 'unexpected';
  if (error.code === API_ERROR.reauthenticationExpired) return 'reauthenticationExpired';
  if (isSessionExpiredError(error)) return 'sessionExpired';
  if (error.status === 409 && error.code === API_ERROR.adminAlreadyDeleted) return 'adminAlreadyDeleted';
  if (error.status === 403 && error.code === API_ERROR.mfaRequired) return 'mfaRequired';
  if (error.status === 403) return 'forbidden';
  if (error.status === 503) return 'maintenance';
  if (error.status === 429) return 'tooManyRequests';
  if (error.status === 412) return 'changedMeanwhile';
  if (error.kind === 'timeout') return 'timeout';
  if (error.kind === 'network') return 'network';
  return 'unexpected';
}

/** '/signin?prompt=login&returnTo=%2Faccount&glopla_id=G0000001' (glopla_id when an organisation is chosen). */
export function reauthenticationUrl(returnTo: string, gloplaId?: string | null): string {
  const organisation = gloplaId ? `&glopla_id=${encodeURIComponent(gloplaId)}` : '';
  return `${SIGNIN_PATH}?prompt=login&returnTo=${encodeURIComponent(returnTo)}${organisation}`;
}

/** Who changed a record meanwhile and when (a 412's changedBy, changedAt: issue 28), as the words say it. */
export function changeOf(error: unknown): { messageKey: string; params?: Record<string, unknown> } {
  const body = isApiError(error) ? (error.body as { changedBy?: unknown; changedAt?: unknown } | undefined) : undefined;
  return body?.changedBy && body.changedAt ? { messageKey: 'errors.changedMeanwhile', params: body } : { messageKey: 'errors.changedMeanwhileUnknown' };
}

const gloplaIdFromState = (state: Partial<SessionRootState> | undefined): string | null => state?.session?.organization?.gloplaId ?? null;

function* redirectToReauthenticate(returnTo: string, gloplaId: string | null) {
  yield delay(REAUTH_REDIRECT_DELAY_MS);
  yield* navigateTo(reauthenticationUrl(returnTo, gloplaId));
}

/**
 * The general handling saga: `yield call(handleApiError, error)`. Returns which row applied.
 * Never throws; the delayed re-authentication redirect runs detached so the caller is not held up.
 */
export function* handleApiError(error: unknown): Generator<unknown, GeneralHandling, unknown> {
  const handling = classifyApiError(error);
  // Extension point: refresh-and-retry on access_token_expired lives in callApi (context.refreshSession);
  // an error that reaches this point was not (or could not be) recovered by a refresh.
  if (handling === 'unexpected') yield call(reportError, errorReportFor(error));
  const message = GENERAL_HANDLING_FLASH[handling];
  if (message) yield put(flashShown(handling === 'changedMeanwhile' ? { ...message, ...changeOf(error) } : message));
  if (handling === 'reauthenticationExpired') {
    const returnTo = (yield* currentPathFromContext()) as string;
    const gloplaId = (yield select(gloplaIdFromState)) as string | null;
    yield spawn(redirectToReauthenticate, returnTo, gloplaId);
  }
  if (handling === 'forbidden') yield* navigateTo(SIGNIN_PATH);
  if (handling === 'mfaRequired') yield* navigateTo(SECURITY_PATH);
  return handling;
}
