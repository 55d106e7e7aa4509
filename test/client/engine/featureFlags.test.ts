import { expect } from 'chai';
import { featureFlagsReducers, isFeatureEnabled, loadFeatureFlags } from '../../../src/client/engine/featureFlags.js';
import { selectFlashMessages } from '../../../src/client/state/flash.js';
import { sessionFromTokenResponse, sessionStored } from '../../../src/client/state/session.js';
import { jsonResponse, networkFailure, setup, type Route } from '../api/harness.js';

const session = sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 });

async function load(route: Route | undefined, signedIn = true) {
  const harness = setup({ routes: route ? { 'GET /api/v2/enabled_feature_flags/product_admin_roles': route } : {}, reducers: featureFlagsReducers });
  if (signedIn) harness.store.dispatch(sessionStored(session));
  await harness.run(loadFeatureFlags).toPromise();
  const state = harness.store.getState() as any;
  return { harness, enabled: isFeatureEnabled('product_admin_roles')(state), flashes: selectFlashMessages(state) };
}

describe('features/featureFlags (SPEC §7 enabled_feature_flags, §8 flag failure = disabled)', () => {
  it('enabled when the server says so', async () => {
    expect((await load(() => jsonResponse(200, { enabled: true }))).enabled).to.equal(true);
  });
  it('disabled when the server says so', async () => {
    expect((await load(() => jsonResponse(200, { enabled: false }))).enabled).to.equal(false);
  });
  for (const [name, route] of [
    ['a 500', () => jsonResponse(500, { error: 'internal_error' })],
    ['a 404', () => jsonResponse(404, { error: 'not_found' })],
    ['a network failure', networkFailure],
  ] as const) {
    it(`${name} counts as disabled and shows nothing`, async () => {
      const result = await load(route);
      expect(result.enabled).to.equal(false);
      expect(result.flashes).to.deep.equal([]);
      expect(result.harness.calls('POST', '/api/v2/client_errors')).to.have.length(0);
    });
  }
  it('is not asked without a session', async () => {
    const result = await load(() => jsonResponse(200, { enabled: true }), false);
    expect(result.harness.fetch.called).to.equal(false);
  });
});
