/**
 * Submits a screen's form: one call through the API layer, then the first matching row of the form's outcome table
 * (calls.ts): a field message, an event with the answer, a flash, a navigation (to another screen or the form's done
 * step). A 422 always comes back onto the form's fields.
 */
import { call, put, select, takeLatest } from 'redux-saga/effects';
import type { Outcome } from '../../../common/screens.js';
import { navigateTo } from '../../api/context.js';
import { changeOf, handleApiError } from '../../api/errorCatalogue.js';
import { formLatestWanted, formOverwriteWanted } from './conflict.js';
import { isApiError } from '../../api/http.js';
import { resolveValues } from '../screen/values.js';
import { applyPayload } from './payloads.js';
import { dialogCancelled } from '../screen/dialogState.js';
import { applyOutcome, chooseOutcome, runCall } from '../screen/calls.js';
import { screenDataReloaded } from '../screen/screenDataState.js';
import {
  formChanged,
  formChecked,
  formConflicted,
  formFailed,
  formReleased,
  formSubmitted,
  formSucceeded,
  selectForm,
  type FormEntry,
  type FormsRootState,
} from './formState.js';

/** Field errors belong to the form: claimed from the general handling. */
const FIELD_ERRORS: Outcome = { on: 422 };

/** Empties the outcome's `reset` fields of the form's draft (a widget such as the captcha then starts over). */
function* resetFields(formId: string, fields: readonly string[] = []) {
  if (fields.length === 0) return;
  const { data } = (yield select((state: FormsRootState) => selectForm(state, formId))) as { data: Record<string, unknown> };
  yield put(formChanged({ formId, data: { ...data, ...Object.fromEntries(fields.map((field) => [field, ''])) } }));
}

export function* submitForm({ payload }: ReturnType<typeof formSubmitted>) {
  const { formId, call: submitCall, data, outcomes = [], donePath } = payload;
  const context = { ...payload.context, form: data };
  let body = data;
  if (payload.transform) {
    try {
      body = (yield call(applyPayload, payload.transform.name, data, resolveValues(payload.transform.values, context))) as Record<string, unknown>;
    } catch (error) {
      // the definition names no such rule: a defect, reported by the general handling
      yield call(handleApiError, error);
      yield put(formFailed({ formId, fieldErrors: [] }));
      return;
    }
  }
  const result = yield* runCall(`form/${formId}`, submitCall, context, [FIELD_ERRORS, ...outcomes], body);
  // field errors stay on the form: only a row for 422 itself adds to them
  const rows = result.status === 422 ? outcomes.filter((row) => row.on === 422) : outcomes;
  const outcome = chooseOutcome(rows, result, context);
  const toDone = donePath ? () => navigateTo(donePath) : undefined;
  if (result.ok && payload.check) {
    // the check passed: its outcomes (e.g. keep the answer) and on to the confirm step
    yield put(formChecked({ formId, result: result.body }));
    if (outcome) yield* applyOutcome(outcome, { ...context, body: result.body }, undefined, payload.screenId);
    if (payload.confirmPath) yield* navigateTo(payload.confirmPath);
    return;
  }
  if (result.ok) {
    yield put(formSucceeded({ formId, result: result.body }));
    if (payload.inDialog) yield put(dialogCancelled());
    if (outcome) yield* applyOutcome(outcome, { ...context, body: result.body }, toDone, payload.screenId);
    if (outcome?.reload && payload.screenId) yield put(screenDataReloaded({ screenId: payload.screenId }));
    return;
  }
  if (outcome?.conflict) {
    // made on an old version (412): the draft stays, the form offers the latest and a write on it (issue 28)
    yield put(formConflicted({ formId, conflict: { submission: payload, message: changeOf(result.error), definition: outcome.conflict } }));
    return;
  }
  // fields first: an edit of the draft clears the server's messages, which come next
  yield* resetFields(formId, outcome?.reset);
  yield put(
    formFailed({
      formId,
      fieldErrors: isApiError(result.error) && result.status === 422 ? (result.error.fieldErrors ?? []) : [],
      fieldMessages: outcome?.field && outcome.message ? [{ field: outcome.field, messageKey: outcome.message }] : [],
    }),
  );
  // a failure's own page (e.g. already completed): the draft is left on purpose, without the leave warning
  if (outcome?.navigate) yield put(formReleased({ formId }));
  if (outcome) yield* applyOutcome(outcome, { ...context, body: result.body, status: result.status }, toDone, payload.screenId);
  if (outcome?.reload && payload.screenId) yield put(screenDataReloaded({ screenId: payload.screenId }));
}

/** The record of a conflict as it is now (`definition.record` of the latest call's answer), kept in the form's conflict. */
function* loadLatest(formId: string): Generator<unknown, Record<string, unknown> | undefined, unknown> {
  const { conflict } = (yield select((state: FormsRootState) => selectForm(state, formId))) as FormEntry;
  if (!conflict) return undefined;
  const result = yield* runCall(`form/${formId}/latest`, conflict.definition.latest, conflict.submission.context);
  const latest = result.ok ? ((result.body as Record<string, unknown> | undefined)?.[conflict.definition.record] as Record<string, unknown> | undefined) : undefined;
  if (latest) yield put(formConflicted({ formId, conflict: { ...conflict, latest } }));
  return latest;
}

/** 'Save mine anyway': the draft as it is now, written again on the latest version (read first when not yet shown). */
function* overwrite({ payload: { formId } }: ReturnType<typeof formOverwriteWanted>) {
  const entry = (yield select((state: FormsRootState) => selectForm(state, formId))) as FormEntry;
  if (!entry.conflict) return;
  const latest = entry.conflict.latest ?? (yield* loadLatest(formId));
  if (typeof latest?.etag !== 'string') return;
  const { submission } = entry.conflict;
  yield put(formSubmitted({ ...submission, data: entry.data, call: { ...submission.call, ifMatch: latest.etag } }));
}

export function* formsSaga() {
  yield takeLatest(formSubmitted.type, submitForm);
  yield takeLatest(formLatestWanted.type, function* ({ payload }: ReturnType<typeof formLatestWanted>) {
    yield* loadLatest(payload.formId);
  });
  yield takeLatest(formOverwriteWanted.type, overwrite);
}
