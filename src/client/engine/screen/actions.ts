/**
 * A screen's actions (ScreenDefinition.actions): a button, a select or a row action asks for one; when it has a
 * confirmation dialog the saga opens it and waits for Cancel or the confirm button (SPEC 2.13); then the call and the
 * first matching row of its outcome table (flash, navigation, reload of the screen's data).
 */
import type { Action, UnknownAction } from 'redux';
import { call, put, race, take, takeEvery } from 'redux-saga/effects';
import type { DialogDefinition } from '../../../common/screens.js';
import { actionCreator } from '../../state/actions.js';
import { applyOutcome, chooseOutcome, runCall, type CallResult } from './calls.js';
import { matches } from './conditions.js';
import { screenById } from './navigation.js';
import { screenDataReloaded } from './screenData.js';
import { resolveValues, type ScreenContext } from './values.js';

/** An open dialog, its values already resolved: a confirmation, or the form of an action (`form`). */
export interface OpenDialog extends Omit<DialogDefinition, 'values' | 'alternatives'> {
  values: Record<string, unknown>;
  form?: { screenId: string; actionId: string; context: Partial<ScreenContext> };
}

export const actionRequested = actionCreator<{ screenId: string; actionId: string; context: Partial<ScreenContext> }>('screens/actionRequested');
/** Stops an action's running call (an upload's Cancel): the request is aborted and no outcome follows. */
export const actionCancelled = actionCreator<{ screenId: string; actionId: string }>('screens/actionCancelled');
export const dialogOpened = actionCreator<OpenDialog>('screens/dialogOpened');
export const dialogConfirmed = actionCreator<void>('screens/dialogConfirmed');
export const dialogCancelled = actionCreator<void>('screens/dialogCancelled');

export function dialogReducer(state: OpenDialog | null = null, action: UnknownAction): OpenDialog | null {
  if (dialogOpened.match(action)) return action.payload;
  if (dialogConfirmed.match(action) || dialogCancelled.match(action)) return null;
  return state;
}

export interface DialogRootState {
  dialog: OpenDialog | null;
}

export const selectDialog = (state: DialogRootState): OpenDialog | null => state.dialog;

/** The operation name of an action's call, for its pending state. */
export const actionOperation = (screenId: string, actionId: string): string => `screens/${screenId}/actions/${actionId}`;

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
