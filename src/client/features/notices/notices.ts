/**
 * Notices (SPEC 2.2): fetched from GET /api/v1/notices when the app starts; only those targeted at
 * enterprise_portal are kept, and each is shown in the current language (content_{lang} → contentJa/contentEn).
 * A failed fetch leaves the list empty and shows nothing: notices never break the app.
 */
import type { Action, UnknownAction } from 'redux';
import { call, put } from 'redux-saga/effects';
import type { Notice, NoticesAnswer } from '../../../common/api/answers.js';
import { DEFAULT_LANGUAGE, type Language } from '../../../common/languages.js';
import { callApi } from '../../api/callApi.js';
import { actionCreator } from '../../state/actions.js';
import { operationRejected } from '../../state/operations.js';
import { NOTICE_TARGET } from '../../state/constants.js';

export type { Notice };

export interface NoticesState {
  items: Notice[];
}

export const initialNoticesState: NoticesState = { items: [] };

export const NOTICES_OPERATION = 'notices/load';
export const NOTICES_LOADED = 'notices/loaded';
export const noticesLoaded = actionCreator<Notice[], typeof NOTICES_LOADED>(NOTICES_LOADED);

/** Pure: the notices this portal shows. */
export function portalNotices(notices: readonly Notice[]): Notice[] {
  return notices.filter((notice) => notice.target === NOTICE_TARGET);
}

export function noticesReducer(state: NoticesState = initialNoticesState, action: UnknownAction): NoticesState {
  if (noticesLoaded.match(action)) return { items: portalNotices(action.payload) };
  return state;
}

/** Combine with the other reducers: combineReducers({...stateReducers, ...noticesReducers}). */
export const noticesReducers = { notices: noticesReducer };

export interface NoticesRootState {
  notices: NoticesState;
}

export const selectNotices = (state: NoticesRootState): Notice[] => state.notices.items;

/** content_{lang} of a notice, falling back to the default language (ja) when that text is missing. */
const CONTENT: Record<Language, 'contentJa' | 'contentEn'> = { ja: 'contentJa', en: 'contentEn' };

export function noticeText(notice: Notice, language: Language): string {
  const text = notice[CONTENT[language]] ?? notice[CONTENT[DEFAULT_LANGUAGE]];
  return typeof text === 'string' ? text : '';
}

/** `useSelector(noticeTexts(language))`: the non-empty texts to show, in order. */
export const noticeTexts =
  (language: Language) =>
  (state: NoticesRootState): string[] =>
    state.notices.items.map((notice) => noticeText(notice, language)).filter((text) => text !== '');

/** The notices are in the store, or their call failed (the list stays empty): the frame shows what it will show. */
export const noticesSettled = (action: Action): boolean =>
  noticesLoaded.match(action) || (operationRejected.match(action) && action.payload.name === NOTICES_OPERATION);

export function* loadNotices(): Generator<unknown, void, unknown> {
  try {
    const response = (yield call(
      callApi<NoticesAnswer>,
      NOTICES_OPERATION,
      { path: 'notices', version: 'v1' },
      // Claim every error: no flash, no redirect; the page simply shows no notices.
      { handle: () => true },
    )) as NoticesAnswer;
    yield put(noticesLoaded(response.notices));
  } catch {
    // The list stays empty; the failure is recorded under operations['notices/load'].
  }
}

/**
 * Fork in the root saga: the notices are asked for as the store starts, ahead of the route's data calls, which would
 * otherwise hold them behind HTTP/1.1's six connections: the form engine waits for the frame with its notices
 * (app/firstPaint.ts).
 */
export function* noticesSaga() {
  yield call(loadNotices);
}
