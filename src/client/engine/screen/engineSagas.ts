/**
 * The screen engine's side effects: a screen's data, its actions and its forms. Started by the first screen shown
 * (ScreenView, the gallery), in their chunk: the first load carries only their state (screenDataState.ts,
 * dialogState.ts, forms/formState.ts).
 */
import i18next from 'i18next';
import { all, fork } from 'redux-saga/effects';
import { addDateWordFormats } from '../dateWords.js';
import { startLazySaga } from '../../state/lazySagas.js';
import { formAheadSaga } from '../forms/formAhead.js';
import { formsSaga } from '../forms/formSaga.js';
import { screenActionsSaga } from './actions.js';
import { screenDataSaga } from './screenData.js';

export function* screenEngineSaga() {
  yield all([fork(formsSaga), fork(formAheadSaga), fork(screenDataSaga), fork(screenActionsSaga)]);
}

let datesAdded = false;

/** Before the first screen's effects run: idempotent, so called while rendering. The words' date formats come with it. */
export function startScreenEngine(): void {
  if (!datesAdded) {
    datesAdded = true;
    addDateWordFormats(i18next);
  }
  startLazySaga(screenEngineSaga);
}
