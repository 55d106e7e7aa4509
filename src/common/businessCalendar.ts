/**
 * The business-day calendar (issue 30): which days the provider works, and every deadline counted in those days —
 * an application's change and cancellation deadline (SPEC §4, §9), a class's reduction deadline and registration
 * deadline, the earliest start date of a new application (SPEC §5). Shared by the browser (the wizard's start-date
 * picker) and the server (every answer and check), so both say the same.
 *
 * A business day is Monday to Friday and not a closed day: a Japanese public holiday (the server reads them from
 * @holiday-jp/holiday_jp) or one of the provider's own closed days (calendar/closedDays.json, `closedDaysRule`). The
 * server builds the calendar (src/server/domain/businessCalendar.ts) and sends the browser the closed days it needs
 * (GET portal_settings → closedDays). Dates are 'yyyy-MM-dd' strings of the Asia/Tokyo calendar.
 */
import { isDate, latestStartsOn } from './subscriptionRules.js';

/** SPEC §9: changes and cancellation until 2 business days before startsOn. */
export const CHANGE_DEADLINE_BUSINESS_DAYS = 2;
/** SPEC §9 'Weekday offsets for the earliest start date', Sunday (0) to Saturday (6), in a week without closed days. */
const EARLIEST_OFFSET_BY_WEEKDAY = [2, 2, 2, 2, 2, 4, 3] as const;

/** The weekday of a valid date (checked, or made by shiftDays): the Date constructor reads it 40 times faster than a strict parse. */
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
const isWeekend = (date: string) => {
  const day = weekday(date);
  return day === 0 || day === 6;
};
/**
 * A valid date `days` days on, by Date arithmetic: the calendar's loops step a day at a time, and subscriptionRules'
 * addDays (a strict moment parse and format) costs 8 µs a step (issue 27: a page of 999 applications).
 */
const shiftDays = (date: string, days: number) => {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
};
/** The change deadlines a calendar remembers: a page of 999 applications asks for each of its start dates (issue 27). */
const REMEMBERED_DEADLINES = 4096;

/** The provider's own closed days: each year from one month-day to another (12-29 to 01-03 crosses New Year), and single dates. */
export interface ClosedDaysRule {
  yearly: Array<{ from: string; to: string }>;
  dates: string[];
}

/** The provider's closed days, from the project root. */
export const CLOSED_DAYS_FILE = 'calendar/closedDays.json';
const MONTH_DAY = '^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
/** JSON Schema of calendar/closedDays.json (check:config and the server's start both check it). */
export const closedDaysFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['yearly', 'dates'],
  properties: {
    $comment: { type: 'string' },
    yearly: {
      type: 'array',
      maxItems: 50,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['from', 'to'],
        properties: { from: { type: 'string', pattern: MONTH_DAY }, to: { type: 'string', pattern: MONTH_DAY } },
      },
    },
    dates: { type: 'array', maxItems: 1000, items: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' } },
  },
} as const;

/** The dates of the rule that are no calendar date (2027-02-30): what the schema's pattern cannot see. */
export function invalidClosedDates(rule: ClosedDaysRule): string[] {
  return rule.dates.filter((date) => !isDate(date));
}

/** Whether a date is one of the rule's closed days. */
export function closedDaysRule(rule: ClosedDaysRule): (date: string) => boolean {
  const dates = new Set(rule.dates);
  return (date) => {
    if (dates.has(date)) return true;
    const monthDay = date.slice(5);
    return rule.yearly.some(({ from, to }) => (from <= to ? monthDay >= from && monthDay <= to : monthDay >= from || monthDay <= to));
  };
}

export class BusinessCalendar {
  /** Change deadlines by start date: counting business days back parses dates a dozen times, and a calendar never changes. */
  private readonly deadlines = new Map<string, string>();

  /** `isClosed`: a holiday or a closed day of the provider (weekends are never business days anyway). */
  constructor(private readonly isClosed: (date: string) => boolean) {}

