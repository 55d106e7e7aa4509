/**
 * The server's business-day calendar (issue 30): Japanese public holidays from @holiday-jp/holiday_jp and the
 * provider's closed days of calendar/closedDays.json (12-29 to 01-03), as every deadline counts them.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { businessCalendar, loadClosedDaysRule } from '../../../src/server/domain/businessCalendar.js';

describe('businessCalendar (server)', () => {
  const calendar = businessCalendar();

  const deadlines: Array<[string, string, string]> = [
    ['an ordinary week: Wednesday → Monday', '2027-06-16', '2027-06-14'],
    ['after 成人の日 (Monday 2027-01-11): Tuesday 2027-01-12 → Thursday 2027-01-07', '2027-01-12', '2027-01-07'],
    ['Golden Week 2027 (04-29, 05-03 … 05-05): Thursday 05-06 → Wednesday 04-28', '2027-05-06', '2027-04-28'],
    ['a substitute holiday (Wednesday 2026-05-06, for Sunday 05-03): Friday 05-08 → Friday 05-01', '2026-05-08', '2026-05-01'],
    ['the year-end closure: Tuesday 2027-01-05 → Monday 2026-12-28', '2027-01-05', '2026-12-28'],
  ];
  for (const [name, startsOn, expected] of deadlines) it(`change deadline, ${name}`, () => expect(calendar.changeDeadline(startsOn)).to.equal(expected));

  it('knows the holidays and the closure, and works on ordinary weekdays', () => {
    expect(['2027-01-11', '2027-05-03', '2026-05-06', '2026-12-29', '2027-01-04', '2027-06-16'].map((date) => calendar.isBusinessDay(date))).to.deep.equal([
      false,
      false,
      false,
      false,
      true,
      true,
    ]);
  });

  it('moves the earliest start date past Golden Week', () => {
    // Wednesday 2027-04-28: +2 is Friday 04-30, and Thursday 04-29 (昭和の日) moves it to Saturday 05-01
    expect(calendar.earliestStartsOn('2027-04-28')).to.equal('2027-05-01');
  });

  describe('calendar/closedDays.json', () => {
    let root: string;
    beforeEach(() => {
      root = mkdtempSync(path.join(os.tmpdir(), 'closed-days-'));
      mkdirSync(path.join(root, 'calendar'));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));
    const write = (content: unknown) => writeFileSync(path.join(root, 'calendar', 'closedDays.json'), JSON.stringify(content));

    it('is read as product staff wrote it', () => {
      write({ yearly: [{ from: '08-13', to: '08-16' }], dates: ['2027-03-31'] });
      expect(loadClosedDaysRule(root)).to.deep.equal({ yearly: [{ from: '08-13', to: '08-16' }], dates: ['2027-03-31'] });
    });

    it('refuses a month-day or a date that is none, so the portal does not start with a wrong calendar', () => {
      write({ yearly: [{ from: '13-01', to: '01-03' }], dates: [] });
      expect(() => loadClosedDaysRule(root)).to.throw(/pattern/);
      write({ yearly: [], dates: ['2027-02-30'] });
      expect(() => loadClosedDaysRule(root)).to.throw(/2027-02-30/);
    });
  });
});
