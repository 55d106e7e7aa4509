/**
 * A screen's actions (ScreenDefinition.actions): a button, a select or a row action asks for one; when it has a
 * confirmation dialog the saga opens it and waits for Cancel or the confirm button (SPEC 2.13); then the call and the
 * first matching row of its outcome table (flash, navigation, reload of the screen's data). Its actions and the
 * dialog's state are in dialogState.ts.
 */
import type { Action, UnknownAction } from 'redux';
import { call, put, race, take, takeEvery } from 'redux-saga/effects';
import { applyOutcome, chooseOutcome, runCall, type CallResult } from './calls.js';
import { matches } from './conditions.js';
import { actionCancelled, actionOperation, actionRequested, dialogCancelled, dialogConfirmed, dialogOpened } from './dialogState.js';
import { screenById } from './navigation.js';
import { screenDataReloaded } from './screenDataState.js';
import { resolveValues } from './values.js';

export function* runAction({ payload }: ReturnType<typeof actionRequested>): Generator<unknown, void, unknown> {
  const { screenId, actionId, context } = payload;
  const definition = screenById(screenId).actions?.[actionId];
  if (!definition) throw new Error(`screen ${screenId}: unknown action "${actionId}"`);
  if (definition.form) {
    // the dialog shows the form; its submit makes the call (a form action always has one: screenSchema.ts) (forms/formSaga.ts) and closes it on success
    const { title, warning, submitLabel, cancelLabel } = definition.form;
    yield put(dialogOpened({ title, body: warning ?? '', confirmLabel: submitLabel, cancelLabel, closeOnBackdrop: false, values: {}, form: { screenId, actionId, context } }));
    return;
  }
  if (definition.confirm) {
    const { values, alternatives, ...dialog } = definition.confirm;
    const body = alternatives?.find((alternative) => matches(alternative.when, context))?.body ?? dialog.body;
    yield put(dialogOpened({ ...dialog, body, values: resolveValues(values, context) }));
    const answer = (yield race({ confirmed: take(dialogConfirmed.type), cancelled: take(dialogCancelled.type) })) as { confirmed?: unknown };
    if (!answer.confirmed) return;
  }
  let result: CallResult = { ok: true };
  if (definition.call) {
    const cancelledHere = (action: Action) => {
      const cancelled = action as UnknownAction;
      return actionCancelled.match(cancelled) && cancelled.payload.screenId === screenId && cancelled.payload.actionId === actionId;
    };
    const answer = (yield race({ done: call(runCall, actionOperation(screenId, actionId), definition.call, context, definition.outcomes), cancelled: take(cancelledHere) })) as { done?: CallResult };
    if (!answer.done) return;
    result = answer.done;
  }
  const outcome = chooseOutcome(definition.outcomes, result, context);
  if (!outcome) return;
  yield* applyOutcome(outcome, { ...context, body: result.body, status: result.status }, undefined, screenId);
  if (outcome.reload) yield put(screenDataReloaded({ screenId }));
}

export function* screenActionsSaga() {
  yield takeEvery(actionRequested.type, runAction);
}
