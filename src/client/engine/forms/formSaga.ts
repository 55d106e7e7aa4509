/**
 * Submits a screen's form: one call through the API layer, then the first matching row of the form's outcome table
 * (calls.ts): a field message, an event with the answer, a flash, a navigation (to another screen or the form's done
 * step). A 422 always comes back onto the form's fields.
 */
import { put, takeLatest } from 'redux-saga/effects';
import type { Outcome } from '../../../common/screens.js';
import { navigateTo } from '../../api/context.js';
import { isApiError } from '../../api/http.js';
import { applyOutcome, chooseOutcome, runCall } from '../screen/calls.js';
import { formFailed, formSubmitted, formSucceeded } from './formState.js';

/** Field errors belong to the form: claimed from the general handling. */
const FIELD_ERRORS: Outcome = { on: 422 };

export function* submitForm({ payload }: ReturnType<typeof formSubmitted>) {
  const { formId, method, path, params = {}, data, outcomes = [], donePath } = payload;
  const context = { params, form: data };
  const result = yield* runCall(`form/${formId}`, { method, path }, context, [FIELD_ERRORS, ...outcomes], data);
  // field errors stay on the form, whatever the other rows say
  const outcome = result.status === 422 ? undefined : chooseOutcome(outcomes, result, context);
  const toDone = donePath ? () => navigateTo(donePath) : undefined;
  if (result.ok) {
    yield put(formSucceeded({ formId, result: result.body }));
    if (outcome) yield* applyOutcome(outcome, { ...context, body: result.body }, toDone);
    return;
  }
  yield put(
    formFailed({
      formId,
      fieldErrors: isApiError(result.error) && result.status === 422 ? (result.error.fieldErrors ?? []) : [],
      fieldMessages: outcome?.field && outcome.message ? [{ field: outcome.field, messageKey: outcome.message }] : [],
    }),
  );
  if (outcome && !outcome.field) yield* applyOutcome(outcome, { ...context, body: result.body, status: result.status }, toDone);
}

export function* formsSaga() {
  yield takeLatest(formSubmitted.type, submitForm);
}
