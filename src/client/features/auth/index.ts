/**
 * Sign-in, callback, session persistence, refresh and logout (SPEC 2.3, §4 Sign-in and Session). The callback's saga
 * comes with its page (./lazy.ts), not in the first load.
 */
import { all, fork } from 'redux-saga/effects';
import { logoutSaga } from './logoutSaga.js';
import { persistenceSaga } from './persistenceSaga.js';
import { sessionReplacedSaga } from './sessionReplacedSaga.js';
import { signinSaga } from './signinSaga.js';

export * from './authState.js';
export { authContext, browserAuthContext, AUTH_CONTEXT, type AuthSagaContext } from './context.js';
export { createRefreshSession } from './refreshSaga.js';
export { restoreLogin } from './persistenceSaga.js';
export { LOGIN_STORAGE_KEY } from './loginStore.js';
export { SESSION_REPLACED } from './sessionReplacedSaga.js';
export { safeReturnPath } from './returnPath.js';
export type { SigninOptions } from './signinRequest.js';

export function* authSaga() {
  yield all([fork(signinSaga), fork(logoutSaga), fork(persistenceSaga), fork(sessionReplacedSaga)]);
}
