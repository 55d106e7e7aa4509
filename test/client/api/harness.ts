/**
 * Test harness for sagas: a real redux store with the shared slices, saga middleware with the api context,
 * a log of dispatched actions, and a fake fetch (the only stubbed boundary).
 */
import { applyMiddleware, combineReducers, legacy_createStore as createStore, type Middleware, type UnknownAction } from 'redux';
import createSagaMiddleware, { type Saga } from 'redux-saga';
import sinon from 'sinon';
import { createHttpClient, type FetchLike } from '../../../src/client/api/http.js';
import type { ApiSagaContext } from '../../../src/client/api/context.js';
import { stateReducers } from '../../../src/client/state/index.js';

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** A fetch that answers by route ('GET /api/v2/x' → handler); unknown routes answer 404. */
export type Route = (url: string, init: RequestInit) => Response | Promise<Response>;

export function fakeFetch(routes: Record<string, Route>) {
  return sinon.stub<Parameters<FetchLike>, ReturnType<FetchLike>>().callsFake(async (url, init) => {
    const key = `${init.method ?? 'GET'} ${url.split('?')[0]}`;
    const route = routes[key];
    if (!route) return jsonResponse(404, { error: 'not_found' });
    return route(url, init);
  });
}

/** The request of a call that reports upload progress, as a route receives it. */
export type UploadInit = RequestInit & { onUploadProgress: (sent: number, total: number) => void };

export const networkFailure: Route = () => Promise.reject(new TypeError('fetch failed'));

/** A fetch response that only ends when the request's signal aborts. */
export const hangs: Route = (_url, init) =>
  new Promise<Response>((_resolve, reject) => {
    init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

export function bodyOf(init: RequestInit | undefined): unknown {
  return JSON.parse(String(init?.body));
}

export function setup(
  options: {
    routes?: Record<string, Route>;
    context?: Partial<ApiSagaContext>;
    reducers?: Record<string, (state: any, action: UnknownAction) => unknown>;
  } = {},
) {
  const fetch = fakeFetch(options.routes ?? {});
  const navigate = sinon.spy();
  const actions: UnknownAction[] = [];
  const log: Middleware = () => (next) => (action) => {
    actions.push(action as UnknownAction);
    return next(action);
  };
  const sagaMiddleware = createSagaMiddleware({
    context: {
      navigate,
      currentPath: () => '/account?tab=1',
      // an upload's route sees its progress callback as init.onUploadProgress (UploadInit), to report progress as a browser would
      httpClient: createHttpClient({ fetch, retryDelay: () => 0, uploadTransport: (onUploadProgress) => (url, init) => fetch(url, { ...init, onUploadProgress } as UploadInit) }),
      ...options.context,
    },
  });
  const store = createStore(
    combineReducers({ ...stateReducers, ...(options.reducers ?? {}) }),
    applyMiddleware(log, sagaMiddleware),
  );
  const run = <S extends Saga>(saga: S, ...args: Parameters<S>) => sagaMiddleware.run(saga, ...args);
  const calls = (method: string, path: string) =>
    fetch.getCalls().filter((c) => (c.args[1].method ?? 'GET') === method && c.args[0].split('?')[0] === path);
  return { store, fetch, navigate, actions, run, calls };
}

/** Let pending promises and saga steps settle (does not advance fake timers). */
export async function settle(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setImmediate(resolve));
}
