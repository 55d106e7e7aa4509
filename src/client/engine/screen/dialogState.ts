/**
 * A screen's actions as the page sees them: the requests and cancellations of actions, the open dialog and the
 * operation name of an action's call. In the first load; the saga that runs them (actions.ts) comes with the screen
 * engine's chunk.
 */
import type { UnknownAction } from 'redux';
import type { DialogDefinition } from '../../../common/screens.js';
import { actionCreator } from '../../state/actions.js';
import type { ScreenContext } from './values.js';

/** An open dialog, its values already resolved: a confirmation, or the form of an action (`form`). */
export interface OpenDialog extends Omit<DialogDefinition, 'values' | 'alternatives'> {
  values: Record<string, unknown>;
  form?: { screenId: string; actionId: string; context: Partial<ScreenContext> };
}

export const actionRequested = actionCreator<{ screenId: string; actionId: string; context: Partial<ScreenContext> }>('screens/actionRequested');
/** Stops an action's running call (an upload's Cancel): the request is aborted and no outcome follows. */
export const actionCancelled = actionCreator<{ screenId: string; actionId: string }>('screens/actionCancelled');
export const dialogOpened = actionCreator<OpenDialog>('screens/dialogOpened');
export const dialogConfirmed = actionCreator<void>('screens/dialogConfirmed');
export const dialogCancelled = actionCreator<void>('screens/dialogCancelled');

export function dialogReducer(state: OpenDialog | null = null, action: UnknownAction): OpenDialog | null {
  if (dialogOpened.match(action)) return action.payload;
  if (dialogConfirmed.match(action) || dialogCancelled.match(action)) return null;
  return state;
}

export interface DialogRootState {
  dialog: OpenDialog | null;
}

export const selectDialog = (state: DialogRootState): OpenDialog | null => state.dialog;

/** The operation name of an action's call, for its pending state. */
export const actionOperation = (screenId: string, actionId: string): string => `screens/${screenId}/actions/${actionId}`;
