import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { selectSigninStatus, signinRequested } from '../../../../src/client/features/auth/authState.js';
import { startSignin } from '../../../../src/client/features/auth/signinSaga.js';
import { authSetup, metadata, NOW, ORIGIN } from './support.js';

describe('features/auth sign-in saga (SPEC §4 Sign-in step 1)', () => {
  it('stores the verification state in session storage and goes to the authorisation endpoint with it', async () => {
    const harness = authSetup();
    await harness
      .run(startSignin, signinRequested({ returnTo: '/account', prompt: 'login', gloplaId: 'G0000001', language: 'ja' }))
      .toPromise();
    const stored = harness.verificationStorage.read()!;
    expect(stored.state).to.match(/^[0-9a-z]{32}$/);
    expect(stored.codeVerifier).to.have.length(128);
    expect(harness.assignLocation.calledOnce).to.equal(true);
    const url = new URL(harness.assignLocation.firstCall.args[0] as string);
    expect(`${url.origin}${url.pathname}`).to.equal(metadata.authorizationEndpoint);
    expect(url.searchParams.get('state')).to.equal(stored.state);
    expect(url.searchParams.get('nonce')).to.equal(stored.nonce);
    expect(url.searchParams.get('code_challenge')).to.equal(createHash('sha256').update(stored.codeVerifier!).digest('base64url'));
    expect(url.searchParams.get('client_id')).to.equal('corporate-admin-portal');
    expect(url.searchParams.get('redirect_uri')).to.equal(`${ORIGIN}/auth/openid/callback`);
    expect(url.searchParams.get('type')).to.equal('admin');
    expect(url.searchParams.get('prompt')).to.equal('login');
    expect(url.searchParams.get('glopla_id')).to.equal('G0000001');
    expect(url.searchParams.get('ui_locales')).to.equal('ja');
    const nonce = JSON.parse(Buffer.from(stored.nonce!, 'base64').toString());
    expect(nonce.returnTo).to.equal(`${ORIGIN}/account`);
    expect(nonce.expiresAt).to.equal(NOW + 3_600_000);
  });

  it('when discovery fails: no redirect, the page offers to try again, and the failure is reported', async () => {
    const harness = authSetup({ routes: {} });
    harness.identityProvider.metadata.rejects(new Error('discovery failed'));
    harness.store.dispatch(signinRequested({}));
    await harness.run(startSignin, signinRequested({})).toPromise();
    expect(harness.assignLocation.called).to.equal(false);
    expect(selectSigninStatus(harness.store.getState() as never)).to.equal('failed');
    expect(harness.calls('POST', '/api/v2/client_errors')).to.have.length(1);
  });
});
