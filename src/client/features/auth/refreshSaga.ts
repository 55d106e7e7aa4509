/**
 * Refresh-and-retry (SPEC §4 Session): callApi calls the context's refreshSession once when a call with the
 * session's token gets 401 access_token_expired, and retries it when this returns true.
 * - One refresh at a time: concurrent 401s join the refresh in flight instead of starting their own (with rotating
 *   refresh tokens a second refresh with the same token would be refused).
 * - A missing or expired refresh token, or a failed refresh, signs the admin out here (session and stored login
 *   cleared) and returns false; callApi then runs the general handling, and the guards send the admin to sign-in.
 */
import { call, join, put, select, spawn } from 'redux-saga/effects';
import type { Task } from 'redux-saga';
import { selectSession, sessionCleared, sessionFromTokenResponse, sessionStored, type Session, type TokenResponse } from '../../state/session.js';
import { idTokenReceived } from './authState.js';
import { authContext } from './context.js';

export function* refreshOnce(): Generator<unknown, boolean, unknown> {
  const { identityProvider, now } = yield* authContext();
  const session = (yield select(selectSession)) as Session | null;
  if (!session) return false;
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
