/**
 * Submits a screen's form: one call through the API layer. A 422 comes back onto the form's fields; a server error
 * the screen maps (form.errors) is shown on its field instead of the general handling. After success: the screen's
 * event (with the response), flash and navigation.
 */
import { call, put, select, takeLatest } from 'redux-saga/effects';
import type { FormErrorMapping } from '../../../common/screens.js';
import { callApi } from '../../api/callApi.js';
import { navigateTo } from '../../api/context.js';
import { handleApiError } from '../../api/errorCatalogue.js';
import { isApiError, type ApiError } from '../../api/http.js';
import { flash } from '../../state/flash.js';
import type { SessionRootState } from '../../state/session.js';
import { CAPTCHA_FIELDS } from '../../widgets/ids.js';
import { formChanged, formFailed, formSubmitted, formSucceeded } from './formState.js';
import { fillPath } from './pathParams.js';

const isFieldError = (error: unknown): error is ApiError => isApiError(error) && error.status === 422;

export function mappedError(error: unknown, mappings: readonly FormErrorMapping[] = []): FormErrorMapping | undefined {
  if (!isApiError(error) || error.kind !== 'http') return undefined;
  return mappings.find((mapping) => mapping.code === error.code && (mapping.status === undefined || mapping.status === error.status));
}

export function* submitForm({ payload }: ReturnType<typeof formSubmitted>) {
  const { formId, method, data, onSuccess, errors } = payload;
  const claims = (error: ApiError) => isFieldError(error) || mappedError(error, errors) !== undefined;
  try {
    let path: string;
    try {
      path = (yield select((state: SessionRootState) => fillPath(payload.path, payload.params ?? {}, state))) as string;
    } catch (error) {
      yield call(handleApiError, error);
      throw error;
    }
    const result: unknown = yield call(callApi, `form/${formId}`, { method, path, body: data }, { handle: claims });
    yield put(formSucceeded({ formId, result }));
    if (onSuccess?.event) yield put({ type: onSuccess.event, payload: result });
    if (onSuccess?.flash) yield put(flash.success(onSuccess.flash));
    if (onSuccess?.navigate) yield call(navigateTo, onSuccess.navigate);
  } catch (error) {
    const mapping = mappedError(error, errors);
    // the server may have spent the captcha solution: the widget starts over when its fields are emptied
    const spent = CAPTCHA_FIELDS.filter((field) => data[field] !== undefined && data[field] !== '');
    if (spent.length > 0) yield put(formChanged({ formId, data: { ...data, ...Object.fromEntries(spent.map((field) => [field, ''])) } }));
    yield put(
      formFailed({
        formId,
        fieldErrors: isFieldError(error) ? (error.fieldErrors ?? []) : [],
        fieldMessages: mapping ? [{ field: mapping.field, messageKey: mapping.message }] : [],
      }),
    );
  }
}

export function* formsSaga() {
  yield takeLatest(formSubmitted.type, submitForm);
}
