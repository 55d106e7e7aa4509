/**
 * The subscription rules shared by the wizard and the server (SPEC §4, §5 'Application', §9), one row per case; the
 * business days' rules are the calendar's (businessCalendar.test.ts).
 */
import { expect } from 'chai';
import {
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

