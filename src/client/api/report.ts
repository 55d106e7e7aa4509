/**
 * Error reporting (SPEC §8 'anything else'): POST /api/v2/client_errors {message, context} through the
 * same HTTP client, every string cut to ERROR_REPORT_MAX_LENGTH characters; a failing report is swallowed.
 */
import { call } from 'redux-saga/effects';
import { isApiError } from './http.js';
import type { ErrorReport } from './reportSender.js';

export type { ErrorReport } from './reportSender.js';

/** The report made for an error the general handling did not recognise. */
export function errorReportFor(error: unknown, extraContext: Record<string, unknown> = {}): ErrorReport {
  if (isApiError(error)) {
    return {
      message: error.message,
      context: {
        kind: error.kind,
        method: error.method,
        path: error.path,
        status: error.status,
        code: error.code,
        body: error.body,
        ...extraContext,
      },
    };
  }
  if (error instanceof Error) {
    return { message: `${error.name}: ${error.message}`, context: { stack: error.stack, ...extraContext } };
  }
  return { message: String(error), context: extraContext };
}

type ReportSender = typeof import('./reportSender.js');
let sender: ReportSender | undefined;

/** The sender at hand at once (tests; the browser loads it on the first report). */
export function provideReportSender(module: ReportSender): void {
  sender = module;
}

/**
 * `yield call(reportError, {message, context})`; never throws. The sending (cutting every string, the page's location
 * without its secrets) comes as a chunk of its own on the first report: a page that reports nothing never loads it.
 */
export function* reportError(report: ErrorReport): Generator<unknown, void, unknown> {
  try {
    sender ??= (yield call(() => import(/* webpackChunkName: "report" */ './reportSender.js'))) as ReportSender;
    yield* sender.sendReport(report);
  } catch {
    // A report that fails is dropped: it must never cause another error or message.
  }
}
