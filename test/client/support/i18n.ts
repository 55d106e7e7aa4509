import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { addDateWordFormats } from '../../../src/client/engine/dateWords.js';
import { addWordFormats } from '../../../src/client/engine/i18n.js';
import { loadLocales } from '../../../src/configuration/load.js';

/** An i18next instance with the real locales/ files, in English with the Japanese fallback, as the app sets it up. */
export async function englishI18n(): Promise<i18n> {
  const instance = i18next.createInstance();
  const locales = loadLocales();
  await instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'ja',
    resources: { en: { translation: locales.en }, ja: { translation: locales.ja } },
    interpolation: { escapeValue: false },
  });
  return addDateWordFormats(addWordFormats(instance));
}
