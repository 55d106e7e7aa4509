/**
 * Sending an error report (SPEC §8 'anything else'): POST /api/v2/client_errors {message, context} through the same
 * HTTP client, every string cut to ERROR_REPORT_MAX_LENGTH characters, the page's location without its query, hash
 * or token segments. Loaded on the first report (report.ts).
 */
import { call, select } from 'redux-saga/effects';
import { reportedLocation } from '../../common/logRedaction.js';
import { ERROR_REPORT_MAX_LENGTH, ERROR_REPORT_TIMEOUT_MS } from '../state/constants.js';
import { httpClientFromContext, tokenFromState } from './context.js';
import type { HttpClient } from './http.js';

export const CLIENT_ERRORS_PATH = 'client_errors';

export interface ErrorReport {
  message: string;
  context?: Record<string, unknown>;
}

/** Deep copy in which every string is cut to `max` characters; errors become {name, message, stack}. */
export function truncateStrings(value: unknown, max = ERROR_REPORT_MAX_LENGTH, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return value.length > max ? value.slice(0, max) : value;
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (value instanceof Error) {
    return truncateStrings({ name: value.name, message: value.message, stack: value.stack }, max, seen);
  }
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item, max, seen));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return truncateStrings(String(value), max, seen);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[key] = truncateStrings(item, max, seen);
  return result;
}

/** Sends the report (report.ts reportError, which catches what this throws). */
export function* sendReport(report: ErrorReport): Generator<unknown, void, unknown> {
  const client = (yield* httpClientFromContext()) as HttpClient;
  const token = (yield select(tokenFromState)) as string | null;
  // origin and path only: queries and link paths carry tokens and codes (issue 7 finding 4)
  const location = typeof window === 'undefined' ? undefined : reportedLocation(window.location.href);
  const body = truncateStrings({
    message: report.message,
    context: { ...(location === undefined ? {} : { location }), ...report.context },
  });
  yield call([client, client.request], { method: 'POST', path: CLIENT_ERRORS_PATH, body, token, timeoutMs: ERROR_REPORT_TIMEOUT_MS });
}
