/**
 * The words' date formats: `{{time, dateTime}}` writes an ISO 8601 time as the pages write dates and times
 * (dates.ts), e.g. in 'changed by {{name}} at {{time, dateTime}}'. Added by the screen engine's chunk (ScreenView):
 * only screens' calls give such words.
 */
import type { i18n } from 'i18next';
import { DEFAULT_LANGUAGE, isLanguage } from '../../common/languages.js';
import { formatDateTime } from './dates.js';

export function addDateWordFormats(instance: i18n): i18n {
  instance.services.formatter?.add('dateTime', (value: unknown, lng: string | undefined) =>
    typeof value === 'string' && value !== '' ? formatDateTime(value, isLanguage(lng) ? lng : DEFAULT_LANGUAGE) : String(value ?? ''),
  );
  return instance;
}
