/**
 * The store: shared state, the engine's forms and the features' slices, with one root saga for every side effect; the
 * screen engine's sagas join with the first screen's chunk, the gateway's with its page (state/lazySagas.ts).
 */
import { applyMiddleware, combineReducers, createStore } from 'redux';
import createSagaMiddleware from 'redux-saga';
import { all, delay, fork, put } from 'redux-saga/effects';
import type { ApiSagaContext } from '../api/context.js';
import { formsReducer } from '../engine/forms/formState.js';
import { reauthenticationReducer, reauthenticationSaga } from '../engine/reauthentication.js';
import { dialogReducer } from '../engine/screen/dialogState.js';
import { preloadSaga } from '../engine/screen/preload.js';
import { screenDataReducer } from '../engine/screen/screenDataState.js';
import { accountSaga } from '../features/account/index.js';
import { announcementsReducers, announcementsSaga } from '../features/announcements/index.js';
import { authReducers, authSaga, createRefreshSession, type AuthSagaContext } from '../features/auth/index.js';
import { featureFlagsReducers, featureFlagsSaga } from '../engine/featureFlags.js';
import { noticesReducers, noticesSaga } from '../features/notices/index.js';
import { supportChatSaga } from '../features/supportChat/index.js';
import { portalSettingsReducers, portalSettingsSaga } from '../engine/portalSettings.js';
import { appStarted } from '../state/app.js';
import { flashSaga, stateReducers } from '../state/index.js';
import { setSagaRunner } from '../state/lazySagas.js';
import { releaseFormEngineAfterFirstPaint } from './firstPaint.js';

export const rootReducer = combineReducers({
  ...stateReducers,
  ...noticesReducers,
  ...authReducers,
  ...featureFlagsReducers,
  ...portalSettingsReducers,
  ...announcementsReducers,
  forms: formsReducer,
  reauthentication: reauthenticationReducer,
  screenData: screenDataReducer,
  dialog: dialogReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

function* rootSaga() {
  yield all([
    fork(preloadSaga),
    fork(releaseFormEngineAfterFirstPaint),
    fork(flashSaga),
    fork(reauthenticationSaga),
    fork(noticesSaga),
    fork(authSaga),
    fork(accountSaga),
    fork(featureFlagsSaga),
    fork(portalSettingsSaga),
    fork(announcementsSaga),
    fork(supportChatSaga),
  ]);
  // the frame's other loads (feature flags, settings; the notices left as their saga started) in a task of their own, once the first route's preload has
  // sent its data calls and asked for its chunks (main.tsx announces it right after the store exists): they leave
  // first, and the start-up is two shorter tasks, not one long one (issue 26)
  yield delay(0);
  yield put(appStarted());
}

export type AppSagaContext = ApiSagaContext & AuthSagaContext;

/** refreshSession defaults to the auth feature's single-flight refresh (SPEC §4 Session). */
export function createAppStore(context: AppSagaContext, preloadedState?: Partial<RootState>) {
  const sagaMiddleware = createSagaMiddleware({ context: { refreshSession: createRefreshSession(), ...context } });
  const store = createStore(rootReducer, preloadedState as RootState | undefined, applyMiddleware(sagaMiddleware));
  // the screen engine's sagas start with the first screen (engine/screen/engineSagas.ts), the gateway's with its page
  setSagaRunner(sagaMiddleware.run);
  sagaMiddleware.run(rootSaga);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
