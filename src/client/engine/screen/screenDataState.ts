/**
 * What screens have loaded (ScreenDefinition.data), keyed by screen: the state, its actions and selectors. In the first
 * load (the frame's breadcrumb reads it); the saga that loads (screenData.ts) comes with the screen engine's chunk.
 */
import type { UnknownAction } from 'redux';
import { actionCreator } from '../../state/actions.js';
import { screenLocalSet } from './local.js';
import type { ScreenContext } from './values.js';

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
