import 'global-jsdom/register';
import '../support/assets.js';
import { expect } from 'chai';
import { cleanup, fireEvent, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { applyMiddleware, combineReducers, legacy_createStore as createStore, type Middleware, type UnknownAction } from 'redux';
import { Header } from '../../../src/client/app/frame/Header.js';
import { featureFlagLoaded, featureFlagsReducers } from '../../../src/client/engine/featureFlags.js';
import { portalSettingsLoaded, portalSettingsReducers } from '../../../src/client/engine/portalSettings.js';
import {
  allAnnouncementsMarkedRead,
  announcementsLoaded,
  announcementsReducers,
  announcementsRequested,
  readArticleIdsRestored,
} from '../../../src/client/features/announcements/index.js';
import { stateReducers } from '../../../src/client/state/index.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored } from '../../../src/client/state/session.js';
import { englishI18n } from '../support/i18n.js';

const english = englishI18n;

/** The actions the header dispatched (the store has no sagas: the feature's sagas are tested on their own). */
let dispatched: UnknownAction[] = [];
const record: Middleware = () => (next) => (action) => {
  dispatched.push(action as UnknownAction);
  return next(action);
};

function signedInStore(rolesEnabled: boolean) {
  dispatched = [];
  const store = createStore(combineReducers({ ...stateReducers, ...featureFlagsReducers, ...portalSettingsReducers, ...announcementsReducers }), applyMiddleware(record));
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

  const show = (rolesEnabled = true, store = signedInStore(rolesEnabled)) =>
    render(
      <I18nextProvider i18n={i18n}>
        <Provider store={store}>
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

  it("draws the language's logo in the page (not an <img>, a document of its own): a home link named by the logo", () => {
    const screen = show();
    const home = screen.getByRole('link', { name: 'Corporate Admin Portal – home' });
    expect(home.getAttribute('href')).to.equal('/');
    expect(home.querySelector('img')).to.equal(null);
    expect(home.querySelector('svg text')?.textContent).to.equal('Corporate Admin Portal');
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

  describe('the announcements icon', () => {
    const article = (id: number) => ({ id, title: `Article ${id}`, publishedAt: '2025-08-01T00:00:00.000Z', body: '', url: null });

    it('asks for the signed-in admin\'s articles in the page\'s language', () => {
      show();
      expect(dispatched).to.deep.include(announcementsRequested({ adminId: 1, language: 'en' }));
    });

    it('shows the unread count in a badge and in its name, and opens the portal\'s announcement page in a new tab', () => {
      const store = signedInStore(true);
      store.dispatch(readArticleIdsRestored({ adminId: 1, ids: [1] }));
      store.dispatch(announcementsLoaded([article(3), article(2), article(1)]));
      const screen = show(true, store);
      const icon = screen.getByRole('link', { name: 'Announcements, 2 unread' });
      expect(icon.textContent).to.equal('2');
      expect(icon.getAttribute('href')).to.equal('/announcements');
      expect(icon.getAttribute('target')).to.equal('_blank');
      expect(icon.getAttribute('rel')).to.include('noopener');
    });

    it('clicking it marks every article read: the badge goes', () => {
      const store = signedInStore(true);
      store.dispatch(announcementsLoaded([article(2), article(1)]));
      const screen = show(true, store);
      fireEvent.click(screen.getByRole('link', { name: 'Announcements, 2 unread' }));
      expect(dispatched).to.deep.include(allAnnouncementsMarkedRead());
      const icon = screen.getByRole('link', { name: 'Announcements' });
      expect(icon.textContent).to.equal('');
    });

    it('hides the badge at 0 and opens the configured page, with {lang} as the page\'s language', () => {
      const store = signedInStore(true);
      store.dispatch(portalSettingsLoaded({ announcementPageUrl: 'https://news.example.com/{lang}/portal' }));
      const screen = show(true, store);
      const icon = screen.getByRole('link', { name: 'Announcements' });
      expect(icon.querySelector('.announcements-icon__badge')).to.equal(null);
      expect(icon.getAttribute('href')).to.equal('https://news.example.com/en/portal');
    });

    it('is not shown when nobody is signed in', () => {
      const store = createStore(combineReducers({ ...stateReducers, ...featureFlagsReducers, ...portalSettingsReducers, ...announcementsReducers }));
      const screen = show(true, store);
      expect(screen.queryByRole('link', { name: /Announcements/ })).to.equal(null);
    });
  });
});
