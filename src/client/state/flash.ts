/**
 * Flash messages (SPEC 2.2): shown, faded out by the view, cleared at FLASH_CLEAR_MS;
 * the close button marks one as closing and it is removed after FLASH_CLOSE_ANIMATION_MS.
 */
import type { UnknownAction } from 'redux';
import { delay, put, takeEvery } from 'redux-saga/effects';
import { actionCreator } from './actions.js';
import { FLASH_CLEAR_MS, FLASH_CLOSE_ANIMATION_MS } from './constants.js';

export type FlashKind = 'success' | 'info' | 'warning' | 'error';

export interface FlashMessage {
  id: string;
  kind: FlashKind;
  /** A locale key, e.g. 'errors.network'. */
  messageKey: string;
  params?: Record<string, unknown>;
  /** Set by flashClosed while the closing animation runs. */
  closing?: boolean;
}

export interface FlashState {
  messages: FlashMessage[];
}

export const initialFlashState: FlashState = { messages: [] };

export const FLASH_SHOWN = 'flash/shown';
export const FLASH_CLOSED = 'flash/closed';
export const FLASH_CLEARED = 'flash/cleared';

export interface FlashInput {
  kind: FlashKind;
  messageKey: string;
  params?: Record<string, unknown>;
  /** Generated when absent. */
  id?: string;
}

function newFlashId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

const flashShownAction = actionCreator<FlashMessage, typeof FLASH_SHOWN>(FLASH_SHOWN);
/** Show a flash message; its id is generated unless given. */
export const flashShown = Object.assign(
  (input: FlashInput) =>
    flashShownAction({
      id: input.id ?? newFlashId(),
      kind: input.kind,
      messageKey: input.messageKey,
      ...(input.params === undefined ? {} : { params: input.params }),
    }),
  { type: FLASH_SHOWN as typeof FLASH_SHOWN, match: flashShownAction.match },
);
/** The close button was pressed: the message starts its closing animation. */
export const flashClosed = actionCreator<string, typeof FLASH_CLOSED>(FLASH_CLOSED);
/** Remove one message by id, or every message when no id is given. */
export const flashCleared = actionCreator<string | void, typeof FLASH_CLEARED>(FLASH_CLEARED);

/** Shorthands for sagas: `yield put(flash.error('errors.network'))`. */
export const flash = {
  success: (messageKey: string, params?: Record<string, unknown>) => flashShown({ kind: 'success', messageKey, params }),
  info: (messageKey: string, params?: Record<string, unknown>) => flashShown({ kind: 'info', messageKey, params }),
  warning: (messageKey: string, params?: Record<string, unknown>) => flashShown({ kind: 'warning', messageKey, params }),
  error: (messageKey: string, params?: Record<string, unknown>) => flashShown({ kind: 'error', messageKey, params }),
};

export function flashReducer(state: FlashState = initialFlashState, action: UnknownAction): FlashState {
  if (flashShown.match(action)) {
    // the same words shown again (two calls of one page failing alike) replace the first: one message, one timer
    const same = (message: FlashMessage) =>
      message.kind === action.payload.kind && message.messageKey === action.payload.messageKey && JSON.stringify(message.params) === JSON.stringify(action.payload.params);
    const others = state.messages.filter((message) => message.id !== action.payload.id && !same(message));
    return { messages: [...others, action.payload] };
  }
  if (flashClosed.match(action)) {
    if (!state.messages.some((message) => message.id === action.payload)) return state;
    return {
      messages: state.messages.map((message) =>
        message.id === action.payload ? { ...message, closing: true } : message,
      ),
    };
  }
  if (flashCleared.match(action)) {
    const id = action.payload;
    if (id === undefined) return state.messages.length === 0 ? state : initialFlashState;
    if (!state.messages.some((message) => message.id === id)) return state;
    return { messages: state.messages.filter((message) => message.id !== id) };
  }
  return state;
}

export interface FlashRootState {
  flash: FlashState;
}

export const selectFlashMessages = (state: FlashRootState): FlashMessage[] => state.flash.messages;

function* clearAfterDisplay(action: ReturnType<typeof flashShown>) {
  yield delay(FLASH_CLEAR_MS);
  yield put(flashCleared(action.payload.id));
}

function* removeAfterAnimation(action: ReturnType<typeof flashClosed>) {
  yield delay(FLASH_CLOSE_ANIMATION_MS);
  yield put(flashCleared(action.payload));
}

/** Fork in the root saga. */
export function* flashSaga() {
  yield takeEvery(FLASH_SHOWN, clearAfterDisplay);
  yield takeEvery(FLASH_CLOSED, removeAfterAnimation);
}
