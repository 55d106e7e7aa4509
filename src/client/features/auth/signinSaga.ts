/** SPEC §4 Sign-in step 1: the verification state is stored and the browser goes to the provider. */
import { call, put, takeLatest } from 'redux-saga/effects';
import { errorReportFor, reportError } from '../../api/report.js';
import { signinFailed, signinRequested } from './authState.js';
import { authContext } from './context.js';
import type { ProviderMetadata } from './identityProviderTypes.js';
import { loadSigninRequest, type SigninRequestModule } from './lazySigninRequest.js';

export function* startSignin({ payload: options }: ReturnType<typeof signinRequested>): Generator<unknown, void, unknown> {
  const { identityProvider, verificationStorage, assignLocation, origin, now } = yield* authContext();
  try {
    const { authorizationUrl, createVerificationState } = (yield call(loadSigninRequest)) as SigninRequestModule;
    const verification = createVerificationState(origin, options.returnTo, now());
    verificationStorage.write(verification);
    const metadata = (yield call([identityProvider, identityProvider.metadata])) as ProviderMetadata;
    const url = (yield call(authorizationUrl, metadata.authorizationEndpoint, origin, verification, options)) as string;
    yield call(assignLocation, url);
  } catch (error) {
    // the provider cannot be reached (discovery failed): the sign-in page offers to try again
    yield put(signinFailed());
    yield call(reportError, errorReportFor(error, { step: 'signin' }));
  }
}

export function* signinSaga() {
  yield takeLatest(signinRequested.type, startSignin);
}
