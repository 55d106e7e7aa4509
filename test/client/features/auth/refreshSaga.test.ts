import { expect } from 'chai';
import { all, call } from 'redux-saga/effects';
import { callApi } from '../../../../src/client/api/callApi.js';
import { ApiError } from '../../../../src/client/api/http.js';
import { createRefreshSession, refreshOnce } from '../../../../src/client/features/auth/refreshSaga.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { initialSessionState, organizationSelected, sessionFromTokenResponse, sessionStored, type Session } from '../../../../src/client/state/session.js';
import { jsonResponse, type Route } from '../../api/harness.js';
import { authSetup, NOW, tokens } from './support.js';

const current: Session = { ...sessionFromTokenResponse(tokens()), affiliations: [{ role: 'manager', organization: { id: 1, gloplaId: 'G0000001' } }] };

/** A route answering 401 access_token_expired to the old token and 200 to the refreshed one. */
const expiringTarget: Route = (_url, init) => {
  const token = (init.headers as Record<string, string>)['x-v2-admin-auth-token'];
  return token === 'Bearer access-2' ? jsonResponse(200, { ok: true }) : jsonResponse(401, { error: 'access_token_expired' });
};

function prepare(routes: Record<string, Route> = { 'GET /api/v2/target': expiringTarget }, session: Session | null = current) {
  const refreshSession = createRefreshSession();
  const harness = authSetup({ routes, context: { refreshSession } });
  if (session) harness.store.dispatch(sessionStored(session));
  return harness;
}

function* callTarget(results: unknown[], name = 'target/load') {
  try {
    results.push(yield* callApi(name, { path: 'target' }));
  } catch (error) {
    results.push(error);
  }
}

