/**
 * Logout (SPEC §4 Session, /signout): revoke the refresh token (which ends the grant; 10 s timeout), clear session,
 * login store and verification state, then go to the provider's end-session URL, which brings the browser back to
 * the portal root. A failure on the way shows the 'unexpected error' flash (SPEC §8) and the logout still completes.
 */
import { call, put, select, takeLeading } from 'redux-saga/effects';
import { POST_LOGOUT_PATH } from '../../../common/identity.js';
import { navigateTo } from '../../api/context.js';
import { errorReportFor, reportError } from '../../api/report.js';
import { flash } from '../../state/flash.js';
import { selectSession, sessionCleared, type Session } from '../../state/session.js';
import { logoutRequested, selectIdToken } from './authState.js';
import { authContext } from './context.js';
import type { ProviderMetadata } from './identityProviderTypes.js';
import { loadSigninRequest, type SigninRequestModule } from './lazySigninRequest.js';

export function* logout(action?: ReturnType<typeof logoutRequested>): Generator<unknown, void, unknown> {
  const { identityProvider, loginStore, verificationStorage, assignLocation, origin } = yield* authContext();
  const session = (yield select(selectSession)) as Session | null;
  const idToken = (yield select(selectIdToken)) as string | null;
  const postLogoutPath = action?.payload?.postLogoutPath ?? POST_LOGOUT_PATH;
  let endSession: string | undefined;
  let failure: unknown;
  try {
    const metadata = (yield call([identityProvider, identityProvider.metadata])) as ProviderMetadata;
    if (metadata.endSessionEndpoint) {
      const { endSessionUrl } = (yield call(loadSigninRequest)) as SigninRequestModule;
      endSession = endSessionUrl(metadata.endSessionEndpoint, origin, idToken, postLogoutPath);
    }
    if (session) {
      const [token, hint] = session.refreshToken ? [session.refreshToken, 'refresh_token' as const] : [session.token, 'access_token' as const];
      yield call([identityProvider, identityProvider.revoke], token, hint);
    }
  } catch (error) {
    failure = error;
  }
  yield put(sessionCleared());
  verificationStorage.clear();
  try {
    yield call([loginStore, loginStore.clear]);
  } catch (error) {
    failure ??= error;
  }
  if (failure !== undefined) {
    yield put(flash.error('errors.unexpected'));
    yield call(reportError, errorReportFor(failure, { step: 'logout' }));
  }
  if (endSession) yield call(assignLocation, endSession);
  else yield call(navigateTo, postLogoutPath, { replace: true });
}

export function* logoutSaga() {
  yield takeLeading(logoutRequested.type, logout);
}
