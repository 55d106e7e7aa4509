/**
 * A form a screen does not show at once (a table row's expansion, a conditional panel; split.ts leaves it out of the
 * route's preload): its engine and validators are asked for once the screen's content is shown, so they arrive behind
 * that content, not in front of it, and before the admin opens the form (issue 47: /users waited for RJSF before its
 * rows). They are asked for after the content's paint, not in the commit's effects: the chunk's download and parse
 * then never delay that paint (Lighthouse counted them in /users' largest paint). A frame more: the largest paint's
 * time is when its frame is presented, which can come after the task following the paint, and a request that ended
 * before it still counted. A form shown at once has its chunks already: webpack fetches a chunk once.
 */
import { call, takeEvery } from 'redux-saga/effects';
import { actionCreator } from '../../state/actions.js';
import { importFormChunk } from '../dataChunks.js';
import { afterNextPaint } from '../paint.js';
import { importFormScreen } from './formScreenChunk.js';

/** A screen with a form has shown its content (its blocks with their data). */
export const formScreenShown = actionCreator<{ schema: string }>('forms/screenShown');

const ignore = () => undefined;

/** Asks for the form's chunks; a failure is met again, and reported, when the form is shown. */
export function fetchFormAhead(schema: string): void {
  importFormScreen().catch(ignore);
  importFormChunk(schema).catch(ignore);
}

export function* fetchFormAheadAfterPaint({ payload }: ReturnType<typeof formScreenShown>) {
  yield call(afterNextPaint);
  yield call(afterNextPaint); // the frame presented
  yield call(fetchFormAhead, payload.schema);
}

export function* formAheadSaga() {
  yield takeEvery(formScreenShown.type, fetchFormAheadAfterPaint);
}
