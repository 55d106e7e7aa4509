/**
 * The subscription rules shared by the wizard and the server (SPEC §4, §5 'Application', §9), one row per case.
 * The week used: 2026-11-22 is a Sunday, 2026-11-23 a Monday … 2026-11-28 a Saturday.
 */
import { expect } from 'chai';
import {
  addDays,
  businessDaysBefore,
  earliestStartsOn,
  isStartsOnInRange,
  isUpdatable,
  lastApplicationDay,
  latestStartsOn,
  startsOnAsSent,
  tokyoToday,
  userLimit,
  type UserLimitGroup,
} from '../../src/common/subscriptionRules.js';

describe('subscriptionRules', () => {
  describe('startsOnAsSent: a start date entered as MM-dd-yyyy is sent as yyyy-MM-dd (SPEC §5)', () => {
    const table: Array<[string, string]> = [
      ['12-01-2026', '2026-12-01'],
      ['12/01/2026', '2026-12-01'],
      [' 01-15-2027 ', '2027-01-15'],
      ['2026-12-01', '2026-12-01'],
      ['1-2-2026', '1-2-2026'],
      ['2026/12/01', '2026/12/01'],
      ['tomorrow', 'tomorrow'],
    ];
    for (const [entered, sent] of table) it(`'${entered}' → '${sent}'`, () => expect(startsOnAsSent(entered)).to.equal(sent));
  });

  describe('earliestStartsOn: Sunday to Thursday +2, Friday +4, Saturday +3 days (SPEC §9)', () => {
    const table: Array<[string, string, string]> = [
      ['Sunday', '2026-11-22', '2026-11-24'],
      ['Monday', '2026-11-23', '2026-11-25'],
      ['Tuesday', '2026-11-24', '2026-11-26'],
      ['Wednesday', '2026-11-25', '2026-11-27'],
      ['Thursday', '2026-11-26', '2026-11-28'],
      ['Friday', '2026-11-27', '2026-12-01'],
      ['Saturday', '2026-11-28', '2026-12-01'],
      ['Friday at the end of a year', '2027-12-31', '2028-01-04'],
    ];
    for (const [weekday, today, expected] of table) {
      it(`${weekday} ${today} → ${expected}`, () => expect(earliestStartsOn(today)).to.equal(expected));
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
        expect(lastApplicationDay(startsOn)).to.equal(expected);
        expect(isStartsOnInRange(startsOn, expected)).to.equal(true);
        expect(earliestStartsOn(addDays(expected, 1)) > startsOn, 'the day after is too late').to.equal(true);
      });
    }
  });

  describe('latestStartsOn: 6 months ahead, capped by the services’ last start dates', () => {
    const table: Array<[string, string, Array<string | null>, string]> = [
      ['no cap', '2026-11-23', [], '2027-05-23'],
      ['a service without a last start date', '2026-11-23', [null], '2027-05-23'],
      ['the end of a month to a shorter month', '2026-08-31', [], '2027-02-28'],
      ['a last start date before 6 months caps it (emba)', '2025-12-01', ['2026-05-01'], '2026-05-01'],
      ['the earliest of several caps', '2025-12-01', ['2026-05-01', '2026-02-01', null], '2026-02-01'],
      ['a cap after 6 months does not matter', '2026-11-23', ['2030-01-01'], '2027-05-23'],
    ];
    for (const [name, today, caps, expected] of table) {
      it(`${name}: ${today} ${JSON.stringify(caps)} → ${expected}`, () => expect(latestStartsOn(today, caps)).to.equal(expected));
    }
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
        expect(isStartsOnInRange(startsOn, today, caps)).to.equal(expected));
    }
  });

  describe('businessDaysBefore skips Saturdays and Sundays', () => {
    const table: Array<[string, number, string]> = [
      ['2026-11-25', 2, '2026-11-23'], // Wednesday → Monday
      ['2026-11-30', 2, '2026-11-26'], // Monday → Thursday
      ['2026-11-29', 2, '2026-11-26'], // Sunday → Thursday
      ['2026-11-24', 1, '2026-11-23'],
      ['2026-11-24', 0, '2026-11-24'],
    ];
    for (const [date, days, expected] of table) {
      it(`${date} − ${days} business days = ${expected}`, () => expect(businessDaysBefore(date, days)).to.equal(expected));
    }
  });

  describe('isUpdatable: until 2 business days before startsOn (SPEC §4, §9)', () => {
    const table: Array<[string, string, number | undefined, boolean]> = [
      ['2026-11-25', '2026-11-23', undefined, true], // starts Wednesday, today Monday: the last day
      ['2026-11-25', '2026-11-24', undefined, false], // today Tuesday: past
      ['2026-11-30', '2026-11-26', undefined, true], // starts Monday, today Thursday
      ['2026-11-30', '2026-11-27', undefined, false], // today Friday: past
      ['2026-11-30', '2026-11-27', 1, true], // one business day: Friday still
      ['2026-10-01', '2026-11-23', undefined, false], // started already
      ['2027-01-04', '2026-11-23', undefined, true],
    ];
    for (const [startsOn, today, days, expected] of table) {
      it(`starts ${startsOn}, today ${today}${days === undefined ? '' : `, ${days} business days`}: ${expected ? 'updatable' : 'not updatable'}`, () =>
        expect(isUpdatable(startsOn, today, days)).to.equal(expected));
    }
  });

  describe('userLimit (SPEC §5 User limit)', () => {
    const hodai: UserLimitGroup = { selection: 'single', maximumUsers: 1000, classSize: null };
    const emba: UserLimitGroup = { selection: 'multi', maximumUsers: 300, classSize: null };
    const gls: UserLimitGroup = { selection: 'single', maximumUsers: null, classSize: { minimum: 10, maximum: 40 } };
    const school: UserLimitGroup = { selection: 'single', maximumUsers: null, classSize: null };
    const table: Array<[string, UserLimitGroup, number, ReturnType<typeof userLimit>]> = [
      ['hodai: the maximum', hodai, 1, { code: 'maximumNumberUsers.hodai', minimum: 0, maximum: 1000 }],
      ['emba, 1 subject: the maximum', emba, 1, { code: 'maximumNumberUsers.emba', minimum: 0, maximum: 300 }],
      ['emba, 2 subjects: half', emba, 2, { code: 'maximumNumberUsers.emba', minimum: 0, maximum: 150 }],
      ['emba, 7 subjects: rounded down', emba, 7, { code: 'maximumNumberUsers.emba', minimum: 0, maximum: 42 }],
      ['emba, none selected yet: the maximum', emba, 0, { code: 'maximumNumberUsers.emba', minimum: 0, maximum: 300 }],
      ['gls: the class size', gls, 1, { code: 'classSize', minimum: 10, maximum: 40 }],
      ['a group without a limit', school, 1, null],
    ];
    for (const [name, group, count, expected] of table) {
      it(name, () => expect(userLimit(group, count)).to.deep.equal(expected));
    }
  });

  describe('tokyoToday', () => {
    it('is the Tokyo calendar day: 15:00 UTC is already the next day there', () => {
      expect(tokyoToday(new Date('2026-11-22T15:00:00Z'))).to.equal('2026-11-23');
      expect(tokyoToday(new Date('2026-11-22T14:59:59Z'))).to.equal('2026-11-22');
    });
  });
});

