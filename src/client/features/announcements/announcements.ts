/**
 * Announcements (SPEC 2.2 header icon, §3 Announcement article and the login context's unread count, §4 'mark all as
 * read'): the current articles (GET announcements/articles?lang=) and the ids the admin has read (readArticleIds).
 * The read ids are kept per admin in the browser's local storage (`announcements.readArticleIds.<adminId>`), so they
 * survive a reload and another admin in the same browser has their own. The header asks for the articles when it
 * shows a signed-in admin; clicking the icon marks every current article read, and the saga stores the ids.
 * A failed load shows no badge and nothing else: announcements never get in the way.
 */
import type { UnknownAction } from 'redux';
import { call, getContext, put, select, takeEvery, takeLatest } from 'redux-saga/effects';
import type { AnnouncementArticle, AnnouncementArticlesAnswer } from '../../../common/api/answers.js';
import type { Language } from '../../../common/languages.js';
import { callApi } from '../../api/callApi.js';
import { afterNextPaint } from '../../engine/paint.js';
import { actionCreator } from '../../state/actions.js';
import { SESSION_CLEARED } from '../../state/session.js';

export type { AnnouncementArticle };

export interface AnnouncementsState {
  /** The admin whose read ids are loaded (null: none yet). */
  adminId: number | null;
  articles: AnnouncementArticle[];
  readArticleIds: number[];
}

export const initialAnnouncementsState: AnnouncementsState = { adminId: null, articles: [], readArticleIds: [] };

export const ANNOUNCEMENTS_OPERATION = 'announcements/load';

/** The header shows a signed-in admin (again, or in another language): restore their read ids and load the articles. */
export const announcementsRequested = actionCreator<{ adminId: number; language: Language }, 'announcements/requested'>('announcements/requested');
export const readArticleIdsRestored = actionCreator<{ adminId: number; ids: number[] }, 'announcements/readRestored'>('announcements/readRestored');
export const announcementsLoaded = actionCreator<AnnouncementArticle[], 'announcements/loaded'>('announcements/loaded');
/** SPEC §4: 'mark all as read' adds every current article id to the read ids. */
export const allAnnouncementsMarkedRead = actionCreator<void, 'announcements/allMarkedRead'>('announcements/allMarkedRead');

/** Pure: the read ids with every current article's id added (each once, in order). */
export function withAllRead(readArticleIds: readonly number[], articles: readonly AnnouncementArticle[]): number[] {
  return [...new Set([...readArticleIds, ...articles.map((article) => article.id)])];
}

export function announcementsReducer(state: AnnouncementsState = initialAnnouncementsState, action: UnknownAction): AnnouncementsState {
  if (readArticleIdsRestored.match(action)) return { ...state, adminId: action.payload.adminId, readArticleIds: action.payload.ids };
  if (announcementsLoaded.match(action)) return { ...state, articles: action.payload };
  if (allAnnouncementsMarkedRead.match(action)) return { ...state, readArticleIds: withAllRead(state.readArticleIds, state.articles) };
  if (action.type === SESSION_CLEARED) return initialAnnouncementsState;
  return state;
}

export const announcementsReducers = { announcements: announcementsReducer };

export interface AnnouncementsRootState {
  announcements: AnnouncementsState;
}

export const selectArticles = (state: AnnouncementsRootState): AnnouncementArticle[] => state.announcements.articles;
export const selectReadArticleIds = (state: AnnouncementsRootState): number[] => state.announcements.readArticleIds;

/** SPEC §3 Current login context: the unread announcement count, the current articles not among the read ids. */
export const selectUnreadAnnouncementCount = (state: AnnouncementsRootState): number => {
  const read = new Set(state.announcements.readArticleIds);
  return state.announcements.articles.filter((article) => !read.has(article.id)).length;
};

// Persistence ---------------------------------------------------------------------------------------------------

/** The saga context key of the storage holding the read ids; default window.localStorage. */
export const ANNOUNCEMENTS_STORAGE_CONTEXT = 'announcementsStorage';
export type ReadIdsStorage = Pick<Storage, 'getItem' | 'setItem'>;

export const readArticleIdsKey = (adminId: number): string => `announcements.readArticleIds.${adminId}`;

/** Pure: the ids a stored value holds; anything unreadable counts as none read. */
export function parseReadArticleIds(stored: string | null): number[] {
  if (stored === null) return [];
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) ? value.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

function* storage(): Generator<unknown, ReadIdsStorage | undefined, unknown> {
  const given = (yield getContext(ANNOUNCEMENTS_STORAGE_CONTEXT)) as ReadIdsStorage | undefined;
  return given ?? (typeof localStorage === 'undefined' ? undefined : localStorage);
}

function readStored(store: ReadIdsStorage | undefined, adminId: number): number[] {
  try {
    return parseReadArticleIds(store?.getItem(readArticleIdsKey(adminId)) ?? null);
  } catch {
    return []; // storage refused (private mode, quota…): nothing read
  }
}

function writeStored(store: ReadIdsStorage | undefined, adminId: number, ids: number[]): void {
  try {
    store?.setItem(readArticleIdsKey(adminId), JSON.stringify(ids));
  } catch {
    // storage refused: the ids stay read for this page only
  }
}

// Sagas ---------------------------------------------------------------------------------------------------------

export function* loadAnnouncements({ payload }: ReturnType<typeof announcementsRequested>): Generator<unknown, void, unknown> {
  const store = yield* storage();
  yield put(readArticleIdsRestored({ adminId: payload.adminId, ids: (yield call(readStored, store, payload.adminId)) as number[] }));
  // the header's badge waits for the frame's paint: on a cold load its request would otherwise go out beside the
  // screen's own and the first paint would wait for it in Lighthouse's simulation (issue 47)
  yield call(afterNextPaint);
  try {
    const answer = (yield call(
      callApi<AnnouncementArticlesAnswer>,
      ANNOUNCEMENTS_OPERATION,
      { path: 'announcements/articles', query: { lang: payload.language }, token: null },
      // claim every error: no badge, no flash
      { handle: () => true },
    )) as AnnouncementArticlesAnswer;
    yield put(announcementsLoaded(answer.articles));
  } catch {
    // no articles, no badge; the failure is recorded under operations['announcements/load']
  }
}

export function* storeReadArticleIds(): Generator<unknown, void, unknown> {
  const { adminId, readArticleIds } = (yield select((state: AnnouncementsRootState) => state.announcements)) as AnnouncementsState;
  if (adminId === null) return;
  yield call(writeStored, yield* storage(), adminId, readArticleIds);
}

/** Fork in the root saga. */
export function* announcementsSaga() {
  yield takeLatest(announcementsRequested.type, loadAnnouncements);
  yield takeEvery(allAnnouncementsMarkedRead.type, storeReadArticleIds);
}
