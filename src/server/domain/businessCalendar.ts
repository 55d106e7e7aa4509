/**
 * The server's business-day calendar (issue 30): Japanese public holidays from @holiday-jp/holiday_jp (its dataset
 * runs to 2050) and the provider's own closed days from calendar/closedDays.json (product staff edit it; check:config
 * checks it). Read once per process, as the app starts (app.ts); every deadline, check and reminder counts business days with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import holidayJp from '@holiday-jp/holiday_jp';
import Ajv from 'ajv';
import { BusinessCalendar, CLOSED_DAYS_FILE, closedDaysFileSchema, closedDaysRule, invalidClosedDates, type ClosedDaysRule } from '../../common/businessCalendar.js';
import { addDays } from '../../common/subscriptionRules.js';
import { PROJECT_ROOT } from '../../configuration/load.js';

/** The window of closed days the browser gets (portal_settings): the wizard's start dates reach 6 months ahead. */
const BROWSER_WINDOW_DAYS = { before: 31, after: 200 } as const;

const isHoliday = (date: string) => Object.hasOwn(holidayJp.holidays, date);

/** calendar/closedDays.json, checked: a broken file stops the start rather than promising days nobody works. */
export function loadClosedDaysRule(root = PROJECT_ROOT): ClosedDaysRule {
  const file = path.join(root, CLOSED_DAYS_FILE);
  const rule: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const validate = new Ajv({ strict: false }).compile<ClosedDaysRule>(closedDaysFileSchema);
  if (!validate(rule)) throw new Error(`${file}: ${new Ajv().errorsText(validate.errors)}`);
  const invalid = invalidClosedDates(rule);
  if (invalid.length > 0) throw new Error(`${file}: no calendar date: ${invalid.join(', ')}`);
  return rule;
}

let calendar: BusinessCalendar | undefined;

export function businessCalendar(): BusinessCalendar {
  if (!calendar) {
    const isClosedDay = closedDaysRule(loadClosedDaysRule());
    calendar = new BusinessCalendar((date) => isHoliday(date) || isClosedDay(date));
  }
  return calendar;
}

/** The closed days around today that the browser's calendar needs (GET portal_settings → closedDays). */
export function browserClosedDays(today: string): string[] {
  return businessCalendar().closedDaysBetween(addDays(today, -BROWSER_WINDOW_DAYS.before), addDays(today, BROWSER_WINDOW_DAYS.after));
}
