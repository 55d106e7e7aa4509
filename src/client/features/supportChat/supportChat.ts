/**
 * The support chat (SPEC 2.2): a third-party widget loaded with the key of the page's language. Only when the server
 * has one configured (GET portal_settings → supportChat; README: SUPPORT_CHAT_SCRIPT_URL, SUPPORT_CHAT_KEY_JA/EN);
 * otherwise nothing loads. The CSP forbids inline script, so the widget is one external script element the portal
 * adds: `<script src="{scriptUrl}" data-key="{key}" data-lang="{lang}" async>`, from the one origin the CSP allows.
 * The frame asks for it once the settings are in (a language switch reloads the page, so the key never changes).
 */
import { call, takeLatest } from 'redux-saga/effects';
import type { Language } from '../../../common/languages.js';
import type { PortalSettings } from '../../engine/portalSettings.js';
import { actionCreator } from '../../state/actions.js';

/** The id of the widget's script element: added once per page. */
export const SUPPORT_CHAT_SCRIPT_ID = 'support-chat-script';

export type SupportChatSettings = NonNullable<PortalSettings['supportChat']>;

export const supportChatRequested = actionCreator<{ settings: SupportChatSettings; language: Language }, 'supportChat/requested'>('supportChat/requested');

/** Pure: the attributes of the widget's script element for a language (its key, else ja's). */
export function supportChatScript(settings: SupportChatSettings, language: Language): { src: string; key: string; lang: Language } {
  return { src: settings.scriptUrl, key: settings.keys[language] ?? settings.keys.ja, lang: language };
}

/** Adds the widget's script element to the document's head, unless it is there already. */
export function addSupportChatScript(document: Document, script: ReturnType<typeof supportChatScript>): void {
  if (document.getElementById(SUPPORT_CHAT_SCRIPT_ID)) return;
  const element = document.createElement('script');
  element.id = SUPPORT_CHAT_SCRIPT_ID;
  element.src = script.src;
  element.async = true;
  element.dataset.key = script.key;
  element.dataset.lang = script.lang;
  document.head.appendChild(element);
}

export function* loadSupportChat({ payload }: ReturnType<typeof supportChatRequested>): Generator<unknown, void, unknown> {
  if (typeof document === 'undefined') return;
  yield call(addSupportChatScript, document, supportChatScript(payload.settings, payload.language));
}

/** Fork in the root saga. */
export function* supportChatSaga() {
  yield takeLatest(supportChatRequested.type, loadSupportChat);
}