describe('features/auth refresh-and-retry (SPEC §4 Session)', () => {
  it('401 access_token_expired → refreshes once, stores the new session (keeping affiliations) and retries the call once', async () => {
    const harness = prepare();
    const results: unknown[] = [];
    await harness.run(callTarget, results).toPromise();
    expect(results).to.deep.equal([{ ok: true }]);
    expect(harness.identityProvider.refresh.calledOnceWith('refresh-1')).to.equal(true);
    expect(harness.calls('GET', '/api/v2/target')).to.have.length(2);
    const state = harness.store.getState() as any;
    expect(state.session.session.token).to.equal('access-2');
    expect(state.session.session.refreshToken).to.equal('refresh-2');
    expect(state.session.session.affiliations).to.deep.equal(current.affiliations);
    expect(selectFlashMessages(state)).to.deep.equal([]);
  });

  it('retries only once: a second 401 after the refresh goes to the general handling', async () => {
    const harness = prepare({ 'GET /api/v2/target': () => jsonResponse(401, { error: 'access_token_expired' }) });
    const results: unknown[] = [];
    await harness.run(callTarget, results).toPromise();
    expect(results[0]).to.be.instanceOf(ApiError);
    expect(harness.identityProvider.refresh.callCount).to.equal(1);
    expect(harness.calls('GET', '/api/v2/target')).to.have.length(2);
    expect(selectFlashMessages(harness.store.getState() as any).map((m) => m.messageKey)).to.deep.equal(['errors.sessionExpired']);
  });

  it('concurrent 401s share one refresh in flight', async () => {
    const harness = prepare();
    let release!: () => void;
    harness.identityProvider.refresh.callsFake(
      () => new Promise((resolve) => (release = () => resolve(tokens({ accessToken: 'access-2', refreshToken: 'refresh-2' })))),
    );
    const results: unknown[] = [];
    const task = harness.run(function* () {
      yield all([call(callTarget, results, 'a'), call(callTarget, results, 'b'), call(callTarget, results, 'c')]);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await task.toPromise();
    expect(results).to.deep.equal([{ ok: true }, { ok: true }, { ok: true }]);
    expect(harness.identityProvider.refresh.callCount).to.equal(1);
    expect(harness.calls('GET', '/api/v2/target')).to.have.length(6);
  });

  it('a failed refresh signs out: session and stored login cleared, the call fails with the general handling', async () => {
    const harness = prepare();
    harness.identityProvider.refresh.rejects(new Error('invalid_grant'));
    const results: unknown[] = [];
    await harness.run(callTarget, results).toPromise();
    expect(results[0]).to.be.instanceOf(ApiError);
    const state = harness.store.getState() as any;
    expect(state.session.session).to.equal(null);
    expect(state.session.isLoggedIn).to.equal(false);
    expect(harness.calls('GET', '/api/v2/target')).to.have.length(1);
    expect(selectFlashMessages(state).map((m) => m.messageKey)).to.deep.equal(['errors.sessionExpired']);
  });

  it('an expired refresh token signs out without asking the provider', async () => {
    const expired = { ...current, refreshTokenExpiresAt: new Date(NOW - 1000).toISOString() };
    const harness = prepare(undefined, expired);
    const refreshed = await harness.run(refreshOnce).toPromise();
    expect(refreshed).to.equal(false);
    expect(harness.identityProvider.refresh.called).to.equal(false);
    expect((harness.store.getState() as any).session.session).to.equal(null);
  });

  it('a missing refresh token signs out', async () => {
    const harness = prepare(undefined, { ...current, refreshToken: '' });
    expect(await harness.run(refreshOnce).toPromise()).to.equal(false);
    expect((harness.store.getState() as any).session.session).to.equal(null);
  });

  describe('with another tab of the same browser', () => {
    const demo = { id: 1, gloplaId: 'G0000001' };
    const me = { id: 7, firstName: 'Taro', lastName: 'Yamada' };

    function withOtherTab(stored: Session, organization = demo) {
      const harness = prepare();
      harness.store.dispatch(organizationSelected({ organization: demo, me }));
      return {
        harness,
        saveOtherTab: () =>
          harness.loginStore.save({ session: { ...initialSessionState, session: stored, isLoggedIn: true, organization, me }, idToken: 'other-id-token' }),
      };
    }

    it('takes over the session another tab has already refreshed, without asking the provider', async () => {
      const newer = { ...sessionFromTokenResponse(tokens({ accessToken: 'access-9', refreshToken: 'refresh-9' })), affiliations: [] };
      const { harness, saveOtherTab } = withOtherTab(newer);
      await saveOtherTab();
      expect(await harness.run(refreshOnce).toPromise()).to.equal(true);
      expect(harness.identityProvider.refresh.called).to.equal(false);
      const state = harness.store.getState() as any;
      expect(state.session.session.token).to.equal('access-9');
      expect(state.session.session.affiliations).to.deep.equal(current.affiliations);
      expect(state.auth.idToken).to.equal('other-id-token');
    });

    it('refreshes with the other tab’s refresh token when its access token has expired too', async () => {
      const stale = { ...sessionFromTokenResponse(tokens({ accessToken: 'access-9', refreshToken: 'refresh-9', createdAt: Math.floor(NOW / 1000) - 3600 })), affiliations: [] };
      const { harness, saveOtherTab } = withOtherTab(stale);
      await saveOtherTab();
      expect(await harness.run(refreshOnce).toPromise()).to.equal(true);
      expect(harness.identityProvider.refresh.calledOnceWith('refresh-9')).to.equal(true);
    });

    it('ignores a login another tab made for a different organisation', async () => {
      const newer = { ...sessionFromTokenResponse(tokens({ accessToken: 'access-9', refreshToken: 'refresh-9' })), affiliations: [] };
      const { harness, saveOtherTab } = withOtherTab(newer, { id: 2, gloplaId: 'G0000002' });
      await saveOtherTab();
      expect(await harness.run(refreshOnce).toPromise()).to.equal(true);
      expect(harness.identityProvider.refresh.calledOnceWith('refresh-1')).to.equal(true);
      expect((harness.store.getState() as any).session.session.token).to.equal('access-2');
    });
  });

  it('other 401 codes are not refreshed', async () => {
    const harness = prepare({ 'GET /api/v2/target': () => jsonResponse(401, { error: 'invalid_access_token' }) });
    await harness.run(callTarget, []).toPromise();
    expect(harness.identityProvider.refresh.called).to.equal(false);
  });
});
