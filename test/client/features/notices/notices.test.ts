import { expect } from 'chai';
import { operationStatus } from '../../../../src/client/state/operations.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import {
  NOTICES_OPERATION,
  noticesReducers,
  noticesSaga,
  noticeTexts,
  selectNotices,
} from '../../../../src/client/features/notices/index.js';
import { jsonResponse, networkFailure, settle, setup, type Route } from '../../api/harness.js';

const noticesBody = {
  notices: [
    { id: 1, target: 'enterprise_portal', content_ja: '定期メンテナンスのお知らせ', content_en: 'Scheduled maintenance' },
    { id: 2, target: 'learner_portal', content_ja: '受講者向け', content_en: 'For learners' },
    { id: 3, target: 'enterprise_portal', content_ja: '日本語のみ', content_en: null },
  ],
};

function startApp(route: Route) {
  const harness = setup({ routes: { 'GET /api/v1/notices': route }, reducers: noticesReducers });
  const task = harness.run(noticesSaga);
  const state = () => harness.store.getState() as ReturnType<typeof harness.store.getState> & {
    notices: ReturnType<typeof noticesReducers.notices>;
  };
  return { ...harness, task, state };
}

/** Waits (up to 2 s) for the saga to reach a state; network retries wait on real timers. */
async function until(predicate: () => boolean) {
  const deadline = Date.now() + 2000;
  while (!predicate() && Date.now() < deadline) await settle(1);
  expect(predicate(), 'condition reached').to.equal(true);
}

describe('features/notices', () => {
  it('fetches GET /api/v1/notices as the app starts and keeps only target enterprise_portal', async () => {
    const app = startApp(() => jsonResponse(200, noticesBody));
    await until(() => operationStatus(NOTICES_OPERATION)(app.state()) === 'fulfilled');
    expect(app.calls('GET', '/api/v1/notices')).to.have.length(1);
    expect(selectNotices(app.state()).map((notice) => notice.id)).to.deep.equal([1, 3]);
    app.task.cancel();
  });

  it('gives the text of the current language (content_{lang}), falling back to ja when that text is missing', async () => {
    const app = startApp(() => jsonResponse(200, noticesBody));
    await until(() => operationStatus(NOTICES_OPERATION)(app.state()) === 'fulfilled');
    expect(noticeTexts('ja')(app.state())).to.deep.equal(['定期メンテナンスのお知らせ', '日本語のみ']);
    expect(noticeTexts('en')(app.state())).to.deep.equal(['Scheduled maintenance', '日本語のみ']);
    app.task.cancel();
  });

  for (const [what, route] of [
    ['a server error', () => jsonResponse(500, { error: 'internal_error' })],
    ['a network failure', networkFailure],
  ] as const) {
    it(`${what} leaves the list empty, shows and reports nothing, and the app keeps running`, async () => {
      const app = startApp(route);
      await until(() => operationStatus(NOTICES_OPERATION)(app.state()) === 'rejected');
      expect(selectNotices(app.state())).to.deep.equal([]);
      expect(selectFlashMessages(app.state())).to.deep.equal([]);
      expect(app.navigate.called).to.equal(false);
      expect(app.calls('POST', '/api/v2/client_errors')).to.have.length(0);
      expect(app.task.error(), 'the saga ended without an error').to.equal(undefined);
    });
  }
});
