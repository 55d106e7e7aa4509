/**
 * 'auth/sessionReplaced': a response that is a new session (the token response of PUT admins/{adminId}/password,
 * SPEC 2.6), or holds one as `session` (a second factor added or removed, issue 44), replaces the current one; the
 * login context stays. A screen names this event in its success outcome.
 */
import { SCREEN_EVENTS } from '../../engine/events.js';
import { put, select, takeEvery } from 'redux-saga/effects';
import { actionCreator } from '../../state/actions.js';
import { selectSession, sessionFromTokenResponse, sessionStored, type Session, type TokenResponse } from '../../state/session.js';
import { idTokenReceived } from './authState.js';

export const SESSION_REPLACED = SCREEN_EVENTS.sessionReplaced;
export const sessionReplaced = actionCreator<unknown, typeof SESSION_REPLACED>(SESSION_REPLACED);

function isTokenResponse(value: unknown): value is TokenResponse {
  const candidate = value as Partial<TokenResponse> | null;
  return typeof candidate?.accessToken === 'string' && typeof candidate.refreshToken === 'string' && typeof candidate.createdAt === 'number';
}

export function* replaceSession({ payload: answer }: ReturnType<typeof sessionReplaced>): Generator<unknown, void, unknown> {
  const payload = isTokenResponse(answer) ? answer : (answer as { session?: unknown } | null)?.session;
  if (!isTokenResponse(payload)) return;
  const current = (yield select(selectSession)) as Session | null;
  const expiresIn = Number(payload.expiresIn ?? 0);
  const session = sessionFromTokenResponse({ ...payload, expiresIn, refreshTokenExpiresIn: payload.refreshTokenExpiresIn ?? expiresIn });
  yield put(sessionStored({ ...session, affiliations: current?.affiliations ?? [] }));
  if (payload.idToken) yield put(idTokenReceived(payload.idToken));
}

export function* sessionReplacedSaga() {
  yield takeEvery(SESSION_REPLACED, replaceSession);
}
