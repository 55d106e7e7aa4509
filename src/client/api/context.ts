/**
 * What the app puts into the saga context (createSagaMiddleware({context})) for the api layer.
 */
import { getContext } from 'redux-saga/effects';
import { accessToken, type SessionRootState } from '../state/session.js';
import { createHttpClient, type HttpClient } from './http.js';

/** react-router's navigate options that sagas use: replace the history entry, and navigation state (e.g. {flow, errorCode}). */
export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type Navigate = (to: string, options?: NavigateOptions) => void;

export interface ApiSagaContext {
  /** Required: react-router's router.navigate. */
  navigate: Navigate;
  /** Optional: the HTTP client; default createHttpClient() on the global fetch. Tests inject a stubbed fetch here. */
  httpClient?: HttpClient;
  /** Optional: path + search + hash of the current page; default window.location. */
  currentPath?: () => string;
  /**
   * Optional extension point for refresh-and-retry (SPEC §4 Session): a saga (generator function) or
   * function that refreshes the session, stores it with sessionStored, and returns true on success
   * (false after signing out). When present, callApi calls it once on 401 access_token_expired and
   * retries the call with the new token; when absent, the general handling runs.
   */
  refreshSession?: () => unknown;
}

export const API_CONTEXT = {
  navigate: 'navigate',
  httpClient: 'httpClient',
  currentPath: 'currentPath',
  refreshSession: 'refreshSession',
} as const satisfies Record<keyof ApiSagaContext, string>;

export function* httpClientFromContext(): Generator<unknown, HttpClient, unknown> {
  const client = (yield getContext(API_CONTEXT.httpClient)) as HttpClient | undefined;
  return client ?? createHttpClient();
}

export function* navigateTo(to: string, options?: NavigateOptions): Generator<unknown, void, unknown> {
  const navigate = (yield getContext(API_CONTEXT.navigate)) as Navigate | undefined;
  if (navigate) navigate(to, options);
  else if (typeof window !== 'undefined') {
    if (options?.replace) window.location.replace(to);
    else window.location.assign(to);
  }
}

export function* currentPathFromContext(): Generator<unknown, string, unknown> {
  const currentPath = (yield getContext(API_CONTEXT.currentPath)) as (() => string) | undefined;
  if (currentPath) return currentPath();
  if (typeof window === 'undefined') return '/';
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

/** The session's access token, or null (also when the store has no session slice). */
export const tokenFromState = (state: Partial<SessionRootState> | undefined): string | null =>
  state?.session ? accessToken(state as SessionRootState) : null;
