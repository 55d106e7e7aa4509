/**
 * i18next set-up: ja is the default and the fallback; each language's words are a chunk of their own: the frame's
 * words, those of a screen arrive with it (screen/screenModule.ts).
 */
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../common/languages.js';
import { formatPersonName, type PersonName } from '../../common/personName.js';

export const LOCALE_QUERY_PARAM = 'locale';

async function loadResources(language: Language, all = false): Promise<Record<string, unknown>> {
  const module = all
    ? await import(/* webpackChunkName: "words-all-[request]" */ `../../../build/generated/words-all/${language}.json`)
    : await import(/* webpackChunkName: "locale-[request]" */ `../../../build/generated/locales/${language}.json`);
  return (module.default ?? module) as Record<string, unknown>;
}

/** The language for this page load: the `locale` query parameter, then the remembered choice, then ja. */
export function chooseLanguage(search: string, stored: string | null): Language {
  // a literal 'amp;' (a mailed link whose '&amp;' a mail client kept, SPEC 2.5) does not hide the parameter
  const requested = new URLSearchParams(search.replace(/amp;/g, '')).get(LOCALE_QUERY_PARAM);
  if (isLanguage(requested)) return requested;
  if (isLanguage(stored)) return stored;
  return DEFAULT_LANGUAGE;
}

/**
 * The words of a language, as i18next resources. Not the fallback's: check:config keeps every key in both languages,
 * so an English page would never show them (one request and 3 KB less on its first visit, issue 26).
 */
async function resourcesFor(language: Language, all = false): Promise<Record<string, { translation: Record<string, unknown> }>> {
  return { [language]: { translation: await loadResources(language, all) } };
}

/**
 * The words' own formats: `{{person, personName}}` writes a person's name by the language's rule
 * (src/common/personName.ts), `personName(kana: true)` adds the kana name in brackets, `personName(kanaOnly: true)` is
 * the kana name alone and `personName(honorific: true)` adds the honorific (Japanese). Formats of dates come with the
 * screen engine (dateWords.ts): moment stays out of the first load.
 */
export function addWordFormats(instance: i18n): i18n {
  instance.services.formatter?.add('personName', (value: unknown, lng: string | undefined, options: Record<string, unknown>) =>
    formatPersonName(value as PersonName | null, isLanguage(lng) ? lng : DEFAULT_LANGUAGE, { kana: options.kana === true, kanaOnly: options.kanaOnly === true, honorific: options.honorific === true }),
  );
  return instance;
}

export async function initI18n(language: Language): Promise<i18n> {
  const resources = await resourcesFor(language);
  await i18next.use(initReactI18next).init({
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  addWordFormats(i18next);
  document.documentElement.lang = language;
  return i18next;
}

/**
 * A separate i18next instance in another language and every word, for a part of the page
 * wrapped in its own I18nextProvider: the screen gallery shows each form in both languages side by side.
 */
export async function createI18n(language: Language): Promise<i18n> {
  const resources = await resourcesFor(language, true);
  const instance = i18next.createInstance();
  await instance.init({ lng: language, fallbackLng: DEFAULT_LANGUAGE, resources, interpolation: { escapeValue: false }, returnNull: false });
  return addWordFormats(instance);
}
