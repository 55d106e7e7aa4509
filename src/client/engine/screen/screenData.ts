/**
 * What screens load (ScreenDefinition.data): one generic saga loads every entry of a screen through callApi when the
 * screen is entered, keyed by screen, and again when an outcome asks for a reload. Failures follow the entry's
 * outcomes (e.g. navigate to top), else the general handling of SPEC §8; a success follows a row of them that matches
 * it (e.g. `{"on": "success", "when": <the answer is empty>, "navigate": …}`).
 */
import { all, call, delay, put, race, select, take, takeLatest } from 'redux-saga/effects';
import { applyOutcome, chooseOutcome, runCall, type CallResult } from './calls.js';
import { matches } from './conditions.js';
import { navigateToScreen, screenById } from './navigation.js';
import type { ScreenContext } from './values.js';
import { screenDataLoaded, screenDataReloaded, screenEntered, screenLeft, type ScreenDataEntry, type ScreenDataRootState } from './screenDataState.js';

/**
 * Loads the screen's data entries, at once those that wait for none, then each as soon as the entries named in its
 * `after` have answered (their answers in `$data`); an entry whose `when` does not hold, or that waits for one that
 * failed, is left out. The screen shows its loader until all have answered.
 */
export function* loadScreenData(screenId: string): Generator<unknown, void, unknown> {
  const entry = (yield select((state: ScreenDataRootState) => state.screenData[screenId])) as ScreenDataEntry | undefined;
  const definitions = Object.entries(screenById(screenId).data ?? {});
  if (!entry) return;
  const values: Record<string, unknown> = { ...entry.values };
  const results = new Map<string, CallResult>();
  const left = new Set<string>();
  let waiting = definitions;
  while (waiting.length > 0) {
    const ready = waiting.filter(([, definition]) => (definition.after ?? []).every((key) => results.has(key) || left.has(key)));
    if (ready.length === 0) break; // entries waiting for each other (check:config reports it): never loaded
    waiting = waiting.filter((candidate) => !ready.includes(candidate));
    const context: Partial<ScreenContext> = { ...entry.context, data: values };
    const loading = ready.filter(([key, definition]) => {
      const blocked = (definition.after ?? []).some((other) => left.has(other) || !results.get(other)!.ok);
      if (!blocked && matches(definition.when, context)) return true;
      left.add(key);
      delete values[key];
      return false;
    });
    const answers = (yield all(loading.map(([key, definition]) => call(runCall, `screens/${screenId}/${key}`, definition, context, definition.outcomes)))) as CallResult[];
    loading.forEach(([key], index) => {
      results.set(key, answers[index]!);
      if (answers[index]!.ok) values[key] = answers[index]!.body;
    });
  }
  yield put(screenDataLoaded({ screenId, status: [...results.values()].every((result) => result.ok) ? 'loaded' : 'failed', values }));
  // a failure's row, or a success's when a row claims it (e.g. an empty answer goes to top)
  for (const [key, definition] of definitions) {
    const result = results.get(key);
    if (!result) continue;
    const outcome = chooseOutcome(definition.outcomes, result, entry.context);
    if (outcome) yield* applyOutcome(outcome, { ...entry.context, body: result.body, status: result.status }, undefined, screenId);
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
