import { expect } from 'chai';
import sinon from 'sinon';
import { CALLBACK_PATH } from '../../../../src/common/identity.js';
import { callbackOpened, selectCallbackStatus } from '../../../../src/client/features/auth/authState.js';
import { completeSignin, PERSIST_POLL_TIMEOUT_MS } from '../../../../src/client/features/auth/callbackSaga.js';
import type { LoginStore } from '../../../../src/client/features/auth/loginStore.js';
import { persistenceSaga } from '../../../../src/client/features/auth/persistenceSaga.js';
import { encodeNonce } from '../../../../src/client/features/auth/signinRequest.js';
import { RETURN_PATH_STORAGE_KEY, VERIFICATION_STORAGE_KEY } from '../../../../src/client/features/auth/verificationStorage.js';
import { bodyOf, jsonResponse, settle, type Route } from '../../api/harness.js';
import { authSetup, NOW, ORIGIN } from './support.js';

const affiliations = {
  affiliations: [
    {
      role: 'member',
      organization: { id: 2, gloplaId: 'G0000002', corporationOfficialName: 'サンプル商事株式会社' },
      admin: { id: 1, firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'manager@example.com' },
    },
    {
      role: 'manager',
      organization: { id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' },
      admin: { id: 1, firstName: '太郎', lastName: '山田', kanaFirstName: 'たろう', kanaLastName: 'やまだ', email: 'manager@example.com' },
    },
  ],
};

const nonce = encodeNonce({ salt: 'a'.repeat(32), returnTo: `${ORIGIN}/account?tab=1`, expiresAt: NOW + 3_600_000 });
const verification = { state: 's'.repeat(32), nonce, codeVerifier: 'v'.repeat(128) };

/** The page the browser shows when the saga ends: the callback page unless the admin went elsewhere meanwhile. */
function prepare(options: { stored?: Record<string, unknown> | null; routes?: Record<string, Route>; loginStore?: LoginStore; currentPath?: string } = {}) {
  const currentPath = options.currentPath ?? `${CALLBACK_PATH}?code=the-code&state=${verification.state}`;
  const harness = authSetup({
    routes: { 'GET /api/v2/admins/me/affiliations': () => jsonResponse(200, affiliations), ...options.routes },
    context: { currentPath: () => currentPath, ...(options.loginStore ? { loginStore: options.loginStore } : {}) },
  });
  const stored = options.stored === undefined ? verification : options.stored;
  if (stored) harness.sessionStorage.setItem(VERIFICATION_STORAGE_KEY, JSON.stringify(stored));
  harness.run(persistenceSaga);
  return harness;
}

async function callback(harness: ReturnType<typeof prepare>, search = `?code=the-code&state=${verification.state}`) {
  harness.store.dispatch(callbackOpened({ search }));
  await harness.run(completeSignin, callbackOpened({ search })).toPromise();
  await settle();
  const state = harness.store.getState() as any;
  const reports = harness.calls('POST', '/api/v2/client_errors').map((call) => bodyOf(call.args[1]) as { message: string; context: Record<string, unknown> });
  return { state, reports, status: selectCallbackStatus(state) };
}

describe('features/auth callback saga (SPEC §4 Sign-in steps 2–7, §8 Sign-in callback)', () => {
  it('exchanges the code, verifies the ID token, selects the organisation of glopla_id, persists and returns to the page', async () => {
    const harness = prepare();
    const { state, reports, status } = await callback(harness);
    expect(harness.identityProvider.exchangeCode.firstCall.args[0]).to.deep.equal({ code: 'the-code', codeVerifier: verification.codeVerifier });
    expect(harness.identityProvider.verifyIdToken.firstCall.args).to.deep.equal(['header.payload.signature', nonce]);
    const affiliationCall = harness.calls('GET', '/api/v2/admins/me/affiliations')[0];
    expect((affiliationCall.args[1].headers as Record<string, string>)['x-v2-admin-auth-token']).to.equal('Bearer access-1');
    expect(state.session.session.token).to.equal('access-1');
    expect(state.session.session.affiliations).to.deep.equal([
      { role: 'member', organization: { id: 2, gloplaId: 'G0000002' } },
      { role: 'manager', organization: { id: 1, gloplaId: 'G0000001' } },
    ]);
    expect(state.session.isLoggedIn).to.equal(true);
    expect(state.session.organization).to.deep.equal({ id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' });
    expect(state.session.role).to.equal('manager');
    expect(state.session.me).to.include({ id: 1, firstName: '太郎', lastName: '山田', email: 'manager@example.com', language: 'ja' });
    expect(state.auth.idToken).to.equal('header.payload.signature');
    expect((await harness.loginStore.load())?.session.organization?.id).to.equal(1);
    expect(harness.navigate.calledOnceWith('/account?tab=1', { replace: true })).to.equal(true);
    expect(harness.sessionStorage.getItem(VERIFICATION_STORAGE_KEY)).to.equal(null);
    expect(status).to.equal('idle');
    expect(reports).to.have.length(0);
  });

  it('a return path in session storage wins over the nonce', async () => {
    const harness = prepare();
    harness.sessionStorage.setItem(RETURN_PATH_STORAGE_KEY, '/memberships');
    await callback(harness);
    expect(harness.navigate.calledOnceWith('/memberships', { replace: true })).to.equal(true);
  });

  it("leaves the admin where they went while the sign-in finished ('Log out' pressed in the header): no return path over it", async () => {
    const harness = prepare({ currentPath: '/signout' });
    const { state, status } = await callback(harness);
    expect(state.session.isLoggedIn).to.equal(true);
    expect(status).to.equal('idle');
    expect(harness.navigate.called).to.equal(false);
  });

  it('an expired nonce no longer gives the return path: top', async () => {
    const expired = encodeNonce({ salt: 'a'.repeat(32), returnTo: `${ORIGIN}/account`, expiresAt: NOW - 1 });
    const harness = prepare({ stored: { ...verification, nonce: expired } });
    await callback(harness);
    expect(harness.navigate.calledOnceWith('/', { replace: true })).to.equal(true);
  });

  const failures: Array<{ name: string; stored?: Record<string, unknown> | null; search?: string; arrange?: (h: ReturnType<typeof prepare>) => void; message: RegExp }> = [
    { name: 'no code', search: `?state=${verification.state}`, message: /code, state, nonce or verifier is missing/ },
    { name: 'no state', search: '?code=the-code', message: /code, state, nonce or verifier is missing/ },
    { name: 'no stored nonce', stored: { state: verification.state, codeVerifier: verification.codeVerifier }, message: /missing/ },
    { name: 'no stored verifier', stored: { state: verification.state, nonce }, message: /missing/ },
    { name: 'nothing stored', stored: null, message: /missing/ },
    { name: 'a state mismatch', search: '?code=the-code&state=other', message: /state does not match/ },
    { name: 'a failed code exchange', arrange: (h) => h.identityProvider.exchangeCode.rejects(new Error('invalid_grant')), message: /code exchange failed/ },
    {
      name: 'no idToken',
      arrange: (h) => h.identityProvider.exchangeCode.resolves({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 }),
      message: /idToken is not found in tokenResponse/,
    },
    { name: 'a verification failure', arrange: (h) => h.identityProvider.verifyIdToken.rejects(new Error('signature verification failed')), message: /verification failed/ },
    {
      name: 'an organisation-load failure',
      arrange: () => undefined,
      message: /organisations could not be loaded/,
    },
  ];

  for (const failure of failures) {
    it(`${failure.name} → the error page and a report with code, state, stored state, stored nonce and time`, async () => {
      const routes: Record<string, Route> =
        failure.name === 'an organisation-load failure' ? { 'GET /api/v2/admins/me/affiliations': () => jsonResponse(500, { error: 'internal_error' }) } : {};
      const harness = prepare({ stored: failure.stored, routes });
      failure.arrange?.(harness);
      const { state, reports, status } = await callback(harness, failure.search);
      expect(status).to.equal('failed');
      expect(harness.navigate.called).to.equal(false);
      expect(state.session.session).to.equal(null);
      expect(state.session.isLoggedIn).to.equal(false);
      expect(harness.sessionStorage.getItem(VERIFICATION_STORAGE_KEY)).to.equal(null);
      expect(reports).to.have.length(1);
      expect(reports[0].message).to.match(failure.message);
      const query = new URLSearchParams(failure.search ?? `?code=the-code&state=${verification.state}`);
      const stored = failure.stored === undefined ? verification : failure.stored;
      expect(reports[0].context).to.include({
        code: query.get('code'),
        state: query.get('state'),
        // snake_case on the wire
        stored_state: (stored?.state as string | undefined) ?? null,
        stored_nonce: (stored?.nonce as string | undefined) ?? null,
        time: new Date(NOW).toISOString(),
      });
      // no flash from the general handling: the page says it
      expect(state.flash.messages).to.deep.equal([]);
    });
  }

  it('no glopla_id in the ID token → /signin?error_message_key=no_organization_affiliation, no report', async () => {
    const harness = prepare();
    harness.identityProvider.decodeIdToken.resolves({ sub: '1' });
    const { state, reports } = await callback(harness);
    expect(harness.navigate.calledOnceWith('/signin?error_message_key=no_organization_affiliation', { replace: true })).to.equal(true);
    expect(state.session.session).to.equal(null);
    expect(reports).to.have.length(0);
    expect(harness.identityProvider.verifyIdToken.called).to.equal(false);
  });

  it('no affiliation matching glopla_id → the same, and the stored session is dropped', async () => {
    const harness = prepare();
    harness.identityProvider.decodeIdToken.resolves({ glopla_id: 'G9999999' });
    const { state, reports } = await callback(harness);
    expect(harness.navigate.calledOnceWith('/signin?error_message_key=no_organization_affiliation', { replace: true })).to.equal(true);
    expect(state.session.session).to.equal(null);
    expect(state.session.isLoggedIn).to.equal(false);
    expect(await harness.loginStore.load()).to.equal(null);
    expect(reports).to.have.length(0);
  });

  describe('step 6', () => {
    let clock: sinon.SinonFakeTimers;
    beforeEach(() => {
      clock = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: NOW });
    });
    afterEach(() => clock.restore());

    it('the organisation not persisted within 10 s → sign-in with no_organization_affiliation', async () => {
      const neverPersisted: LoginStore = { load: async () => null, save: async () => undefined, clear: async () => undefined };
      const harness = prepare({ loginStore: neverPersisted });
      harness.store.dispatch(callbackOpened({ search: `?code=the-code&state=${verification.state}` }));
      const task = harness.run(completeSignin, callbackOpened({ search: `?code=the-code&state=${verification.state}` }));
      for (let elapsed = 0; elapsed <= PERSIST_POLL_TIMEOUT_MS && task.isRunning(); elapsed += 100) await clock.tickAsync(100);
      await task.toPromise();
      expect(harness.navigate.calledOnceWith('/signin?error_message_key=no_organization_affiliation', { replace: true })).to.equal(true);
      expect((harness.store.getState() as any).session.session).to.equal(null);
    });
  });
});
