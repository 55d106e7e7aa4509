/**
 * An application's dates as calendar entries (issue 30): an iCalendar file (RFC 5545, written by `ics`) with its start
 * date and its change deadline as all-day events, in the page's language (words in locales/<lang>/subscriptionDetails.json
 * calendar.*), each linking to Application Details. The uids stay the same for the same application and date, so a
 * calendar that imports the file again updates its entries instead of doubling them.
 */
import { createEvents, type DateArray, type EventAttributes } from 'ics';
import type { Subscription } from '../../common/api/answers.js';
import type { Language } from '../../common/languages.js';
import { addDays } from '../../common/subscriptionRules.js';
import { localeText } from '../mail/templates.js';

const dateArray = (date: string): DateArray => date.split('-').map(Number) as DateArray;

const words = (language: Language, key: string, values: Record<string, string>) =>
  localeText(language, `subscriptionDetails.calendar.${key}`).replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);

/** The .ics text of the application's start date and change deadline. */
export function applicationCalendar(subscription: Subscription, language: Language, publicUrl: string): string {
  const startsOn = subscription.startsOn[0]!;
  const values = {
    requestCode: subscription.requestCode,
    serviceGroup: subscription.services[0]?.serviceGroup.name ?? '',
    startsOn,
    changeDeadline: subscription.changeDeadline,
  };
  const url = `${publicUrl}/subscription/${encodeURIComponent(subscription.requestCode)}?locale=${language}`;
  const host = new URL(publicUrl).hostname;
  const allDay = (date: string, kind: 'start' | 'deadline'): EventAttributes => ({
    start: dateArray(date),
    end: dateArray(addDays(date, 1)),
    title: words(language, `${kind}Title`, values),
    // the link in the description only: ics's URL property check refuses some valid origins (a port below 10)
    description: `${words(language, `${kind}Description`, values)}\n${url}`,
    uid: `${subscription.requestCode}-${kind}-${date}@${host}`,
    productId: 'corporate-admin-portal',
    calName: words(language, 'name', values),
    busyStatus: 'FREE',
  });
  const { error, value } = createEvents([allDay(subscription.changeDeadline, 'deadline'), allDay(startsOn, 'start')]);
  if (error || !value) throw error ?? new Error('no calendar written');
  return value;
}
