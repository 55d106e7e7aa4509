/** Submits a screen's form: one call through the API layer; a 422 comes back onto the form's fields. */
import { call, put, takeLatest } from 'redux-saga/effects';
import { callApi } from '../../api/callApi.js';
import { navigateTo } from '../../api/context.js';
import { isApiError } from '../../api/http.js';
import { flash } from '../../state/flash.js';
import { formFailed, formSubmitted, formSucceeded } from './formState.js';

const isFieldError = (error: unknown) => isApiError(error) && error.status === 422;

export function* submitForm({ payload }: ReturnType<typeof formSubmitted>) {
  const { formId, method, path, data, onSuccess } = payload;
  try {
    const result: unknown = yield call(callApi, `form/${formId}`, { method, path, body: data }, { handle: isFieldError });
    yield put(formSucceeded({ formId, result }));
    if (onSuccess?.flash) yield put(flash.success(onSuccess.flash));
    if (onSuccess?.navigate) yield call(navigateTo, onSuccess.navigate);
  } catch (error) {
    yield put(formFailed({ formId, fieldErrors: isFieldError(error) ? (isApiError(error) ? error.fieldErrors ?? [] : []) : [] }));
  }
}

export function* formsSaga() {
  yield takeLatest(formSubmitted.type, submitForm);
}
