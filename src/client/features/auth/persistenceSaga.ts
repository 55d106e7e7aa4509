/**
 * Keeps the encrypted login (loginStore.ts) in step with the store: every change of session, login context or ID
 * token is written; sign-out removes it. Restoring happens before the store exists (restoreLogin), so the guards see
 * the session on the very first render.
 */
import type { UnknownAction } from 'redux';
import { call, select, takeEvery } from 'redux-saga/effects';
import { ME_UPDATED, ORGANIZATION_SELECTED, SESSION_CLEARED, SESSION_STORED, type SessionRootState, type SessionState } from '../../state/session.js';
import { idTokenReceived, type AuthRootState } from './authState.js';
import { authContext } from './context.js';
import type { LoginStore, PersistedLogin } from './loginStore.js';

const PERSISTED_ACTIONS = [SESSION_STORED, SESSION_CLEARED, ORGANIZATION_SELECTED, ME_UPDATED, idTokenReceived.type];

const snapshot = (state: SessionRootState & AuthRootState): PersistedLogin | null =>
  state.session.session ? { session: state.session, idToken: state.auth.idToken } : null;

export function* persistLogin(_action: UnknownAction): Generator<unknown, void, unknown> {
  const { loginStore } = yield* authContext();
  const login = (yield select(snapshot)) as PersistedLogin | null;
  try {
    if (login) yield call([loginStore, loginStore.save], login);
    else yield call([loginStore, loginStore.clear]);
  } catch {
    // storage full or unavailable: the login lasts as long as the page
  }
}

export function* persistenceSaga() {
  // takeEvery, not takeLatest: the store writes in order, and a cancelled write must not leave an older value
  yield takeEvery(PERSISTED_ACTIONS, persistLogin);
}

/**
 * At start-up, before the store and router exist: the persisted login, unless its refresh token has expired
 * (then it is removed). The result is the store's preloaded session and auth state.
 */
export async function restoreLogin(
  loginStore: LoginStore,
  now: number = Date.now(),
): Promise<{ session: SessionState; idToken: string | null } | null> {
  try {
    const login = await loginStore.load();
    const session = login?.session?.session;
    if (!login || !session) return null;
    if (!(Date.parse(session.refreshTokenExpiresAt) > now)) {
      await loginStore.clear();
      return null;
    }
    return { session: login.session, idToken: login.idToken ?? null };
  } catch {
    return null;
  }
}
