/**
 * The spec's date formats: yyyy-MM-dd, and yyyy年M月d日 in Japanese; with the short weekday (SPEC 2.9, 2.11):
 * 'Tue, 2026-11-24' and '2026年11月24日(火)'. A date alone (yyyy-MM-dd) is that day; a date-time is shown in the
 * browser's time zone. A month (a chart's categories): 'Jun 2026', '2026年6月'.
 */
import moment from 'moment';
import type { Language } from '../../common/languages.js';

const DATE_FORMAT: Record<Language, string> = { ja: 'YYYY年M月D日', en: 'YYYY-MM-DD' };
/** Short weekday names from Sunday, by language (fixed here: no moment locale data in the bundle). */
const WEEKDAYS: Record<Language, readonly string[]> = {
  ja: ['日', '月', '火', '水', '木', '金', '土'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
};

export function formatDate(value: string | Date, language: Language): string {
  return moment(value).format(DATE_FORMAT[language]);
}

export function formatWeekdayDate(value: string | Date, language: Language): string {
  const date = moment(value);
  const weekday = WEEKDAYS[language][date.day()]!;
  const day = date.format(DATE_FORMAT[language]);
  return language === 'ja' ? `${day}(${weekday})` : `${weekday}, ${day}`;
}

const MONTH_FORMAT: Record<Language, string> = { ja: 'YYYY年M月', en: 'MMM YYYY' };

/** A month (yyyy-MM): 'Jun 2026', '2026年6月' (moment's own English month names); anything else as it is. */
export function formatMonth(value: string, language: Language): string {
  const month = moment(value, 'YYYY-MM', true);
  return month.isValid() ? month.format(MONTH_FORMAT[language]) : value;
}

/** A moment to the second, in the browser's time zone (the activity log): '2026-11-24 18:05:09', '2026年11月24日 18:05:09'. */
export function formatDateTime(value: string | Date, language: Language): string {
  return moment(value).format(`${DATE_FORMAT[language]} HH:mm:ss`);
}
