/**
 * A screen's API call (data to load, an action's call, a form's submit) and the choice of its outcome: the first row
 * of the outcome table that matches the answer (SPEC §8: what the spec says a screen does with each answer).
 */
import { getI18n } from 'react-i18next';
import { call, put, select } from 'redux-saga/effects';
import type { CallDefinition, FlashSpec, Outcome } from '../../../common/screens.js';
import { translates } from '../../../common/translatingRoutes.js';
import { callApi } from '../../api/callApi.js';
import { currentPathFromContext, navigateTo } from '../../api/context.js';
import { handleApiError } from '../../api/errorCatalogue.js';
import { isApiError, type ApiError } from '../../api/http.js';
import { CALL_TIMEOUT_MS, SIGNIN_PATH } from '../../state/constants.js';
import { flashShown } from '../../state/flash.js';
import { sessionCleared, type SessionRootState } from '../../state/session.js';
import { chooseCall } from './callChoice.js';
import { callTarget, errorResult, targetKey, type CallResult, type CallTarget } from './callRequest.js';
import { normalized } from './normalizers.js';
import { takePreloaded } from './preloadedAnswers.js';
import { rememberValues } from './remember.js';
import { matches } from './conditions.js';
import { navigateToScreen } from './navigation.js';
import { screenLocalSet } from './local.js';
import { formFieldsSet } from '../forms/formState.js';
import { resolveValue, resolveValues, type ScreenContext } from './values.js';

export type { CallResult } from './callRequest.js';

/** The header of a call with `idempotencyKey` (the server's api/idempotency.ts). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** 128 random bits as hex (getRandomValues: randomUUID needs a secure context). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function outcomeMatches(outcome: Outcome, result: CallResult, context: Partial<ScreenContext>): boolean {
  if (outcome.on === 'success' ? !result.ok : outcome.on === 'failure' ? result.ok : result.status !== outcome.on) return false;
  if (outcome.code !== undefined && outcome.code !== result.code) return false;
  return matches(outcome.when, { ...context, body: result.body, status: result.status });
}

export function chooseOutcome(outcomes: readonly Outcome[] = [], result: CallResult, context: Partial<ScreenContext>): Outcome | undefined {
  return outcomes.find((outcome) => outcomeMatches(outcome, result, context));
}

/**
 * The page's language as `lang` of a call whose answer is translated (src/common/translatingRoutes.ts), unless it
 * names one (the route table's preloads have it already: src/configuration/split.ts).
 */
function withPageLanguage(definition: CallDefinition, target: CallTarget, language: string | undefined): CallTarget {
  if (!language || target.query.lang !== undefined || !translates(target.method, definition.path, definition.version)) return target;
  return { ...target, query: { ...target.query, lang: language } };
}

/**
 * Makes the call, with the definition's body or else `formData`; a failure that a row of `outcomes` claims skips the
 * general handling (callApi runs it otherwise). Never throws: the result says how it went.
 */
export function* runCall(
  operation: string,
  definition: CallDefinition,
  context: Partial<ScreenContext>,
  outcomes: readonly Outcome[] = [],
  formData?: Record<string, unknown>,
): Generator<unknown, CallResult, unknown> {
  definition = chooseCall(definition, context);
  let target: CallTarget;
  try {
    const filled = (yield select((state: SessionRootState) => callTarget(definition, context, state))) as CallTarget;
    target = withPageLanguage(definition, filled, context.language);
  } catch (error) {
    // the definition and the route disagree: a defect, reported by the general handling
    yield call(handleApiError, error);
    return { ok: false, error };
  }
  const claims = (error: ApiError) => {
    const outcome = chooseOutcome(outcomes, errorResult(error), context);
    return outcome !== undefined && !outcome.general;
  };
  // the route's preload asked for it already (a screen's data on entering): its answer, handled as if asked now
  const preloaded = takePreloaded(targetKey(target));
  if (preloaded) {
    const result = (yield preloaded) as CallResult;
    if (isApiError(result.error) && !claims(result.error)) yield call(handleApiError, result.error);
    return result;
  }
  let body = definition.body ? resolveValues(definition.body, context) : formData;
  if (definition.passkey) {
    // the ceremony's code (and WebAuthn's library) arrive when a passkey is first added: not in the first load
    const { passkeyRegistration } = (yield call(() => import(/* webpackChunkName: "passkeys" */ './passkeyCeremony.js'))) as typeof import('./passkeyCeremony.js');
    const { register, body: optionsBody } = definition.passkey;
    const options = yield* runCall(`${operation}/options`, { method: 'POST', path: register, ...(optionsBody ? { body: optionsBody } : {}) }, context);
    const ceremony = yield* passkeyRegistration(options);
    if (!ceremony.ok) return ceremony.result;
    body = { ...body, credential: ceremony.credential };
  }
  const bearerToken = definition.bearer ? resolveValue(definition.bearer.token, context) : undefined;
  const version = definition.ifMatch === undefined ? undefined : resolveValue(definition.ifMatch, context);
  const headers = {
    ...(definition.bearer && bearerToken ? { [definition.bearer.header]: `Bearer ${String(bearerToken)}` } : {}),
    ...(typeof version === 'string' && version !== '' ? { 'if-match': version } : {}),
    ...(definition.idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: newIdempotencyKey() } : {}),
  };
  try {
    const answer: unknown = yield call(
      callApi,
      operation,
      {
        ...target,
        headers,
        ...(definition.timeout ? { timeoutMs: CALL_TIMEOUT_MS[definition.timeout] } : {}),
        ...(definition.multipart ? { multipart: true, reportUpload: true } : {}),
        ...(body === undefined ? {} : { body }),
      },
      { handle: claims },
    );
    return { ok: true, body: answer };
  } catch (error) {
    return errorResult(error);
  }
}

