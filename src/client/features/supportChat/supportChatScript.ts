/**
 * The support chat widget's script element (supportChat.ts loads this when a chat is configured): one external
 * script, as the CSP allows no inline script.
 */
import type { Language } from '../../../common/languages.js';
import type { PortalSettings } from '../../engine/portalSettings.js';

export type SupportChatSettings = NonNullable<PortalSettings['supportChat']>;

/** The id of the widget's script element: added once per page. */
export const SUPPORT_CHAT_SCRIPT_ID = 'support-chat-script';

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
