import { expect } from 'chai';
import type { UnknownAction } from 'redux';
import {
  allAnnouncementsMarkedRead,
  ANNOUNCEMENTS_OPERATION,
  ANNOUNCEMENTS_STORAGE_CONTEXT,
  announcementsReducers,
  announcementsRequested,
  announcementsSaga,
  parseReadArticleIds,
  readArticleIdsKey,
  selectArticles,
  selectReadArticleIds,
  selectUnreadAnnouncementCount,
  type ReadIdsStorage,
} from '../../../../src/client/features/announcements/index.js';
import { operationStatus } from '../../../../src/client/state/operations.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { sessionCleared } from '../../../../src/client/state/session.js';
import { jsonResponse, settle, setup, type Route } from '../../api/harness.js';
import { framesAsTimers } from '../../support/frames.js';

const article = (id: number) => ({ id, title: `Article ${id}`, published_at: '2025-08-01T00:00:00.000Z', body: `Body ${id}`, url: null });
const articles = (...ids: number[]) => () => jsonResponse(200, { articles: ids.map(article) });

/** A Storage in memory: what the browser keeps across reloads. */
function memoryStorage(initial: Record<string, string> = {}): ReadIdsStorage & { items: Map<string, string> } {
  const items = new Map(Object.entries(initial));
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

/** One page load: a fresh store and saga over the same storage. */
function pageLoad(storage: ReadIdsStorage, route: Route) {
  const harness = setup({
    routes: { 'GET /api/v2/announcements/articles': route },
    reducers: announcementsReducers as Record<string, (state: unknown, action: UnknownAction) => unknown>,
    context: { [ANNOUNCEMENTS_STORAGE_CONTEXT]: storage } as never,
  });
  const task = harness.run(announcementsSaga);
  const state = () => harness.store.getState() as never;
  return { ...harness, task, state };
}

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 2000;
  while (!predicate() && Date.now() < deadline) await settle(1);
  expect(predicate(), 'condition reached').to.equal(true);
}

describe('features/announcements', () => {
  // the articles are asked for after the next paint
  framesAsTimers();

  it('loads the articles of the language asked for and counts those not read yet', async () => {
    const storage = memoryStorage({ [readArticleIdsKey(7)]: '[2]' });
    const page = pageLoad(storage, articles(3, 2, 1));
    page.store.dispatch(announcementsRequested({ adminId: 7, language: 'en' }));
    await until(() => operationStatus(ANNOUNCEMENTS_OPERATION)(page.state()) === 'fulfilled');
    expect(page.fetch.firstCall.args[0]).to.match(/\/api\/v2\/announcements\/articles\?lang=en$/);
    expect(selectArticles(page.state()).map((item) => item.id)).to.deep.equal([3, 2, 1]);
    expect(selectArticles(page.state())[0]).to.include({ title: 'Article 3', publishedAt: '2025-08-01T00:00:00.000Z' });
    expect(selectUnreadAnnouncementCount(page.state())).to.equal(2);
    page.task.cancel();
  });

  it("asks for the articles only once the frame has painted: the badge's call is not among the first paint's (issue 47)", async () => {
    const frames: FrameRequestCallback[] = [];
    globalThis.requestAnimationFrame = (frame) => frames.push(frame);
    const page = pageLoad(memoryStorage(), articles(1));
    page.store.dispatch(announcementsRequested({ adminId: 7, language: 'en' }));
    await settle();
    expect(page.fetch.called, 'no call before the paint').to.equal(false);
    for (const frame of frames.splice(0)) frame(0);
    await until(() => operationStatus(ANNOUNCEMENTS_OPERATION)(page.state()) === 'fulfilled');
    expect(selectUnreadAnnouncementCount(page.state())).to.equal(1);
    page.task.cancel();
  });

  it('mark all as read adds every current article id to the read ids, which survive a reload', async () => {
    const storage = memoryStorage({ [readArticleIdsKey(7)]: '[99]' });
    const first = pageLoad(storage, articles(2, 1));
    first.store.dispatch(announcementsRequested({ adminId: 7, language: 'ja' }));
    await until(() => selectUnreadAnnouncementCount(first.state()) === 2);
    first.store.dispatch(allAnnouncementsMarkedRead());
    await settle();
    expect(selectUnreadAnnouncementCount(first.state())).to.equal(0);
    expect(selectReadArticleIds(first.state())).to.deep.equal([99, 2, 1]);
    expect(JSON.parse(storage.items.get(readArticleIdsKey(7))!)).to.deep.equal([99, 2, 1]);
    first.task.cancel();

    // reload: a new article has appeared since; only it is unread
    const second = pageLoad(storage, articles(3, 2, 1));
    second.store.dispatch(announcementsRequested({ adminId: 7, language: 'ja' }));
    await until(() => operationStatus(ANNOUNCEMENTS_OPERATION)(second.state()) === 'fulfilled');
    expect(selectUnreadAnnouncementCount(second.state())).to.equal(1);
    second.task.cancel();
  });

  it('keeps the read ids per admin: another admin in the same browser still has them unread', async () => {
    const storage = memoryStorage({ [readArticleIdsKey(7)]: '[1,2]' });
    const page = pageLoad(storage, articles(2, 1));
    page.store.dispatch(announcementsRequested({ adminId: 8, language: 'ja' }));
    await until(() => operationStatus(ANNOUNCEMENTS_OPERATION)(page.state()) === 'fulfilled');
    expect(selectUnreadAnnouncementCount(page.state())).to.equal(2);
    page.store.dispatch(allAnnouncementsMarkedRead());
    await settle();
    expect(JSON.parse(storage.items.get(readArticleIdsKey(8))!)).to.deep.equal([2, 1]);
    expect(storage.items.get(readArticleIdsKey(7))).to.equal('[1,2]');
    page.task.cancel();
  });

  it('signing out forgets the articles and the read ids (the stored ids stay for the next sign-in)', async () => {
    const storage = memoryStorage({ [readArticleIdsKey(7)]: '[1]' });
    const page = pageLoad(storage, articles(2, 1));
    page.store.dispatch(announcementsRequested({ adminId: 7, language: 'ja' }));
    await until(() => selectUnreadAnnouncementCount(page.state()) === 1);
    page.store.dispatch(sessionCleared());
    expect(selectArticles(page.state())).to.deep.equal([]);
    expect(selectReadArticleIds(page.state())).to.deep.equal([]);
    expect(storage.items.get(readArticleIdsKey(7))).to.equal('[1]');
    page.task.cancel();
  });

  it('a failed load shows no badge, no flash and no report', async () => {
    const page = pageLoad(memoryStorage(), () => jsonResponse(500, { error: 'internal_error' }));
    page.store.dispatch(announcementsRequested({ adminId: 7, language: 'ja' }));
    await until(() => operationStatus(ANNOUNCEMENTS_OPERATION)(page.state()) === 'rejected');
    expect(selectUnreadAnnouncementCount(page.state())).to.equal(0);
    expect(selectFlashMessages(page.state())).to.deep.equal([]);
    expect(page.navigate.called).to.equal(false);
    expect(page.calls('POST', '/api/v2/client_errors')).to.have.length(0);
    page.task.cancel();
  });

  it('reads a damaged stored value as nothing read', () => {
    expect(parseReadArticleIds(null)).to.deep.equal([]);
    expect(parseReadArticleIds('not json')).to.deep.equal([]);
    expect(parseReadArticleIds('{"a":1}')).to.deep.equal([]);
    expect(parseReadArticleIds('[1,"2",3.5,4]')).to.deep.equal([1, 4]);
  });
});
