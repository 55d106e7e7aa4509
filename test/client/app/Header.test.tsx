import 'global-jsdom/register';
import '../support/assets.js';
import { expect } from 'chai';
import { cleanup, fireEvent, render } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { combineReducers, legacy_createStore as createStore } from 'redux';
import { Header } from '../../../src/client/app/frame/Header.js';
import { featureFlagLoaded, featureFlagsReducers } from '../../../src/client/engine/featureFlags.js';
import { stateReducers } from '../../../src/client/state/index.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../src/client/state/session.js';
import { loadLocales } from '../../../src/configuration/load.js';

async function english() {
  const instance = i18next.createInstance();
  const locales = loadLocales();
  await instance.use(initReactI18next).init({ lng: 'en', resources: { en: { translation: locales.en } }, interpolation: { escapeValue: false } });
  return instance;
}

function signedInStore(rolesEnabled: boolean) {
  const store = createStore(combineReducers({ ...stateReducers, ...featureFlagsReducers }));
  store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'a', refreshToken: 'r', createdAt: 1, expiresIn: 1, refreshTokenExpiresIn: 1 })));
  store.dispatch(
    organizationSelected({
      organization: { id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' },
      me: { id: 1, firstName: '太郎', lastName: '山田' },
      role: 'manager',
    }),
  );
  store.dispatch(featureFlagLoaded({ name: 'product_admin_roles', enabled: rolesEnabled }));
  return store;
}

describe('Header (SPEC 2.2)', () => {
  let i18n: Awaited<ReturnType<typeof english>>;
  before(async () => {
    i18n = await english();
  });
  afterEach(cleanup);

  const show = (rolesEnabled = true) =>
    render(
      <I18nextProvider i18n={i18n}>
        <Provider store={signedInStore(rolesEnabled)}>
          <MemoryRouter>
            <Header />
          </MemoryRouter>
        </Provider>
      </I18nextProvider>,
    );

  it('shows the official name, [gloplaId] and the full name', () => {
    const screen = show();
    expect(screen.getByText('株式会社デモ [G0000001]')).to.exist;
    expect(screen.getByText('太郎 山田')).to.exist;
  });

  it('the menu is a button with aria-expanded; Escape closes it and returns the focus', () => {
    const screen = show();
    const button = screen.getByRole('button', { name: 'Menu' });
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    expect(screen.queryByRole('link', { name: 'My account' })).to.equal(null);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect(screen.getByRole('link', { name: 'My account' }).getAttribute('href')).to.equal('/account');
    expect(screen.getByRole('link', { name: 'Switch organization' }).getAttribute('href')).to.equal('/signin?prompt=select_account');
    expect(screen.getByRole('link', { name: 'Log out' }).getAttribute('href')).to.equal('/signout');
    const faq = screen.getByRole('link', { name: 'FAQ' });
    expect(faq.getAttribute('target')).to.equal('_blank');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    expect(document.activeElement).to.equal(button);
  });

  it('admin permissions only with the product_admin_roles flag (the menu of frame/navigation.json)', () => {
    const without = show(false);
    fireEvent.click(without.getByRole('button', { name: 'Menu' }));
    expect(without.queryByRole('link', { name: 'Admin permissions' })).to.equal(null);
    cleanup();
    const withFlag = show(true);
    fireEvent.click(withFlag.getByRole('button', { name: 'Menu' }));
    expect(withFlag.getByRole('link', { name: 'Admin permissions' }).getAttribute('href')).to.equal('/roles');
  });
});
