/** The store: shared state, the engine's forms and the features' slices, with one root saga for every side effect. */
import { applyMiddleware, combineReducers, createStore } from 'redux';
import createSagaMiddleware from 'redux-saga';
import { all, fork, put } from 'redux-saga/effects';
import type { ApiSagaContext } from '../api/context.js';
import { formsReducer } from '../engine/forms/formState.js';
import { formsSaga } from '../engine/forms/formSaga.js';
import { noticesReducers, noticesSaga } from '../features/notices/index.js';
import { appStarted } from '../state/app.js';
import { flashSaga, stateReducers } from '../state/index.js';

export const rootReducer = combineReducers({
  ...stateReducers,
  ...noticesReducers,
  forms: formsReducer,
});

export type RootState = ReturnType<typeof rootReducer>;

function* rootSaga() {
  yield all([fork(flashSaga), fork(formsSaga), fork(noticesSaga)]);
  yield put(appStarted());
}

export function createAppStore(context: ApiSagaContext, preloadedState?: Partial<RootState>) {
  const sagaMiddleware = createSagaMiddleware({ context: { ...context } });
  const store = createStore(rootReducer, preloadedState as RootState | undefined, applyMiddleware(sagaMiddleware));
  sagaMiddleware.run(rootSaga);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
