/**
 * The date and size rules of a corporate subscription (SPEC §4 'Application', §5 'Application', §9), shared by the
 * browser wizard (its start-date picker, its user-limit heading) and the server (domain/corporateSubscriptions.ts),
 * so both say the same. Pure functions: dates are 'yyyy-MM-dd' strings of the Asia/Tokyo calendar; 'today' is given
 * by the caller (tokyoToday() for the real one). What counts business days is the business-day calendar
 * (businessCalendar.ts).
 */
import moment from 'moment';

export { tokyoToday } from './tokyoToday.js';

export const DATE_FORMAT = 'YYYY-MM-DD';
/** SPEC §9: the start date is at most 6 months ahead. */
export const START_WINDOW_MONTHS = 6;
const day = (date: string) => moment.utc(date, DATE_FORMAT, true);
const format = (date: moment.Moment) => date.format(DATE_FORMAT);

/** True for a real calendar date written yyyy-MM-dd. */
export function isDate(date: string): boolean {
  return day(date).isValid();
}

/**
 * SPEC §5: a start date entered as MM-dd-yyyy is sent as yyyy-MM-dd (a slash for the hyphen too, as spreadsheets
 * write it); anything else is left as it is, for the form's digit-group check to judge.
 */
export function startsOnAsSent(value: string): string {
  const match = /^\s*(\d{2})[-/](\d{2})[-/](\d{4})\s*$/.exec(value);
  return match ? `${match[3]}-${match[1]}-${match[2]}` : value.trim();
}

export function addDays(date: string, days: number): string {
  return format(day(date).add(days, 'days'));
}

/**
 * The latest start date: 6 months after today, capped by the earliest of the services' last start dates (SPEC §5, §9:
 * emba 2026-05-01, old plus 6 months 2026-02-01, …; null: no cap). May be before earliestStartsOn: no date is possible.
 */
export function latestStartsOn(today: string, lastStartsOns: ReadonlyArray<string | null> = []): string {
  const caps = lastStartsOns.filter((date): date is string => date !== null);
  return [format(day(today).add(START_WINDOW_MONTHS, 'months')), ...caps].sort()[0]!;
}

/** What SPEC §5 'User limit' needs of a service group (src/common/api/answers.ts ServiceGroup has it). */
export interface UserLimitGroup {
  selection: 'single' | 'multi';
  maximumUsers: number | null;
  classSize: { minimum: number; maximum: number } | null;
}

/**
 * How many learners an application may have, with the field error code that says it is exceeded:
 * - a class (gls): the class size of the group, code 'classSize' (below its minimum only warns: belowClassMinimum);
 * - subjects (multi, emba): subjects × participants ≤ maximum, so floor(maximum / selected subjects), 'maximumNumberUsers.emba';
 * - otherwise (hodai and the other single-choice groups): the maximum, 'maximumNumberUsers.hodai';
 * - null when the group has no limit.
 */
export type UserLimit =
  | { code: 'classSize'; minimum: number; maximum: number }
  | { code: 'maximumNumberUsers.emba' | 'maximumNumberUsers.hodai'; minimum: 0; maximum: number };

export function userLimit(group: UserLimitGroup, selectedCount: number): UserLimit | null {
  if (group.classSize) return { code: 'classSize', minimum: group.classSize.minimum, maximum: group.classSize.maximum };
  if (group.maximumUsers === null) return null;
  if (group.selection === 'multi') return { code: 'maximumNumberUsers.emba', minimum: 0, maximum: Math.floor(group.maximumUsers / Math.max(selectedCount, 1)) };
  return { code: 'maximumNumberUsers.hodai', minimum: 0, maximum: group.maximumUsers };
}
