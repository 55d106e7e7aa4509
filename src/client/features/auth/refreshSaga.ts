/**
 * Refresh-and-retry (SPEC §4 Session): callApi calls the context's refreshSession once when a call with the
 * session's token gets 401 access_token_expired, and retries it when this returns true.
 * - One refresh at a time: concurrent 401s join the refresh in flight instead of starting their own (with rotating
 *   refresh tokens a second refresh with the same token would be refused).
 * - Other tabs of the browser share the stored login: when one of them has refreshed already, its newer session is
 *   taken over instead of refreshing with a refresh token the rotation has retired (which would be refused).
 * - A missing or expired refresh token, or a failed refresh, signs the admin out here (session and stored login
 *   cleared) and returns false; callApi then runs the general handling, and the guards send the admin to sign-in.
 */
import { call, join, put, select, spawn } from 'redux-saga/effects';
import type { Task } from 'redux-saga';
import { organizationId, selectSession, sessionCleared, sessionFromTokenResponse, sessionStored, type Session, type TokenResponse } from '../../state/session.js';
import { idTokenReceived } from './authState.js';
import { authContext } from './context.js';
import type { PersistedLogin } from './loginStore.js';

/**
 * The stored login, when another tab acting for the same organisation has replaced this tab's refresh token since
 * this tab last wrote it.
 */
function* loginOfAnotherTab(current: Session): Generator<unknown, PersistedLogin | null, unknown> {
  const { loginStore } = yield* authContext();
  try {
    const stored = (yield call([loginStore, loginStore.load])) as PersistedLogin | null;
    const session = stored?.session?.session;
    const sameOrganization = stored?.session.organization?.id === ((yield select(organizationId)) as number | null);
    return session && sameOrganization && session.refreshToken !== current.refreshToken ? stored : null;
  } catch {
    return null;
  }
}

export function* refreshOnce(): Generator<unknown, boolean, unknown> {
  const { identityProvider, now } = yield* authContext();
  let session = (yield select(selectSession)) as Session | null;
  if (!session) return false;
  const other = yield* loginOfAnotherTab(session);
  if (other?.session.session) {
    session = { ...other.session.session, affiliations: session.affiliations };
    if (other.idToken) yield put(idTokenReceived(other.idToken));
    if (Date.parse(session.expiredAt) > now()) {
      yield put(sessionStored(session));
      return true;
    }
  }
  if (!session.refreshToken || !(Date.parse(session.refreshTokenExpiresAt) > now())) {
    yield put(sessionCleared());
    return false;
  }
  try {
    const tokens = (yield call([identityProvider, identityProvider.refresh], session.refreshToken)) as TokenResponse;
    yield put(sessionStored({ ...sessionFromTokenResponse(tokens), affiliations: session.affiliations }));
    if (tokens.idToken) yield put(idTokenReceived(tokens.idToken));
    return true;
  } catch {
    yield put(sessionCleared());
    return false;
  }
}

/** A refreshSession for one store's saga context: the refresh runs detached, and callers join the one in flight. */
export function createRefreshSession(): () => Generator<unknown, boolean, unknown> {
  let inFlight: Task | undefined;
  return function* refreshSession() {
    if (!inFlight || !inFlight.isRunning()) inFlight = (yield spawn(refreshOnce)) as Task;
    return (yield join(inFlight)) as boolean;
  };
}
