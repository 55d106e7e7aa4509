/**
 * The spec's date formats: yyyy-MM-dd, and yyyy年M月d日 in Japanese; with the short weekday (SPEC 2.9, 2.11):
 * 'Tue, 2026-11-24' and '2026年11月24日(火)'. A date alone (yyyy-MM-dd) is that day; a date-time is shown in the
 * browser's time zone. A month (a chart's categories): 'Jun 2026', '2026年6月'.
 * Written from the Date's own fields, not with moment: its first strict parse held a cold Home's chart render up to
 * ~57 ms at 1× CPU and its 60 KB sat in every screen's chunk (issue 47); moment stays for the subscription rules' arithmetic.
 */
import type { Language } from '../../common/languages.js';

/** Short weekday names from Sunday, by language. */
const WEEKDAYS: Record<Language, readonly string[]> = {
  ja: ['日', '月', '火', '水', '木', '金', '土'],
  en: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
};
const MONTHS_EN = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** A day alone is that day where the browser is (as `new Date` would read it as UTC); anything else a moment in time. */
function toDate(value: string | Date): Date {
  if (value instanceof Date) return value;
  const day = DAY.exec(value);
  return day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
}

function dayText(date: Date, language: Language): string {
  const [year, month, day] = [date.getFullYear(), date.getMonth() + 1, date.getDate()];
  return language === 'ja' ? `${year}年${month}月${day}日` : `${year}-${twoDigits(month)}-${twoDigits(day)}`;
}

/** Each format: what is no date is shown as it is, not as 'Invalid date'. */
function formatted(value: string | Date, write: (date: Date) => string): string {
  const date = toDate(value);
  return Number.isNaN(date.getTime()) ? String(value) : write(date);
}

export function formatDate(value: string | Date, language: Language): string {
  return formatted(value, (date) => dayText(date, language));
}

export function formatWeekdayDate(value: string | Date, language: Language): string {
  return formatted(value, (date) => {
    const weekday = WEEKDAYS[language][date.getDay()]!;
    return language === 'ja' ? `${dayText(date, language)}(${weekday})` : `${weekday}, ${dayText(date, language)}`;
  });
}

/** A month (yyyy-MM): 'Jun 2026', '2026年6月'; anything else as it is. */
export function formatMonth(value: string, language: Language): string {
  const parts = MONTH.exec(value);
  const month = Number(parts?.[2]);
  if (!parts || month < 1 || month > 12) return value;
  return language === 'ja' ? `${parts[1]}年${month}月` : `${MONTHS_EN[month - 1]} ${parts[1]}`;
}

/** A moment to the second, in the browser's time zone (the activity log): '2026-11-24 18:05:09', '2026年11月24日 18:05:09'. */
export function formatDateTime(value: string | Date, language: Language): string {
  return formatted(value, (date) => `${dayText(date, language)} ${[date.getHours(), date.getMinutes(), date.getSeconds()].map(twoDigits).join(':')}`);
}
