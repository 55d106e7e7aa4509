/**
 * The support chat (SPEC 2.2): a third-party widget loaded with the key of the page's language. Only when the server
 * has one configured (GET portal_settings → supportChat; README: SUPPORT_CHAT_SCRIPT_URL, SUPPORT_CHAT_KEY_JA/EN);
 * otherwise nothing loads. The CSP forbids inline script, so the widget is one external script element the portal
 * adds: `<script src="{scriptUrl}" data-key="{key}" data-lang="{lang}" async>`, from the one origin the CSP allows.
 * The frame asks for it once the settings are in (a language switch reloads the page, so the key never changes).
 */
import { call, takeLatest } from 'redux-saga/effects';
import type { Language } from '../../../common/languages.js';
import type { SupportChatSettings } from './supportChatScript.js';
import { actionCreator } from '../../state/actions.js';

export type { SupportChatSettings } from './supportChatScript.js';

export const supportChatRequested = actionCreator<{ settings: SupportChatSettings; language: Language }, 'supportChat/requested'>('supportChat/requested');

/** Adds the widget's script element (supportChatScript.ts, a chunk of its own: most portals configure no chat). */
export function* loadSupportChat({ payload }: ReturnType<typeof supportChatRequested>): Generator<unknown, void, unknown> {
  if (typeof document === 'undefined') return;
  const { addSupportChatScript, supportChatScript } = (yield call(() => import(/* webpackChunkName: "support-chat" */ './supportChatScript.js'))) as typeof import('./supportChatScript.js');
  yield call(addSupportChatScript, document, supportChatScript(payload.settings, payload.language));
}

/** Fork in the root saga. */
export function* supportChatSaga() {
  yield takeLatest(supportChatRequested.type, loadSupportChat);
}
