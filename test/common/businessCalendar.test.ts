/**
 * The business-day calendar's rules (issue 30; SPEC §4, §5, §9), one row per case. A calendar without closed days
 * gives the SPEC's weekday table; closed days (holidays, the provider's closure) given as dates move every deadline.
 * The week used: 2026-11-22 is a Sunday, 2026-11-23 a Monday … 2026-11-28 a Saturday. The real Japanese holidays are
 * the server's (test/server/domain/businessCalendar.test.ts).
 */
import { expect } from 'chai';
import { BusinessCalendar, closedDaysRule, invalidClosedDates } from '../../src/common/businessCalendar.js';
import { addDays } from '../../src/common/subscriptionRules.js';

const weekdays = BusinessCalendar.of([]);
/** 2027-01-11 (Monday) closed, as 成人の日 is. */
const comingOfAge = BusinessCalendar.of(['2027-01-11']);

describe('businessCalendar', () => {
  describe('earliestStartsOn in a week without closed days: the SPEC §9 table (Sunday–Thursday +2, Friday +4, Saturday +3)', () => {
    const table: Array<[string, string, string]> = [
      ['Sunday', '2026-11-22', '2026-11-24'],
      ['Monday', '2026-11-23', '2026-11-25'],
      ['Tuesday', '2026-11-24', '2026-11-26'],
      ['Wednesday', '2026-11-25', '2026-11-27'],
      ['Thursday', '2026-11-26', '2026-11-28'],
      ['Friday', '2026-11-27', '2026-12-01'],
      ['Saturday', '2026-11-28', '2026-12-01'],
    ];
    for (const [weekday, today, expected] of table) {
      it(`${weekday} ${today} → ${expected}`, () => expect(weekdays.earliestStartsOn(today)).to.equal(expected));
    }
  });

  it('earliestStartsOn refuses what is no date rather than counting for ever', () => expect(() => weekdays.earliestStartsOn('undefined')).to.throw(RangeError));

  describe('earliestStartsOn: each closed day inside the window moves it one day', () => {
    const table: Array<[string, BusinessCalendar, string, string]> = [
      ['Friday before a Monday holiday: +4 and one', comingOfAge, '2027-01-08', '2027-01-13'],
      ['Saturday before a Monday holiday', comingOfAge, '2027-01-09', '2027-01-13'],
      ['Thursday: the holiday is after the window', comingOfAge, '2027-01-07', '2027-01-09'],
      ['the holiday itself (Monday)', comingOfAge, '2027-01-11', '2027-01-13'],
      ['two closed days in a row, the second reached by the move', BusinessCalendar.of(['2027-01-12', '2027-01-14']), '2027-01-11', '2027-01-15'],
      ['a closed Saturday (a holiday on a Saturday) moves it too', BusinessCalendar.of(['2026-11-28']), '2026-11-26', '2026-11-29'],
    ];
    for (const [name, calendar, today, expected] of table) {
      it(`${name}: ${today} → ${expected}`, () => expect(calendar.earliestStartsOn(today)).to.equal(expected));
    }
  });

  describe('changeDeadline: 2 business days before the start (SPEC §4, §9)', () => {
    const table: Array<[string, BusinessCalendar, string, string]> = [
      ['Wednesday start → Monday', weekdays, '2026-11-25', '2026-11-23'],
      ['Monday start → the Thursday before', weekdays, '2026-11-30', '2026-11-26'],
      ['Sunday start → Thursday', weekdays, '2026-11-29', '2026-11-26'],
      ['Tuesday 2027-01-12 after 成人の日 → Thursday 2027-01-07, not Friday', comingOfAge, '2027-01-12', '2027-01-07'],
    ];
    for (const [name, calendar, startsOn, expected] of table) {
      it(name, () => expect(calendar.changeDeadline(startsOn)).to.equal(expected));
    }
  });

  describe('isUpdatable: until the change deadline, that day included', () => {
    const table: Array<[string, string, boolean]> = [
      ['2026-11-25', '2026-11-23', true],
      ['2026-11-25', '2026-11-24', false],
      ['2026-11-30', '2026-11-26', true],
      ['2026-11-30', '2026-11-27', false],
      ['2026-10-01', '2026-11-23', false],
      ['2027-01-04', '2026-11-23', true],
    ];
    for (const [startsOn, today, expected] of table) {
      it(`starts ${startsOn}, today ${today}: ${expected ? 'updatable' : 'not updatable'}`, () => expect(weekdays.isUpdatable(startsOn, today)).to.equal(expected));
    }
    it('a holiday takes a day away: 2027-01-12 is no longer changeable on Friday 2027-01-08', () => {
      expect(weekdays.isUpdatable('2027-01-12', '2027-01-08')).to.equal(true);
      expect(comingOfAge.isUpdatable('2027-01-12', '2027-01-08')).to.equal(false);
      expect(comingOfAge.isUpdatable('2027-01-12', '2027-01-07')).to.equal(true);
    });
  });

  describe('businessDaysLeft: the business days after today up to the deadline', () => {
    const table: Array<[string, BusinessCalendar, string, string, number]> = [
      ['the deadline is today', weekdays, '2026-11-26', '2026-11-26', 0],
      ['tomorrow', weekdays, '2026-11-25', '2026-11-26', 1],
      ['over a weekend', weekdays, '2026-11-27', '2026-12-01', 2],
      ['over a weekend and a holiday', comingOfAge, '2027-01-08', '2027-01-12', 1],
      ['past', weekdays, '2026-11-27', '2026-11-26', 0],
    ];
    for (const [name, calendar, today, deadline, expected] of table) {
      it(`${name}: ${today} → ${deadline} = ${expected}`, () => expect(calendar.businessDaysLeft(today, deadline)).to.equal(expected));
    }
  });

  describe('lastApplicationDay: the last day whose earliest start date is not after the start (a gls class registration deadline)', () => {
    const table: Array<[string, string, string]> = [
      ['Wednesday', '2026-11-25', '2026-11-23'],
      ['Thursday', '2026-11-26', '2026-11-24'],
      ['Saturday', '2026-11-28', '2026-11-26'],
      ['Monday', '2026-11-30', '2026-11-26'],
      ['Tuesday', '2026-12-01', '2026-11-29'],
    ];
    for (const [weekday, startsOn, expected] of table) {
      it(`starts ${weekday} ${startsOn} → ${expected}`, () => {
        expect(weekdays.lastApplicationDay(startsOn)).to.equal(expected);
        expect(weekdays.isStartsOnInRange(startsOn, expected)).to.equal(true);
        expect(weekdays.earliestStartsOn(addDays(expected, 1)) > startsOn, 'the day after is too late').to.equal(true);
      });
    }
    it('a holiday moves it earlier: a class starting Tuesday 2027-01-12 closes Thursday 2027-01-07, not Sunday the 10th', () => {
      expect(weekdays.lastApplicationDay('2027-01-12')).to.equal('2027-01-10');
      expect(comingOfAge.lastApplicationDay('2027-01-12')).to.equal('2027-01-07');
    });
  });

  describe('isStartsOnInRange', () => {
    const table: Array<[string, string, Array<string | null>, boolean]> = [
      ['2026-11-24', '2026-11-23', [], false],
      ['2026-11-25', '2026-11-23', [], true],
      ['2027-05-23', '2026-11-23', [], true],
      ['2027-05-24', '2026-11-23', [], false],
      ['2026-12-01', '2026-11-23', ['2026-05-01'], false],
      ['2026-02-30', '2026-01-01', [], false],
      ['not a date', '2026-11-23', [], false],
    ];
    for (const [startsOn, today, caps, expected] of table) {
      it(`${startsOn} on ${today} with ${JSON.stringify(caps)}: ${expected ? 'in' : 'out of'} range`, () =>
        expect(weekdays.isStartsOnInRange(startsOn, today, caps)).to.equal(expected));
    }
  });

  describe("closedDaysRule: the provider's closed days", () => {
    const yearEnd = closedDaysRule({ yearly: [{ from: '12-29', to: '01-03' }], dates: ['2027-08-13'] });
    const table: Array<[string, boolean]> = [
      ['2026-12-28', false],
      ['2026-12-29', true],
      ['2026-12-31', true],
      ['2027-01-01', true],
      ['2027-01-03', true],
      ['2027-01-04', false],
      ['2027-08-13', true],
      ['2028-08-13', false],
    ];
    for (const [date, closed] of table) it(`${date}: ${closed ? 'closed' : 'open'}`, () => expect(yearEnd(date)).to.equal(closed));

    it('a range inside one year', () => {
      const obon = closedDaysRule({ yearly: [{ from: '08-13', to: '08-16' }], dates: [] });
      expect(['08-12', '08-13', '08-16', '08-17'].map((day) => obon(`2027-${day}`))).to.deep.equal([false, true, true, false]);
    });

    it('the year-end closure moves the deadline of a start after New Year', () => {
      const calendar = new BusinessCalendar(yearEnd);
      // starts Tuesday 2027-01-05: Monday the 4th is open, 12-29 … 01-03 closed → the deadline is Monday 2026-12-28
      expect(calendar.changeDeadline('2027-01-05')).to.equal('2026-12-28');
      expect(calendar.earliestStartsOn('2026-12-28')).to.equal('2027-01-05');
    });

    it('names the dates that are no calendar date', () =>
      expect(invalidClosedDates({ yearly: [], dates: ['2027-02-30', '2027-02-28'] })).to.deep.equal(['2027-02-30']));
  });

  it('closedDaysBetween lists the closed days from one date to another, both included', () =>
    expect(BusinessCalendar.of(['2026-11-21', '2026-11-23', '2026-11-28', '2026-12-01']).closedDaysBetween('2026-11-22', '2026-11-30')).to.deep.equal(['2026-11-23', '2026-11-28']));
});