  /** A calendar of these closed days only (the browser's, from portal_settings). */
  static of(closedDays: Iterable<string>): BusinessCalendar {
    const closed = new Set(closedDays);
    return new BusinessCalendar((date) => closed.has(date));
  }

  isBusinessDay(date: string): boolean {
    return !isWeekend(date) && !this.isClosed(date);
  }

  /** The closed days from `from` to `to`, both included: what the browser needs of the calendar. */
  closedDaysBetween(from: string, to: string): string[] {
    const days: string[] = [];
    for (let date = from; date <= to; date = shiftDays(date, 1)) if (this.isClosed(date)) days.push(date);
    return days;
  }

  /** The day `businessDays` business days before `date`. */
  businessDaysBefore(date: string, businessDays: number): string {
    let result = date;
    for (let left = businessDays; left > 0; ) {
      result = shiftDays(result, -1);
      if (this.isBusinessDay(result)) left -= 1;
    }
    return result;
  }

  /** The last day an application starting on `startsOn` may be changed or cancelled (SPEC §4, §9). */
  changeDeadline(startsOn: string): string {
    let deadline = this.deadlines.get(startsOn);
    if (deadline === undefined) {
      deadline = this.businessDaysBefore(startsOn, CHANGE_DEADLINE_BUSINESS_DAYS);
      if (this.deadlines.size >= REMEMBERED_DEADLINES) this.deadlines.clear();
      this.deadlines.set(startsOn, deadline);
    }
    return deadline;
  }

  /** Changes and cancellation are allowed while today is on or before the change deadline. */
  isUpdatable(startsOn: string, today: string): boolean {
    return today <= this.changeDeadline(startsOn);
  }

  /** The business days after today up to the deadline, the deadline included: 0 when today is the last day (or past it). */
  businessDaysLeft(today: string, deadline: string): number {
    let days = 0;
    for (let date = shiftDays(today, 1); date <= deadline; date = shiftDays(date, 1)) if (this.isBusinessDay(date)) days += 1;
    return days;
  }

  /**
   * The earliest start date of an application made today: SPEC §9's weekday table (Sunday–Thursday +2, Friday +4,
   * Saturday +3 days), each holiday or closed day inside the window moving it one day further (issue 30).
   */
  earliestStartsOn(today: string): string {
    if (!isDate(today)) throw new RangeError(`not a date: ${today}`);
    let earliest = shiftDays(today, EARLIEST_OFFSET_BY_WEEKDAY[weekday(today)]!);
    for (let date = shiftDays(today, 1); date <= earliest; date = shiftDays(date, 1)) if (this.isClosed(date)) earliest = shiftDays(earliest, 1);
    return earliest;
  }

  /**
   * The last day an application may be made for this start date (a gls class's registration deadline): the latest
   * day on or before it whose earliest start date is not after it.
   */
  lastApplicationDay(startsOn: string): string {
    for (let days = 0; ; days += 1) {
      const candidate = shiftDays(startsOn, -days);
      if (this.earliestStartsOn(candidate) <= startsOn) return candidate;
    }
  }

  /** startsOn inside the window of an application made today for these services (their last start dates). */
  isStartsOnInRange(startsOn: string, today: string, lastStartsOns: ReadonlyArray<string | null> = []): boolean {
    return isDate(startsOn) && startsOn >= this.earliestStartsOn(today) && startsOn <= latestStartsOn(today, lastStartsOns);
  }

  /**
   * A class application's deadlines (SPEC §4 'Class enrolment deadlines'), each the last day the change is allowed:
   * reduction, its change deadline (past it the application is confirmed: no learner removed); enlargement, startsOn +
   * `enlargementDays` (past it no learner added).
   */
  classDeadlines(startsOn: string, today: string, enlargementDays: number) {
    const reduction = this.changeDeadline(startsOn);
    const enlargement = shiftDays(startsOn, enlargementDays);
    return { reduction: { date: reduction, passed: today > reduction }, enlargement: { date: enlargement, passed: today > enlargement } };
  }
}
