import { expect } from 'chai';
import { idTokenReceived } from '../../../../src/client/features/auth/authState.js';
import { logout } from '../../../../src/client/features/auth/logoutSaga.js';
import { persistenceSaga } from '../../../../src/client/features/auth/persistenceSaga.js';
import { VERIFICATION_STORAGE_KEY } from '../../../../src/client/features/auth/verificationStorage.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../../src/client/state/session.js';
import { settle } from '../../api/harness.js';
import { authSetup, metadata, ORIGIN, tokens } from './support.js';

async function signedIn() {
  const harness = authSetup();
  harness.run(persistenceSaga);
  harness.store.dispatch(sessionStored(sessionFromTokenResponse(tokens())));
  harness.store.dispatch(idTokenReceived('id.token'));
  harness.store.dispatch(organizationSelected({ organization: { id: 1, gloplaId: 'G0000001' }, me: { id: 1, firstName: '太郎', lastName: '山田' } }));
  harness.sessionStorage.setItem(VERIFICATION_STORAGE_KEY, '{}');
  await settle();
  expect(await harness.loginStore.load()).to.not.equal(null);
  return harness;
}

describe('features/auth logout (SPEC §4 Session, /signout)', () => {
  it('revokes the refresh token, clears state and storage, and goes to end-session with client_id, post_logout_redirect_uri, type=admin and id_token_hint', async () => {
    const harness = await signedIn();
    await harness.run(logout).toPromise();
    expect(harness.identityProvider.revoke.calledOnceWith('refresh-1', 'refresh_token')).to.equal(true);
    const state = harness.store.getState() as any;
    expect(state.session.session).to.equal(null);
    expect(state.session.isLoggedIn).to.equal(false);
    expect(state.auth.idToken).to.equal(null);
    expect(await harness.loginStore.load()).to.equal(null);
    expect(harness.sessionStorage.getItem(VERIFICATION_STORAGE_KEY)).to.equal(null);
    const url = new URL(harness.assignLocation.firstCall.args[0] as string);
    expect(`${url.origin}${url.pathname}`).to.equal(metadata.endSessionEndpoint);
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({
      client_id: 'corporate-admin-portal',
      post_logout_redirect_uri: `${ORIGIN}/`,
      type: 'admin',
      id_token_hint: 'id.token',
    });
    expect(selectFlashMessages(state)).to.deep.equal([]);
  });

  it('a revocation failure shows the unexpected-error flash, and the logout still completes', async () => {
    const harness = await signedIn();
    harness.identityProvider.revoke.rejects(new Error('timeout'));
    await harness.run(logout).toPromise();
    const state = harness.store.getState() as any;
    expect(selectFlashMessages(state).map((m) => m.messageKey)).to.deep.equal(['errors.unexpected']);
    expect(state.session.session).to.equal(null);
    expect(harness.assignLocation.calledOnce).to.equal(true);
  });

  it('without a session: nothing to revoke, still the provider logout', async () => {
    const harness = authSetup();
    await harness.run(logout).toPromise();
    expect(harness.identityProvider.revoke.called).to.equal(false);
    expect(harness.assignLocation.calledOnce).to.equal(true);
  });

  it('when the provider cannot be reached: flash, local sign-out, and top', async () => {
    const harness = await signedIn();
    harness.identityProvider.metadata.rejects(new Error('offline'));
    await harness.run(logout).toPromise();
    expect(selectFlashMessages(harness.store.getState() as any).map((m) => m.messageKey)).to.deep.equal(['errors.unexpected']);
    expect((harness.store.getState() as any).session.session).to.equal(null);
    expect(harness.navigate.calledOnceWith('/', { replace: true })).to.equal(true);
  });
});
