/**
 * A cold load's first paint (issue 47): the frame — header, the provider's notices, the page's heading — is painted
 * before the form engine is asked for (engine/forms/formEngineGate.ts). The notices are waited for, as they sit above the page
 * and would push it down when they came later, but not for long: a slow notices call does not hold the page.
 */
import { all, call, delay, race, take } from 'redux-saga/effects';
import { releaseFormEngine } from '../engine/forms/formEngineGate.js';
import { afterNextPaint } from '../engine/paint.js';
import { noticesSettled } from '../features/notices/index.js';
import { actionCreator } from '../state/actions.js';

/** The frame has been committed (Frame's first effect). */
export const frameShown = actionCreator<void>('app/frameShown');

/** How long the form engine waits for the notices at most. */
export const NOTICES_WAIT_MS = 1000;

export function* releaseFormEngineAfterFirstPaint(): Generator<unknown, void, unknown> {
  yield all([take(frameShown.type), race([take(noticesSettled), delay(NOTICES_WAIT_MS)])]);
  yield call(afterNextPaint);
  yield call(releaseFormEngine);
}
