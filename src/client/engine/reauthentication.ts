/**
 * The re-authentication guard of sensitive screens (SPEC 2.6, §4 Re-authentication). A screen with
 * `"reauthentication": true` asks GET admin/re_authentication_expiration when it is entered; when the answer is
 * true the admin is sent to sign-in with prompt=login, the return path and glopla_id, and comes back after
 * entering the password again. The page renders once the check has passed.
 *
 * A failed check lets the page render (after the general handling's message): this check is for the user's
 * convenience, the API refuses sensitive calls by itself (reauthentication_expired, handled by the error catalogue).
 */
import type { UnknownAction } from 'redux';
import { call, put, select, takeLatest } from 'redux-saga/effects';
import type { ReauthenticationAnswer } from '../../common/api/answers.js';
import { callApi } from '../api/callApi.js';
import { navigateTo } from '../api/context.js';
import { reauthenticationUrl } from '../api/errorCatalogue.js';
import { actionCreator } from '../state/actions.js';
import { gloplaId, type SessionRootState } from '../state/session.js';

export const REAUTHENTICATION_OPERATION = 'auth/reauthenticationExpiration';

export type ReauthenticationStatus = 'checking' | 'passed' | 'redirecting';

export interface ReauthenticationState {
  /** The path (and query) the status is for. */
  path: string | null;
  status: ReauthenticationStatus | null;
}

const initialState: ReauthenticationState = { path: null, status: null };

export const reauthenticationCheckRequested = actionCreator<{ path: string }, 'reauthentication/checkRequested'>('reauthentication/checkRequested');
export const reauthenticationChecked = actionCreator<{ path: string; status: ReauthenticationStatus }, 'reauthentication/checked'>(
  'reauthentication/checked',
);

export function reauthenticationReducer(state: ReauthenticationState = initialState, action: UnknownAction): ReauthenticationState {
  if (reauthenticationCheckRequested.match(action)) return { path: action.payload.path, status: 'checking' };
  if (reauthenticationChecked.match(action)) {
    return action.payload.path === state.path ? { path: state.path, status: action.payload.status } : state;
  }
  return state;
}

export interface ReauthenticationRootState {
  reauthentication: ReauthenticationState;
}

/** True once the check for `path` has passed. */
export const reauthenticationPassed =
  (path: string) =>
  (state: ReauthenticationRootState): boolean =>
    state.reauthentication.path === path && state.reauthentication.status === 'passed';

export function* checkReauthentication({ payload }: ReturnType<typeof reauthenticationCheckRequested>): Generator<unknown, void, unknown> {
  let expired = false;
  try {
    const response = (yield call(callApi, REAUTHENTICATION_OPERATION, { path: 'admin/re_authentication_expiration' })) as ReauthenticationAnswer;
    expired = response.isReAuthenticationExpired === true;
  } catch {
    // the general handling has shown its message; the page renders (see above)
  }
  if (!expired) {
    yield put(reauthenticationChecked({ path: payload.path, status: 'passed' }));
    return;
  }
  yield put(reauthenticationChecked({ path: payload.path, status: 'redirecting' }));
  const organisation = (yield select((state: SessionRootState) => gloplaId(state))) as string | null;
  yield call(navigateTo, reauthenticationUrl(payload.path, organisation), { replace: true });
}

export function* reauthenticationSaga() {
  yield takeLatest(reauthenticationCheckRequested.type, checkReauthentication);
}
