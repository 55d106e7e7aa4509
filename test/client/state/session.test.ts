import { expect } from 'chai';
import { combineReducers } from 'redux';
import { stateReducers } from '../../../src/client/state/index.js';
import {
  accessToken,
  gloplaId,
  hasSession,
  isLoggedIn,
  isManager,
  isMember,
  organizationId,
  organizationSelected,
  sessionCleared,
  sessionFromTokenResponse,
  sessionStored,
} from '../../../src/client/state/session.js';

const reducer = combineReducers(stateReducers);
const tokenResponse = {
  accessToken: 'access',
  refreshToken: 'refresh',
  createdAt: 1_700_000_000,
  expiresIn: 7200,
  refreshTokenExpiresIn: 2_592_000,
  idToken: 'id.token.sig',
};

describe('state/session', () => {
  it('sessionFromTokenResponse: ISO createdAt, expiredAt = createdAt + expiresIn, refreshTokenExpiresAt = createdAt + refreshTokenExpiresIn, no affiliations', () => {
    expect(sessionFromTokenResponse(tokenResponse)).to.deep.equal({
      token: 'access',
      refreshToken: 'refresh',
      createdAt: '2023-11-14T22:13:20.000Z',
      expiredAt: '2023-11-15T00:13:20.000Z',
      refreshTokenExpiresAt: '2023-12-14T22:13:20.000Z',
      affiliations: [],
    });
  });

  it('starts logged out: no session, no organisation, role member', () => {
    const state = reducer(undefined, { type: '@@init' });
    expect(hasSession(state)).to.equal(false);
    expect(isLoggedIn(state)).to.equal(false);
    expect(accessToken(state)).to.equal(null);
    expect(organizationId(state)).to.equal(null);
    expect(isMember(state)).to.equal(true);
    expect(isManager(state)).to.equal(false);
  });

  it('sessionStored gives a session and its access token; organizationSelected sets organization, me and role', () => {
    let state = reducer(undefined, sessionStored(sessionFromTokenResponse(tokenResponse)));
    expect(hasSession(state)).to.equal(true);
    expect(accessToken(state)).to.equal('access');
    state = reducer(
      state,
      organizationSelected({
        organization: { id: 7, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' },
        me: { id: 3, firstName: '太郎', lastName: '山田' },
        role: 'manager',
      }),
    );
    expect(isLoggedIn(state)).to.equal(true);
    expect(organizationId(state)).to.equal(7);
    expect(gloplaId(state)).to.equal('G0000001');
    expect(isManager(state)).to.equal(true);
    expect(isMember(state)).to.equal(false);
  });

  it('organizationSelected without a role defaults to member', () => {
    const state = reducer(undefined, organizationSelected({ organization: { id: 1, gloplaId: 'G1' }, me: { id: 1, firstName: 'a', lastName: 'b' } }));
    expect(isMember(state)).to.equal(true);
  });

  it('sessionCleared resets session and login context', () => {
    let state = reducer(undefined, sessionStored(sessionFromTokenResponse(tokenResponse)));
    state = reducer(state, organizationSelected({ organization: { id: 1, gloplaId: 'G1' }, me: { id: 1, firstName: 'a', lastName: 'b' }, role: 'manager' }));
    state = reducer(state, sessionCleared());
    expect(hasSession(state)).to.equal(false);
    expect(isLoggedIn(state)).to.equal(false);
    expect(gloplaId(state)).to.equal(null);
    expect(isManager(state)).to.equal(false);
  });
});
