/**
 * What screens load (ScreenDefinition.data): one generic saga loads every entry of a screen through callApi when the
 * screen is entered, keyed by screen, and again when an outcome asks for a reload. Failures follow the entry's
 * outcomes (e.g. navigate to top), else the general handling of SPEC §8; a success follows a row of them that matches
 * it (e.g. `{"on": "success", "when": <the answer is empty>, "navigate": …}`).
 */
import { all, call, delay, put, race, select, take, takeLatest, takeLeading } from 'redux-saga/effects';
import type { DataDefinition, DataPages } from '../../../common/screens.js';
import { applyOutcome, chooseOutcome, runCall, type CallResult } from './calls.js';
import { matches } from './conditions.js';
import { navigateToScreen, screenById } from './navigation.js';
import type { ScreenContext } from './values.js';
import { actionCreator } from '../../state/actions.js';
import {
  screenDataLoaded,
  screenDataReloaded,
  screenEntered,
  screenLeft,
  type ScreenDataEntry,
  type ScreenDataRootState,
} from './screenDataState.js';

/**
 * Loads the screen's data entries, at once those that wait for none, then each as soon as the entries named in its
 * `after` have answered (their answers in `$data`); an entry whose `when` does not hold, or that waits for one that
 * failed, is left out. The screen shows its loader until all have answered. A reload (`refill`) of a paged entry loads
 * as many rows as were shown before, so a table scrolled far down stays where it was.
 */
export function* loadScreenData(screenId: string, refill = false): Generator<unknown, void, unknown> {
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
    if (refill) {
      for (const [key, definition] of loading) {
        if (results.get(key)!.ok && definition.pages) values[key] = yield* refilled(screenId, key, definition as PagedDefinition, values[key], entry.values[key], context);
      }
    }
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

type PagedDefinition = DataDefinition & { pages: DataPages };

/** A table of a paged entry (DataDefinition.pages) nears the end of its rows: the next page is wanted. */
export const screenDataMoreWanted = actionCreator<{ screenId: string; key: string }>('screens/moreWanted');

/** The cursor of a paged entry's next page, or undefined when its last page is loaded (or the entry is not paged). */
export function nextCursor(value: unknown, pages: DataPages | undefined): unknown {
  const cursor = pages && typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[pages.next] : undefined;
  return cursor === null ? undefined : cursor;
}

/** The page of a paged entry after the cursor `after`. */
function* pageAfter(screenId: string, key: string, definition: PagedDefinition, after: unknown, context: Partial<ScreenContext>): Generator<unknown, CallResult, unknown> {
  const query = { ...definition.query, [definition.pages.cursor]: after as string };
  return (yield call(runCall, `screens/${screenId}/${key}`, { ...definition, query }, context, definition.outcomes)) as CallResult;
}

/** A reloaded paged entry with its next pages until it holds as many rows as `before` did (or the list ends, or a page fails). */
function* refilled(screenId: string, key: string, definition: PagedDefinition, loaded: unknown, before: unknown, context: Partial<ScreenContext>): Generator<unknown, unknown, unknown> {
  const { rows } = definition.pages;
  const wanted = rowsOf(before, rows).length;
  let value = loaded;
  for (let after = nextCursor(value, definition.pages); after !== undefined && rowsOf(value, rows).length < wanted; after = nextCursor(value, definition.pages)) {
    const result = yield* pageAfter(screenId, key, definition, after, context);
    if (!result.ok) break;
    value = withPage(value, result.body, rows);
  }
  return value;
}

const rowsOf = (value: unknown, rows: string): unknown[] => {
  const list = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[rows] : undefined;
  return Array.isArray(list) ? list : [];
};

/** The next page's answer with the rows before it in front of its own. */
const withPage = (value: unknown, page: unknown, rows: string) => ({ ...(page as Record<string, unknown>), [rows]: [...rowsOf(value, rows), ...rowsOf(page, rows)] });

/** The next page of a paged entry, asked by its table as it nears the end of the rows (one load at a time). */
export function* loadMore({ payload: { screenId, key } }: ReturnType<typeof screenDataMoreWanted>): Generator<unknown, void, unknown> {
  const entry = (yield select((state: ScreenDataRootState) => state.screenData[screenId])) as ScreenDataEntry | undefined;
  const definition = screenById(screenId).data?.[key];
  if (!entry || entry.status !== 'loaded' || !definition?.pages) return;
  const after = nextCursor(entry.values[key], definition.pages);
  if (after === undefined) return;
  const result = yield* pageAfter(screenId, key, definition as PagedDefinition, after, { ...entry.context, data: entry.values });
  if (result.ok) {
    // added unless the entry was loaded again meanwhile (its cursor moved): no row twice
    const current = (yield select((state: ScreenDataRootState) => state.screenData[screenId])) as ScreenDataEntry | undefined;
    if (!current || nextCursor(current.values[key], definition.pages) !== after) return;
    const value = withPage(current.values[key], result.body, definition.pages.rows);
    yield put(screenDataLoaded({ screenId, status: current.status, values: { ...current.values, [key]: value } }));
    return;
  }
  const outcome = chooseOutcome(definition.outcomes, result, entry.context);
  if (outcome) yield* applyOutcome(outcome, { ...entry.context, body: result.body, status: result.status }, undefined, screenId);
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
    yield* loadScreenData(payload.screenId, true);
  });
  yield takeLeading(screenDataMoreWanted.type, loadMore);
}
