/**
 * What screens load (ScreenDefinition.data): one generic saga loads every entry of a screen through callApi when the
 * screen is entered, keyed by screen, and again when an outcome asks for a reload. Failures follow the entry's
 * outcomes (e.g. navigate to top), else the general handling of SPEC §8; a success follows a row of them that matches
 * it (e.g. `{"on": "success", "when": <the answer is empty>, "navigate": …}`).
 */
import type { UnknownAction } from 'redux';
import { all, call, delay, put, race, select, take, takeLatest } from 'redux-saga/effects';
import { actionCreator } from '../../state/actions.js';
import { applyOutcome, chooseOutcome, runCall, type CallResult } from './calls.js';
import { screenLocalSet } from './local.js';
import { navigateToScreen, screenById } from './navigation.js';
import type { ScreenContext } from './values.js';
import type { DataDefinition } from '../../../common/screens.js';

export type LoadStatus = 'loading' | 'loaded' | 'failed';

export interface ScreenDataEntry {
  status: LoadStatus;
  /** The answers by data key. */
  values: Record<string, unknown>;
  /** The context of the last load, for reloads. */
  context: Partial<ScreenContext>;
  /** The screen's own state (Outcome.set), empty on entering. */
  local: Record<string, unknown>;
}

export type ScreenDataState = Record<string, ScreenDataEntry>;

/** The route params, query, navigation state and session values the data paths and queries may use. */
export const screenEntered = actionCreator<{ screenId: string; context: Partial<ScreenContext> }>('screens/entered');
export const screenDataReloaded = actionCreator<{ screenId: string }>('screens/reloaded');
export const screenDataLoaded = actionCreator<{ screenId: string; status: LoadStatus; values: Record<string, unknown> }>('screens/loaded');
export const screenLeft = actionCreator<{ screenId: string }>('screens/left');


export function screenDataReducer(state: ScreenDataState = {}, action: UnknownAction): ScreenDataState {
  if (screenEntered.match(action)) {
    const { screenId, context } = action.payload;
    return { ...state, [screenId]: { status: 'loading', values: state[screenId]?.values ?? {}, context, local: {} } };
  }
  if (screenLocalSet.match(action)) {
    const entry = state[action.payload.screenId];
    if (!entry) return state;
    return { ...state, [action.payload.screenId]: { ...entry, local: { ...entry.local, ...action.payload.values } } };
  }
  if (screenDataLoaded.match(action)) {
    const entry = state[action.payload.screenId];
    if (!entry) return state;
    return { ...state, [action.payload.screenId]: { ...entry, status: action.payload.status, values: action.payload.values } };
  }
  if (screenLeft.match(action)) {
    const { [action.payload.screenId]: _left, ...rest } = state;
    return rest;
  }
  return state;
}

export interface ScreenDataRootState {
  screenData: ScreenDataState;
}

const NOTHING: ScreenDataEntry = { status: 'loaded', values: {}, context: {}, local: {} };
export const selectScreenData = (state: ScreenDataRootState, screenId: string): ScreenDataEntry => state.screenData[screenId] ?? NOTHING;

/** An entry whose params or query read another entry's answer (`$data.…`) loads after the others. */
export function readsData(definition: DataDefinition): boolean {
  return JSON.stringify([definition.params ?? {}, definition.query ?? {}]).includes('"$data.');
}

/**
 * Loads every data entry of the screen at once — those reading another entry's answer next, with it in their context
 * (the edit wizard's services, of the loaded application's group); the screen shows its loader until all have answered.
 */
export function* loadScreenData(screenId: string): Generator<unknown, void, unknown> {
  const entry = (yield select((state: ScreenDataRootState) => state.screenData[screenId])) as ScreenDataEntry | undefined;
  const all_ = Object.entries(screenById(screenId).data ?? {});
  if (!entry) return;
  const values: Record<string, unknown> = { ...entry.values };
  const results: Array<[string, DataDefinition, CallResult, Partial<ScreenContext>]> = [];
  for (const wave of [all_.filter(([, definition]) => !readsData(definition)), all_.filter(([, definition]) => readsData(definition))]) {
    if (wave.length === 0) continue;
    const context = { ...entry.context, data: values };
    // an entry whose source failed is not asked
    const answers = (yield all(
      wave.map(([key, definition]) => (readsData(definition) && results.some(([, , result]) => !result.ok) ? call(() => ({ ok: false }) as CallResult) : call(runCall, `screens/${screenId}/${key}`, definition, context, definition.outcomes))),
    )) as CallResult[];
    wave.forEach(([key, definition], index) => {
      const result = answers[index]!;
      if (result.ok) values[key] = result.body;
      results.push([key, definition, result, context]);
    });
  }
  yield put(screenDataLoaded({ screenId, status: results.every(([, , result]) => result.ok) ? 'loaded' : 'failed', values }));
  // a failure's row, or a success's when a row claims it (e.g. an empty answer goes to top)
  for (const [, definition, result, context] of results) {
    if (!result.ok && result.status === undefined && result.error === undefined) continue; // not asked
    const outcome = chooseOutcome(definition.outcomes, result, context);
    if (outcome) yield* applyOutcome(outcome, { ...context, body: result.body, status: result.status }, undefined, screenId);
  }
}

/** A screen's redirect after its delay (e.g. a success page going to sign-in), unless the screen was left first. */
export function* redirectLater({ payload }: ReturnType<typeof screenEntered>): Generator<unknown, void, unknown> {
  const redirect = screenById(payload.screenId).redirect;
  if (!redirect) return;
  const { timeout } = (yield race({ timeout: delay(redirect.afterMs), left: take(screenLeft.type) })) as { timeout?: true };
  if (timeout) yield* navigateToScreen(redirect.to, payload.context);
}

export function* screenDataSaga() {
  yield takeLatest(screenEntered.type, function* ({ payload }: ReturnType<typeof screenEntered>) {
    yield* loadScreenData(payload.screenId);
  });
  yield takeLatest(screenEntered.type, redirectLater);
  yield takeLatest(screenDataReloaded.type, function* ({ payload }: ReturnType<typeof screenDataReloaded>) {
    yield* loadScreenData(payload.screenId);
  });
}
