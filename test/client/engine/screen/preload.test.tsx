/**
 * The route's preload (engine/screen/preload.ts, issue 26): a screen's data asked for the moment its route is matched,
 * taken by the screen's own load instead of a second request, its failures handled as the screen's outcomes say.
 */
import { expect } from 'chai';
import { cleanup, waitFor } from '@testing-library/react';
import type { UnknownAction } from 'redux';
import routes from '../../../../build/generated/routes.json';
import type { ScreenDefinition } from '../../../../src/common/screens.js';
import { preloadSaga, routeMatched } from '../../../../src/client/engine/screen/preload.js';
import { takePreloaded } from '../../../../src/client/engine/screen/preloadedAnswers.js';
import { screenEntered } from '../../../../src/client/engine/screen/screenDataState.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { operationPending } from '../../../../src/client/state/operations.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../../src/client/state/session.js';
import { jsonResponse, settle, setup } from '../../api/harness.js';
import { installPostTask } from '../../support/postTask.js';
import { wireService } from './fixtures.js';
import { MANAGER, MEMBER, renderScreen } from './support.js';

const AFFILIATIONS = 'GET /api/v2/organizations/1/affiliations';
const LIST = {
  affiliations: [
    { role: 'manager', admin: { id: 1, firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'manager@example.com', activatedAt: '2026-01-01T00:00:00Z', invitationExpiresAt: null, invitationExpired: false } },
    { role: 'member', admin: { id: 2, firstName: '花子', lastName: '佐藤', kanaFirstName: 'はなこ', kanaLastName: 'さとう', email: 'member@example.com', activatedAt: '2026-01-01T00:00:00Z', invitationExpiresAt: null, invitationExpired: false } },
  ],
};

const entry = (id: string) => (routes as ScreenDefinition[]).find((route) => route.id === id)!;
const flashes = (store: { getState(): unknown }) => selectFlashMessages(store.getState() as never).map((message) => message.messageKey);
const indexOf = (actions: UnknownAction[], matches: (action: UnknownAction) => boolean) => actions.findIndex(matches);

function signedInHarness(signedIn: NonNullable<typeof MANAGER>) {
  const harness = setup({ routes: { 'GET /api/v2/organizations/1/users': () => jsonResponse(200, { users: [] }), [AFFILIATIONS]: () => jsonResponse(200, LIST) } });
  harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'token', refreshToken: 'r', createdAt: 1, expiresIn: 900, refreshTokenExpiresIn: 900 })));
  harness.store.dispatch(organizationSelected({ organization: { id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' }, me: signedIn.me, role: signedIn.role }));
  harness.run(preloadSaga);
  return harness;
}

describe('engine/screen/preload: a route’s data asked for as the route is matched (issue 26)', () => {
  afterEach(cleanup);

  it('the list leaves before the screen is entered, and the screen shows that answer: one request, not two', async () => {
    const { view, calls, actions } = await renderScreen('memberships', { signedIn: MANAGER, preload: true, routes: { [AFFILIATIONS]: () => jsonResponse(200, LIST) } });
    await view.findByText('member@example.com');
    expect(calls('GET', '/api/v2/organizations/1/affiliations')).to.have.length(1);
    const asked = indexOf(actions, (action) => operationPending.match(action) && action.payload.name === 'screens/memberships/affiliations');
    expect(asked).to.be.within(0, indexOf(actions, (action) => screenEntered.match(action)));
  });

  it("a translated answer is asked for in the page's language once (the route table has the language the screen's call adds)", async () => {
    const body = { service: wireService(1, 'Library', { service_group: { id: 1, name: 'Library', urls: [] } }) };
    const { view, calls } = await renderScreen('serviceDetails', { url: '/services/1', signedIn: MEMBER, preload: true, routes: { 'GET /api/v2/services/1': () => jsonResponse(200, body) } });
    await view.findAllByText('Library');
    const detail = calls('GET', '/api/v2/services/1');
    expect(detail).to.have.length(1);
    expect(detail[0]!.args[0]).to.contain('lang=en');
  });

  it("a preloaded failure the screen's outcomes claim is theirs (404: to top, no message); one they leave gets the general handling", async () => {
    const missing = await renderScreen('serviceDetails', { url: '/services/9', signedIn: MEMBER, preload: true, routes: { 'GET /api/v2/services/9': () => jsonResponse(404, { error: 'not_found' }) } });
    await waitFor(() => expect(missing.navigate.calledWith('/')).to.equal(true));
    expect(flashes(missing.store)).to.deep.equal([]);
    cleanup();
    const failing = await renderScreen('serviceDetails', { url: '/services/1', signedIn: MEMBER, preload: true, routes: { 'GET /api/v2/services/1': () => jsonResponse(500, { error: 'internal' }) } });
    await waitFor(() => expect(flashes(failing.store)).to.deep.equal(['errors.unexpected']));
    expect(failing.calls('GET', '/api/v2/services/1')).to.have.length(1);
  });

  it("asks nothing for a page the guard turns the admin away from (a member on a manager's page)", async () => {
    const { store, fetch } = signedInHarness(MEMBER!);
    store.dispatch(routeMatched({ screen: entry('users'), params: {}, search: '', language: 'en' }));
    await settle();
    expect(fetch.called).to.equal(false);
  });

  it('each data call leaves in a task of its own ahead of the page\'s ordinary tasks, registered before it leaves (issue 47: the wizard\'s six in one task were 47 ms)', async () => {
    const { posted, restore } = installPostTask();
    try {
      const { store, fetch } = signedInHarness(MANAGER!);
      store.dispatch(routeMatched({ screen: entry('subscription-new'), params: { serviceGroupId: '1' }, search: '', language: 'en' }));
      await settle();
      expect(fetch.callCount).to.equal(0);
      // the screen's own load finds each answer at once, though none has left
      expect(takePreloaded('GET /api/v2/organizations/1/contacts')).to.not.equal(undefined);
      // six calls, then the screen's code
      expect(posted.map((task) => task.priority)).to.deep.equal(Array(7).fill('user-blocking'));
      for (const [index, task] of posted.slice(0, 6).entries()) {
        task.run();
        await settle();
        expect(fetch.callCount).to.equal(index + 1);
      }
    } finally {
      restore();
    }
  });

  it('an answer is taken once (a reload asks again), and a new route drops what the last one preloaded', async () => {
    const { store, calls } = signedInHarness(MANAGER!);
    store.dispatch(routeMatched({ screen: entry('users'), params: {}, search: '', language: 'en' }));
    await settle();
    expect(calls('GET', '/api/v2/organizations/1/users')).to.have.length(1);
    // the list's first page (issue 27: the Users page reads 1,000 learners at a time)
    expect(await takePreloaded('GET /api/v2/organizations/1/users?per_page=1000')).to.deep.include({ ok: true });
    expect(takePreloaded('GET /api/v2/organizations/1/users?per_page=1000')).to.equal(undefined);

    store.dispatch(routeMatched({ screen: entry('memberships'), params: {}, search: '', language: 'en' }));
    store.dispatch(routeMatched({ screen: entry('home'), params: {}, search: '', language: 'en' }));
    await settle();
    expect(takePreloaded('GET /api/v2/organizations/1/affiliations')).to.equal(undefined);
    expect(takePreloaded('GET /api/v2/services?lang=en')).to.not.equal(undefined);
  });
});
