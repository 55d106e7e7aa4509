/**
 * callApi: the way every saga calls the API.
 *
 *   const { contacts } = yield* callApi<{ contacts: Contact[] }>('contacts/load', { path: `organizations/${id}/contacts` });
 *
 * It tracks the operation (pending → fulfilled | rejected), sends the session's access token, and on failure
 * runs the general error handling of SPEC §8 unless the caller's `handle(error)` returns true (the caller
 * claims the error, e.g. a 422 shown on a form or a 304 'already registered'). Either way the error is then
 * thrown so the caller can react; catch it in the calling saga (an uncaught error ends the saga's parent).
 */
import { call, cancelled, getContext, put, select } from 'redux-saga/effects';
import { API_ERROR } from '../../common/errorCodes.js';
import { operationFulfilled, operationPending, operationRejected, toOperationError } from '../state/operations.js';
import { API_CONTEXT, httpClientFromContext, tokenFromState } from './context.js';
import { handleApiError } from './errorCatalogue.js';
import { isApiError, type ApiError, type HttpClient, type RequestOptions } from './http.js';

export interface CallApiOptions {
  /** Return true to claim the error: the general handling is then skipped. */
  handle?: (error: ApiError) => boolean;
}

/** Request options as callApi takes them: the token comes from the session unless given (null: none). */
export type CallApiRequest = Omit<RequestOptions, 'signal'>;

function* send(
  client: HttpClient,
  request: CallApiRequest,
  controller: AbortController,
): Generator<unknown, unknown, unknown> {
  const token = request.token !== undefined ? request.token : ((yield select(tokenFromState)) as string | null);
  return (yield call([client, client.request], { ...request, token, signal: controller.signal })) as unknown;
}

type RetryOutcome = { retried: false } | { retried: true; data: unknown };

function* refreshAndRetry(
  client: HttpClient,
  request: CallApiRequest,
  error: unknown,
  controller: AbortController,
): Generator<unknown, RetryOutcome, unknown> {
  // Extension point (SPEC §4 Session): refresh once on 401 access_token_expired and retry with the new token.
  if (request.token !== undefined || !isApiError(error) || error.status !== 401) return { retried: false };
  if (error.code !== API_ERROR.accessTokenExpired) return { retried: false };
  const refreshSession = (yield getContext(API_CONTEXT.refreshSession)) as (() => unknown) | undefined;
  if (!refreshSession) return { retried: false };
  const refreshed = (yield call(refreshSession)) as unknown;
  if (refreshed !== true) return { retried: false };
  const data = yield* send(client, request, controller);
  return { retried: true, data };
}

export function* callApi<T = unknown>(
  operation: string,
  request: CallApiRequest,
  options: CallApiOptions = {},
): Generator<unknown, T, unknown> {
  yield put(operationPending({ name: operation }));
  const client = (yield* httpClientFromContext()) as HttpClient;
  const controller = new AbortController();
  try {
    let data: unknown;
    try {
      data = yield* send(client, request, controller);
    } catch (firstError) {
      const retry = yield* refreshAndRetry(client, request, firstError, controller);
      if (!retry.retried) throw firstError;
      data = retry.data;
    }
    yield put(operationFulfilled({ name: operation }));
    return data as T;
  } catch (error) {
    if (isApiError(error)) {
      yield put(operationRejected({ name: operation, error: toOperationError(error) }));
      const claimed = options.handle ? options.handle(error) : false;
      if (!claimed) yield call(handleApiError, error);
    } else {
      const message = error instanceof Error ? error.message : String(error);
      yield put(operationRejected({ name: operation, error: { kind: 'unknown', message } }));
      yield call(handleApiError, error);
    }
    throw error;
  } finally {
    if ((yield cancelled()) as boolean) controller.abort();
  }
}
