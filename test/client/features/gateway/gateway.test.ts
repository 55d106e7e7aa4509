/**
 * The gateway saga (/auth/gateway, SPEC 2.3, §7 Single-sign-on forwarding, §8 Gateway): a real store and sagas, the
 * browser's storages from jsdom; fetch, navigate, the provider and the full-page navigation are fakes.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { waitFor } from '@testing-library/react';
import { logoutSaga } from '../../../../src/client/features/auth/logoutSaga.js';
import { gatewayOpened, gatewayRequest, gatewaySaga, RESUME_STORAGE_KEY } from '../../../../src/client/features/gateway/index.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../../src/client/state/session.js';
import { jsonResponse, settle, type Route } from '../../api/harness.js';
import { authSetup, metadata, ORIGIN, tokens } from '../auth/support.js';

const TOKENS = {
  auth_url: 'https://partner.example.com/sso?from=portal',
  guq: 'one-time-id',
  gss: 'xyz',
  gui: '1',
  gsg: 'signature',
  ghs: '1743498060',
  gul: 'en',
  product_id: 1,
};

function gateway(options: { signedIn?: boolean; tokens?: Route; check?: Route } = {}) {
  const harness = authSetup({
    routes: {
      'GET /api/v2/admin/single-sign-on': options.tokens ?? (() => jsonResponse(200, TOKENS)),
      'GET /api/v2/admin/single-sign-on/check': options.check ?? (() => new Response(null, { status: 204 })),
      'POST /api/v2/client_errors': () => new Response(null, { status: 204 }),
    },
  });
  harness.run(gatewaySaga);
  harness.run(logoutSaga);
  if (options.signedIn !== false) {
    harness.store.dispatch(sessionStored(sessionFromTokenResponse(tokens())));
    harness.store.dispatch(organizationSelected({ organization: { id: 1, gloplaId: 'G0000001' }, me: { id: 1, firstName: '太郎', lastName: '山田' } }));
  }
  const open = async (search: string) => {
    harness.store.dispatch(gatewayOpened({ search }));
    await settle();
  };
  const flashes = () => selectFlashMessages(harness.store.getState() as any).map((message) => `${message.kind} ${message.messageKey}`);
  return { ...harness, open, flashes };
}

describe('features/gateway (/auth/gateway)', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('asks for the tokens with gpc, gss and gul, then sends the browser to authUrl with guq, gss, gui, gsg, ghs, gul and goi', async () => {
    const harness = gateway();
    localStorage.setItem('projectId', '12');
    await harness.open('?gpc=demo-partner&gss=xyz&gul=en');
    const [call] = harness.calls('GET', '/api/v2/admin/single-sign-on');
    expect(Object.fromEntries(new URL(call!.args[0], ORIGIN).searchParams)).to.deep.equal({ gpc: 'demo-partner', gss: 'xyz', gul: 'en' });
    const url = new URL(harness.assignLocation.firstCall.args[0] as string);
    expect(`${url.origin}${url.pathname}`).to.equal('https://partner.example.com/sso');
    expect(Object.fromEntries(url.searchParams)).to.deep.equal({ from: 'portal', guq: 'one-time-id', gss: 'xyz', gui: '1', gsg: 'signature', ghs: '1743498060', gul: 'en', goi: 'G0000001' });
    // not product 4: the project stays where it is
    expect(localStorage.getItem('projectId')).to.equal('12');
    expect(harness.navigate.called).to.equal(false);
  });

  it('for productId 4 adds projectId and projectCode from local storage and removes them there', async () => {
    const harness = gateway({ tokens: () => jsonResponse(200, { ...TOKENS, product_id: 4 }) });
    localStorage.setItem('projectId', '12');
    localStorage.setItem('projectCode', 'PRJ-7');
    await harness.open('?gpc=project-partner');
    const url = new URL(harness.assignLocation.firstCall.args[0] as string);
    expect(url.searchParams.get('projectId')).to.equal('12');
    expect(url.searchParams.get('projectCode')).to.equal('PRJ-7');
    expect([localStorage.getItem('projectId'), localStorage.getItem('projectCode')]).to.deep.equal([null, null]);
  });

  it('on 403: the Forbidden flash and top, nothing else', async () => {
    const harness = gateway({ tokens: () => jsonResponse(403, { error: 'forbidden' }) });
    await harness.open('?gpc=no-such-partner');
    expect(harness.flashes()).to.deep.equal(['error errors.forbidden']);
    expect(harness.navigate.args).to.deep.equal([['/', { replace: true }]]);
    expect(harness.assignLocation.called).to.equal(false);
  });

  it('on any other failure: the general handling (here: reported, unexpected error) and top', async () => {
    const harness = gateway({ tokens: () => jsonResponse(500, { error: 'internal_error' }) });
    await harness.open('?gpc=demo-partner');
    expect(harness.flashes()).to.deep.equal(['error errors.unexpected']);
    expect(harness.calls('POST', '/api/v2/client_errors')).to.have.length(1);
    expect(harness.navigate.args).to.deep.equal([['/', { replace: true }]]);
    expect(harness.assignLocation.called).to.equal(false);
  });

  it('signed out: sign in first, coming back to the same gateway URL', async () => {
    const harness = gateway({ signedIn: false });
    await harness.open('?gpc=demo-partner&gss=xyz');
    expect(harness.navigate.args).to.deep.equal([[`/signin?returnTo=${encodeURIComponent('/auth/gateway?gpc=demo-partner&gss=xyz')}`, { replace: true }]]);
    expect(harness.fetch.called).to.equal(false);
  });

  it('glo=true signed in: signs out through the provider, which brings the browser back to the gateway, which resumes without glo', async () => {
    const harness = gateway();
    await harness.open('?glo=true&gpc=demo-partner&gss=xyz&gul=en');
    // the logout loads the sign-in request's code (a chunk of its own) before it revokes
    await waitFor(() => expect(harness.assignLocation.called).to.equal(true));
    expect(harness.identityProvider.revoke.calledOnce).to.equal(true);
    expect((harness.store.getState() as any).session.session).to.equal(null);
    const logout = new URL(harness.assignLocation.firstCall.args[0] as string);
    expect(`${logout.origin}${logout.pathname}`).to.equal(metadata.endSessionEndpoint);
    expect(logout.searchParams.get('post_logout_redirect_uri')).to.equal(`${ORIGIN}/auth/gateway`);
    // the product was checked first, with the same query; no tokens asked for
    const [check] = harness.calls('GET', '/api/v2/admin/single-sign-on/check');
    expect(Object.fromEntries(new URL(check!.args[0], ORIGIN).searchParams)).to.deep.equal({ gpc: 'demo-partner', gss: 'xyz', gul: 'en' });
    expect(harness.calls('GET', '/api/v2/admin/single-sign-on')).to.have.length(0);
    // the provider's redirect back: /auth/gateway without a query
    await harness.open('');
    expect(harness.navigate.args).to.deep.equal([['/auth/gateway?gpc=demo-partner&gss=xyz&gul=en', { replace: true }]]);
    expect(sessionStorage.getItem(RESUME_STORAGE_KEY)).to.equal(null);
    // … which, signed out now, goes to sign in
    await harness.open('?gpc=demo-partner&gss=xyz&gul=en');
    expect(harness.navigate.lastCall.args[0]).to.equal(`/signin?returnTo=${encodeURIComponent('/auth/gateway?gpc=demo-partner&gss=xyz&gul=en')}`);
  });

  it('glo=true with an unknown product code (403 from the check): the Forbidden flash and top, still signed in (issue 15 finding 6)', async () => {
    const harness = gateway({ check: () => jsonResponse(403, { error: 'forbidden' }) });
    await harness.open('?glo=true&gpc=anything');
    expect(harness.identityProvider.revoke.called).to.equal(false);
    expect((harness.store.getState() as any).session.session).not.to.equal(null);
    expect(harness.flashes()).to.deep.equal(['error errors.forbidden']);
    expect(harness.navigate.args).to.deep.equal([['/', { replace: true }]]);
    expect(harness.assignLocation.called).to.equal(false);
    expect(sessionStorage.getItem(RESUME_STORAGE_KEY)).to.equal(null);
  });

  it('glo=true with a malformed query (422 from the check) or without gpc: top, still signed in (issue 15 finding 6)', async () => {
    const harness = gateway({ check: () => jsonResponse(422, { error: 'validation_failed' }) });
    await harness.open('?glo=true&gpc=demo-partner&gss=%20x');
    await harness.open('?glo=true');
    expect(harness.calls('GET', '/api/v2/admin/single-sign-on/check')).to.have.length(1);
    expect(harness.identityProvider.revoke.called).to.equal(false);
    expect((harness.store.getState() as any).session.session).not.to.equal(null);
    expect(harness.navigate.args).to.deep.equal([
      ['/', { replace: true }],
      ['/', { replace: true }],
    ]);
    expect(harness.assignLocation.called).to.equal(false);
  });

  it('glo=true signed out: sign in asking for the password (prompt=login), back to the gateway without glo', async () => {
    const harness = gateway({ signedIn: false });
    await harness.open('?gpc=demo-partner&glo=true');
    expect(harness.navigate.args).to.deep.equal([[`/signin?prompt=login&returnTo=${encodeURIComponent('/auth/gateway?gpc=demo-partner')}`, { replace: true }]]);
  });

  it('a bare visit with nothing to resume goes to top', async () => {
    const harness = gateway();
    await harness.open('');
    expect(harness.navigate.args).to.deep.equal([['/', { replace: true }]]);
    expect(harness.fetch.called).to.equal(false);
  });

  it('passes on gul only when it is ja or en (the server then defaults to ja)', () => {
    expect(gatewayRequest('?gpc=a&gul=fr').gul).to.equal(undefined);
    expect(gatewayRequest('?gpc=a&gul=ja').gul).to.equal('ja');
    expect(gatewayRequest('?gpc=a&glo=false').signOutFirst).to.equal(false);
  });
});
