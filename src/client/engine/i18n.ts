/** i18next set-up: ja is the default and the fallback; each language's words are a chunk of their own. */
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../common/languages.js';

export const LANGUAGE_STORAGE_KEY = 'language';
export const LOCALE_QUERY_PARAM = 'locale';

async function loadResources(language: Language): Promise<Record<string, unknown>> {
  const module = await import(
    /* webpackChunkName: "locale-[request]" */ `../../../build/generated/locales/${language}.json`
  );
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

/** The words of a language and of the fallback, as i18next resources. */
async function resourcesFor(language: Language): Promise<Record<string, { translation: Record<string, unknown> }>> {
  const languages = language === DEFAULT_LANGUAGE ? [language] : [language, DEFAULT_LANGUAGE];
  return Object.fromEntries(await Promise.all(languages.map(async (lng) => [lng, { translation: await loadResources(lng) }] as const)));
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
  document.documentElement.lang = language;
  return i18next;
}

/**
 * A separate i18next instance in another language (with the ja fallback), for a part of the page wrapped in its own
 * I18nextProvider: the screen gallery shows each form in both languages side by side.
 */
export async function createI18n(language: Language): Promise<i18n> {
  const resources = await resourcesFor(language);
  const instance = i18next.createInstance();
  await instance.init({ lng: language, fallbackLng: DEFAULT_LANGUAGE, resources, interpolation: { escapeValue: false }, returnNull: false });
  return instance;
}
