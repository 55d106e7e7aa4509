/**
 * The outcomes of SPEC §8 'Activation and reset':
 *
 * | call                                   | outcome                        | result                                                |
 * |----------------------------------------|--------------------------------|-------------------------------------------------------|
 * | activation-mail request                | success                        | /token/sent (state flow activation)                   |
 * |                                        | 409 already_activated          | /activation/already-completed                         |
 * |                                        | 401                            | 'Please complete the puzzle.' on the captcha, reset   |
 * |                                        | 422                            | field errors on the form                              |
 * |                                        | other                          | general handling (reported, unexpected; 429 message)  |
 * | reset-mail request                     | success                        | /token/sent (state flow passwordReset)                |
 * |                                        | 401                            | captcha error, as above                               |
 * |                                        | other                          | general handling                                      |
 * | activation token check or submit       | 401                            | /token/expired, state {errorCode}                     |
 * |                                        | no status                      | general handling: network error                       |
 * |                                        | other                          | general handling: reported, unexpected                |
 * |                                        | submit success                 | /activation/success                                   |
 * | reset token check or submit            | 401                            | /token/expired, state {flow, from: passwordReset, …}  |
 * |                                        | other                          | general handling                                      |
 * |                                        | submit success                 | /password/reset/success                               |
 *
 * After any failed mail request the captcha is cleared (a solution works once), so the widget starts over and the
 * submit button is enabled again.
 */
import { call, put, select, takeLatest } from 'redux-saga/effects';
import type { TokenAdminAnswer } from '../../../common/api/answers.js';
import { callApi } from '../../api/callApi.js';
import { navigateTo } from '../../api/context.js';
import { isApiError, type ApiError } from '../../api/http.js';
import { formChanged, selectForm, type FormsRootState } from '../../engine/forms/formState.js';
import {
  ACTIVATION_ALREADY_COMPLETED_PATH,
  ACTIVATION_SUCCESS_PATH,
  CAPTCHA_ANSWER_FIELD,
  CAPTCHA_FIELDS,
  mailRequested,
  mailRequestFailed,
  mailRequestSucceeded,
  PASSWORD_RESET_SUCCESS_PATH,
  TOKEN_CHECK_PATH,
  TOKEN_EXPIRED_PATH,
  TOKEN_HEADER,
  TOKEN_SENT_PATH,
  tokenChecked,
  tokenCheckFailed,
  tokenCheckRequested,
  tokenFormFailed,
  tokenFormSubmitted,
  tokenFormSucceeded,
  type TokenFlow,
  type TokenPageState,
} from './state.js';

const ALREADY_ACTIVATED = 'already_activated';

const isStatus = (error: unknown, status: number): error is ApiError => isApiError(error) && error.status === status;

/** The link-expired page's navigation state (SPEC §4 Tokens). */
export function expiredPageState(flow: TokenFlow, error: ApiError): TokenPageState {
  return flow === 'passwordReset'
    ? { flow: 'passwordReset', from: 'passwordReset', ...(error.code ? { errorCode: error.code } : {}) }
    : { ...(error.code ? { errorCode: error.code } : {}) };
}

function bearer(flow: TokenFlow, token: string): Record<string, string> {
  return { [TOKEN_HEADER[flow]]: `Bearer ${token}` };
}

/** Empties the captcha fields of the form's draft: the widget then resets itself. */
function* clearCaptcha(formId: string) {
  const { data } = (yield select((state: FormsRootState) => selectForm(state, formId))) as { data: Record<string, unknown> };
  yield put(formChanged({ formId, data: { ...data, ...Object.fromEntries(CAPTCHA_FIELDS.map((field) => [field, ''])) } }));
}

export function* requestMail({ payload }: ReturnType<typeof mailRequested>) {
  const { flow, formId, submit, data, language } = payload;
  const claims = (error: ApiError) =>
    error.status === 401 || error.status === 422 || (flow === 'activation' && error.status === 409 && error.code === ALREADY_ACTIVATED);
  try {
    yield call(
      callApi,
      `accountTokens/${flow}/mail`,
      { method: submit.method, path: submit.path, body: data, query: { lang: language }, token: null },
      { handle: claims },
    );
    yield put(mailRequestSucceeded({ flow }));
    yield call(navigateTo, TOKEN_SENT_PATH, { state: { flow } satisfies TokenPageState });
  } catch (error) {
    yield* clearCaptcha(formId);
    if (flow === 'activation' && isStatus(error, 409) && error.code === ALREADY_ACTIVATED) {
      yield put(mailRequestFailed({ flow }));
      yield call(navigateTo, ACTIVATION_ALREADY_COMPLETED_PATH);
    } else if (isStatus(error, 401)) {
      yield put(mailRequestFailed({ flow, fieldMessages: [{ field: CAPTCHA_ANSWER_FIELD, messageKey: 'captcha.required' }] }));
    } else if (isStatus(error, 422)) {
      yield put(mailRequestFailed({ flow, fieldErrors: error.fieldErrors ?? [] }));
    } else {
      // callApi ran the general handling (report and 'unexpected', network, maintenance, too many requests…)
      yield put(mailRequestFailed({ flow }));
    }
  }
}

export function* checkToken({ payload }: ReturnType<typeof tokenCheckRequested>) {
  const { flow, token } = payload;
  try {
    const result = (yield call(
      callApi,
      `accountTokens/${flow}/check`,
      { path: TOKEN_CHECK_PATH[flow], headers: bearer(flow, token), token: null },
      { handle: (error) => error.status === 401 },
    )) as TokenAdminAnswer | undefined;
    yield put(tokenChecked({ flow, token, admin: result?.admin ?? { id: 0 } }));
  } catch (error) {
    yield put(tokenCheckFailed({ flow }));
    if (isStatus(error, 401)) yield call(navigateTo, TOKEN_EXPIRED_PATH, { replace: true, state: expiredPageState(flow, error) });
  }
}

export function* submitTokenForm({ payload }: ReturnType<typeof tokenFormSubmitted>) {
  const { flow, submit, adminId, token, data } = payload;
  try {
    yield call(
      callApi,
      `accountTokens/${flow}/submit`,
      { method: submit.method, path: submit.path.replace(':adminId', encodeURIComponent(adminId)), body: data, headers: bearer(flow, token), token: null },
      { handle: (error) => error.status === 401 || error.status === 422 },
    );
    yield put(tokenFormSucceeded({ flow }));
    yield call(navigateTo, flow === 'activation' ? ACTIVATION_SUCCESS_PATH : PASSWORD_RESET_SUCCESS_PATH, { replace: true });
  } catch (error) {
    yield put(tokenFormFailed({ flow, fieldErrors: isStatus(error, 422) ? (error.fieldErrors ?? []) : [] }));
    if (isStatus(error, 401)) yield call(navigateTo, TOKEN_EXPIRED_PATH, { replace: true, state: expiredPageState(flow, error) });
  }
}

export function* accountTokensSaga() {
  yield takeLatest(mailRequested.type, requestMail);
  yield takeLatest(tokenCheckRequested.type, checkToken);
  yield takeLatest(tokenFormSubmitted.type, submitTokenForm);
}
