import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, render, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import type { UnknownAction } from 'redux';
import { SupportChat } from '../../../../src/client/app/frame/SupportChat.js';
import { portalSettingsReducers, portalSettingsSaga, selectAnnouncementPageUrl, PORTAL_SETTINGS_OPERATION } from '../../../../src/client/engine/portalSettings.js';
import { supportChatSaga } from '../../../../src/client/features/supportChat/index.js';
import { SUPPORT_CHAT_SCRIPT_ID, supportChatScript } from '../../../../src/client/features/supportChat/supportChatScript.js';
import { appStarted } from '../../../../src/client/state/app.js';
import { operationStatus } from '../../../../src/client/state/operations.js';
import { selectFlashMessages } from '../../../../src/client/state/flash.js';
import { jsonResponse, settle, setup, type Route } from '../../api/harness.js';
import { englishI18n } from '../../support/i18n.js';

const CHAT = { script_url: 'https://chat.example.com/widget.js', keys: { ja: 'key-ja', en: 'key-en' } };

/** Stops the page's sagas: a load still under way at a test's end would add its script during the next test. */
let stopPage = () => {};

async function startPage(route: Route) {
  const harness = setup({
    routes: { 'GET /api/v2/portal_settings': route },
    reducers: portalSettingsReducers as Record<string, (state: unknown, action: UnknownAction) => unknown>,
  });
  const sagas = [harness.run(portalSettingsSaga), harness.run(supportChatSaga)];
  stopPage = () => sagas.forEach((saga) => saga.cancel());
  render(
    <Provider store={harness.store}>
      <I18nextProvider i18n={await englishI18n()}>
        <SupportChat />
      </I18nextProvider>
    </Provider>,
  );
  harness.store.dispatch(appStarted());
  const state = () => harness.store.getState() as never;
  const deadline = Date.now() + 2000;
  while (operationStatus(PORTAL_SETTINGS_OPERATION)(state()) === undefined || operationStatus(PORTAL_SETTINGS_OPERATION)(state()) === 'pending') {
    if (Date.now() > deadline) break;
    await settle(1);
  }
  await settle();
  return { ...harness, state };
}

describe('features/supportChat and the portal settings', () => {
  afterEach(() => {
    stopPage();
    cleanup();
    document.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.remove();
  });

  it('loads nothing when no support chat is configured (the default)', async () => {
    const page = await startPage(() => jsonResponse(200, { announcement_page_url: '/announcements' }));
    expect(page.calls('GET', '/api/v2/portal_settings')).to.have.length(1);
    expect(document.querySelectorAll('script')).to.have.length(0);
  });

  it('adds the widget\'s script once, from the configured URL with the page language\'s key, no inline code', async () => {
    const page = await startPage(() => jsonResponse(200, { announcement_page_url: '/announcements', support_chat: CHAT }));
    // the script element's code comes as a chunk of its own
    await waitFor(() => expect(document.querySelectorAll('script')).to.have.length(1));
    const scripts = document.querySelectorAll('script');
    const script = scripts[0]!;
    expect(script.id).to.equal(SUPPORT_CHAT_SCRIPT_ID);
    expect(script.getAttribute('src')).to.equal('https://chat.example.com/widget.js');
    expect(script.dataset.key).to.equal('key-en');
    expect(script.dataset.lang).to.equal('en');
    expect(script.textContent).to.equal('');
    page.store.dispatch(appStarted()); // loaded again: still one script
    await settle();
    expect(document.querySelectorAll('script')).to.have.length(1);
  });

  it('uses the Japanese key on a Japanese page', () => {
    const settings = { scriptUrl: CHAT.script_url, keys: CHAT.keys };
    expect(supportChatScript(settings, 'ja')).to.deep.equal({ src: CHAT.script_url, key: 'key-ja', lang: 'ja' });
  });

  it('a failed settings load keeps the defaults (the portal\'s announcement page, no chat) and shows nothing', async () => {
    const page = await startPage(() => jsonResponse(500, { error: 'internal_error' }));
    expect(selectAnnouncementPageUrl('en')(page.state())).to.equal('/announcements');
    expect(document.querySelectorAll('script')).to.have.length(0);
    expect(selectFlashMessages(page.state())).to.deep.equal([]);
    expect(page.calls('POST', '/api/v2/client_errors')).to.have.length(0);
  });
});