export function flashOf(spec: FlashSpec, context: Partial<ScreenContext>) {
  if (typeof spec === 'string') return flashShown({ kind: 'success', messageKey: spec });
  return flashShown({ kind: spec.kind ?? 'success', messageKey: spec.message, params: resolveValues(spec.values, context) });
}

/** Outcome.signOut (SPEC §8 'User calls returning 401'): the session and local storage cleared, then sign-in, back here after. */
function* signOut(): Generator<unknown, void, unknown> {
  const returnTo = (yield* currentPathFromContext()) as string;
  yield put(sessionCleared());
  try {
    globalThis.localStorage?.clear();
  } catch {
    // storage unavailable: nothing kept there
  }
  yield* navigateTo(`${SIGNIN_PATH}?returnTo=${encodeURIComponent(returnTo)}`, { replace: true });
}

/**
 * What an outcome does besides field messages and reloads (which belong to the form or the screen): its event with
 * the answer, its flash, then its navigation. `done` is the path of a form's done step.
 */
export function* applyOutcome(
  outcome: Outcome,
  context: Partial<ScreenContext>,
  done?: () => Generator<unknown, void, unknown>,
  screenId?: string,
): Generator<unknown, void, unknown> {
  if (outcome.signOut) yield* signOut();
  if (outcome.set && screenId) yield put(screenLocalSet({ screenId, values: normalized(resolveValues(outcome.set as Record<string, string>, context), outcome.normalize) }));
  // the screen's form is keyed by the screen's id (forms/FormScreen.tsx)
  if (outcome.setFields && screenId) yield put(formFieldsSet({ formId: screenId, values: resolveValues(outcome.setFields, context) }));
  if (outcome.save && savedText(outcome.save, context) !== undefined) yield call(saveFile, outcome.save, context);
  if (outcome.copy) yield call(copyText, textOf(resolveValue(outcome.copy, context)));
  if (outcome.open) yield call(openWindow, textOf(resolveValue(outcome.open, context)));
  if (outcome.remember) yield call(rememberValues, resolveValues(outcome.remember, context));
  if (outcome.event) yield put({ type: outcome.event, payload: context.body });
  if (outcome.flash) yield put(flashOf(outcome.flash, context));
  if (outcome.navigate === 'done') {
    if (done) yield* done();
  } else if (outcome.navigate) {
    yield* navigateToScreen(outcome.navigate, context);
  }
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Today as yyyyMMdd (SPEC §9 CSV file name), in the browser's time zone. */
export function compactDate(now = new Date()): string {
  return `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
}

/** The UTF-8 byte-order mark (SPEC §9: bytes 239, 187, 191). */
export const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** A value as text: a list a line per element. */
const textOf = (value: unknown): string => (Array.isArray(value) ? value.map(String).join('\n') : value === undefined || value === null ? '' : String(value));

/** What an outcome saves: the answer's text, or its `content`; undefined when there is nothing to save. */
function savedText(save: NonNullable<Outcome['save']>, context: Partial<ScreenContext>): string | undefined {
  if (save.content !== undefined) return textOf(resolveValue(save.content, context));
  return typeof context.body === 'string' ? context.body : undefined;
}

/** The file an outcome saves: its text, after the byte-order mark when asked, under its file name. */
export function savedFile(save: NonNullable<Outcome['save']>, context: Partial<ScreenContext>, now = new Date()): { name: string; blob: Blob } {
  const values = { ...resolveValues(save.values, context), date: compactDate(now) };
  const i18n = getI18n();
  const name = i18n ? i18n.t(save.fileName, values) : save.fileName;
  const text = savedText(save, context) ?? '';
  const parts: BlobPart[] = save.bom ? [UTF8_BOM, text] : [text];
  return { name, blob: new Blob(parts, { type: save.type ?? 'text/plain;charset=utf-8' }) };
}

/** Copies to the clipboard (a page served over https or localhost may; elsewhere the browser refuses, and nothing breaks). */
async function copyText(text: string): Promise<void> {
  await globalThis.navigator?.clipboard?.writeText(text).catch(() => undefined);
}

/**
 * Opens the URL in a new window, right after the call the click made (the browser still counts it as the click's), with
 * no opener: the page there cannot reach this one. Only http(s) URLs (an answer naming javascript: opens nothing).
 */
export function openWindow(url: string): void {
  if (/^https?:\/\//i.test(url)) globalThis.open?.(url, '_blank', 'noopener');
}

/** Saves through a temporary link (the download attribute names the file). */
function saveFile(save: NonNullable<Outcome['save']>, context: Partial<ScreenContext>): void {
  const { name, blob } = savedFile(save, context);
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // revoked once the browser has surely taken the file (an early revoke can turn the download into a navigation)
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
