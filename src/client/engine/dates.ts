/** The spec's date formats: yyyy-MM-dd, and yyyy年M月d日 in Japanese. */
import moment from 'moment';
import type { Language } from '../../common/languages.js';

const DATE_FORMAT: Record<Language, string> = { ja: 'YYYY年M月D日', en: 'YYYY-MM-DD' };

export function formatDate(value: string | Date, language: Language): string {
  return moment(value).format(DATE_FORMAT[language]);
}
