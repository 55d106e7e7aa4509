/** Values shown inside texts in the page's language (ValueFormat): dates, dates with weekday, months, lists. */
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import type { ValueFormat } from '../../../common/screens.js';
import { formatDate, formatDateTime, formatMonth, formatWeekdayDate } from '../dates.js';

export function formatValue(value: unknown, format: ValueFormat | undefined, language: string): unknown {
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  switch (format) {
    case 'date':
      return typeof value === 'string' && value !== '' ? formatDate(value, lang) : value;
    case 'weekdayDate':
      return typeof value === 'string' && value !== '' ? formatWeekdayDate(value, lang) : value;
    case 'dateTime':
      return typeof value === 'string' && value !== '' ? formatDateTime(value, lang) : value;
    case 'month':
      return typeof value === 'string' && value !== '' ? formatMonth(value, lang) : value;
    case 'list':
      return Array.isArray(value) ? value.filter((element) => element !== null && element !== undefined && element !== '').join(', ') : value;
    default:
      return value;
  }
}

/** The values a block names in `formats`, formatted; the others as they are. */
export function formatted(values: Record<string, unknown>, formats: Record<string, ValueFormat> | undefined, language: string): Record<string, unknown> {
  if (!formats) return values;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, formatValue(value, formats[name], language)]));
}
