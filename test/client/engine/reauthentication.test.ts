import { expect } from 'chai';
import {
  checkReauthentication,
  reauthenticationCheckRequested,
  reauthenticationPassed,
  reauthenticationReducer,
} from '../../../src/client/engine/reauthentication.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../src/client/state/session.js';
import { jsonResponse, networkFailure, setup, type Route } from '../api/harness.js';

async function check(route: Route) {
  const harness = setup({ routes: { 'GET /api/v2/admin/re_authentication_expiration': route }, reducers: { reauthentication: reauthenticationReducer } });
  harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 })));
  harness.store.dispatch(organizationSelected({ organization: { id: 1, gloplaId: 'G0000001' }, me: { id: 1, firstName: 'f', lastName: 'l' } }));
  harness.store.dispatch(reauthenticationCheckRequested({ path: '/account/name/edit' }));
  await harness.run(checkReauthentication, reauthenticationCheckRequested({ path: '/account/name/edit' })).toPromise();
  return { harness, passed: reauthenticationPassed('/account/name/edit')(harness.store.getState() as any) };
}

describe('engine/reauthentication (SPEC 2.6 re-authentication guard)', () => {
  it('not expired → the page renders', async () => {
    const { harness, passed } = await check(() => jsonResponse(200, { is_re_authentication_expired: false }));
    expect(passed).to.equal(true);
    expect(harness.navigate.called).to.equal(false);
  });

  it('expired → sign-in with prompt=login, the return path and glopla_id', async () => {
    const { harness, passed } = await check(() => jsonResponse(200, { is_re_authentication_expired: true }));
    expect(passed).to.equal(false);
    expect(harness.navigate.calledOnceWith(`/signin?prompt=login&returnTo=${encodeURIComponent('/account/name/edit')}&glopla_id=G0000001`, { replace: true })).to.equal(
      true,
    );
  });

  it('a failed check lets the page render after the general handling', async () => {
    const { passed } = await check(networkFailure);
    expect(passed).to.equal(true);
  });
});
