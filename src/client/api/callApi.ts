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
import { eventChannel, type EventChannel, type Task } from 'redux-saga';
import { call, cancel, cancelled, fork, getContext, put, select, take } from 'redux-saga/effects';
import { API_ERROR } from '../../common/errorCodes.js';
import { operationFulfilled, operationPending, operationRejected, operationReset, operationUploaded, toOperationError } from '../state/operations.js';
import { API_CONTEXT, httpClientFromContext, tokenFromState } from './context.js';
import { handleApiError } from './errorCatalogue.js';
import { isApiError, type ApiError, type HttpClient, type RequestOptions } from './http.js';
import type { UploadProgress } from './xhrTransport.js';

export interface CallApiOptions {
  /** Return true to claim the error: the general handling is then skipped. */
  handle?: (error: ApiError) => boolean;
}

/**
 * Request options as callApi takes them: the token comes from the session unless given (null: none); with
 * reportUpload the operation's state follows how much of the body has been sent (an upload's percentage).
 */
export type CallApiRequest = Omit<RequestOptions, 'signal' | 'onUploadProgress'> & { reportUpload?: boolean };

/** A channel of an upload's progress callbacks, and a task putting each into the operation's state. */
function* followUpload(operation: string): Generator<unknown, { channel: EventChannel<number>; task: Task; onUploadProgress: UploadProgress }, unknown> {
  let emit: (uploaded: number) => void = () => undefined;
  const channel = eventChannel<number>((emitter) => {
    emit = emitter;
    return () => undefined;
  });
  const task = (yield fork(function* () {
    for (;;) yield put(operationUploaded({ name: operation, uploaded: (yield take(channel)) as number }));
  })) as Task;
  return { channel, task, onUploadProgress: (sent, total) => emit(total > 0 ? Math.min(1, sent / total) : 0) };
}

function* send(
  client: HttpClient,
  request: CallApiRequest,
  controller: AbortController,
  onUploadProgress?: UploadProgress,
): Generator<unknown, unknown, unknown> {
  const token = request.token !== undefined ? request.token : ((yield select(tokenFromState)) as string | null);
  const { reportUpload: _reportUpload, ...options } = request;
  return (yield call([client, client.request], { ...options, token, signal: controller.signal, ...(onUploadProgress ? { onUploadProgress } : {}) })) as unknown;
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
  const upload = request.reportUpload ? yield* followUpload(operation) : undefined;
  try {
    let data: unknown;
    try {
      data = yield* send(client, request, controller, upload?.onUploadProgress);
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
    if (upload) {
      upload.channel.close();
      yield cancel(upload.task);
    }
    if ((yield cancelled()) as boolean) {
      // cancelled (e.g. an upload's Cancel): the request is aborted and the operation no longer pending
      controller.abort();
      yield put(operationReset({ name: operation }));
    }
  }
}
