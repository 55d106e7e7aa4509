/**
 * The overview's open classes (domain/projects.ts, issue 44 finding 11): the database is asked for the classes starting
 * on or after firstOpenStartsOn, so that date must split the classes exactly where a class's own registration deadline
 * (classPeriod's `open`, what the pages show) does, over holidays and the year-end closure too.
 */
import { expect } from 'chai';
import { addDays } from '../../../src/common/subscriptionRules.js';
import { classPeriod, firstOpenStartsOn } from '../../../src/server/domain/projects.js';

describe('firstOpenStartsOn', () => {
  const open = (startsOn: string, today: string) => classPeriod({ projectId: 1, projectCode: 'P', projectName: 'P', id: 1, code: 'C', name: 'C', startsOn, endsOn: startsOn }, today).open;

  it('is where the classes open for registration start, every day of two years (Golden Week and the year-end closure included)', () => {
    for (let today = '2026-01-01'; today < '2028-01-01'; today = addDays(today, 1)) {
      const first = firstOpenStartsOn(today);
      expect(open(first, today), `${today}: ${first} is open`).to.equal(true);
      expect(open(addDays(first, -1), today), `${today}: the day before ${first} is closed`).to.equal(false);
      for (let days = 0; days <= 21; days += 1) {
        const startsOn = addDays(today, days);
        expect(open(startsOn, today), `${today}: a class starting ${startsOn}`).to.equal(startsOn >= first);
      }
    }
  });
});
