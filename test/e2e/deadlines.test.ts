/**
 * Deadlines end to end (issue 30), in chromium against the real server and demo data, as the manager of G0000001: an
 * application starting on the nearest start date with a deadline to come (through the wizard) shows on Home's Upcoming applications with its
 * change deadline and the 'Deadline soon' mark, the reminder job (every 2 s here) mails the manager about it, and
 * Application Details saves its dates as an .ics file.
 */
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { addDays, tokyoToday } from '../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../src/server/domain/businessCalendar.js';
import { mailToWithSubject } from './support/outbox.js';
import { newPage, useE2E } from './support/portal.js';
import { MANAGER, signInAt } from './support/signin.js';

/**
 * Applies for the unlimited library (group 9) starting on the first date the wizard offers whose change deadline is
 * still to come (on a weekend the earliest date's has passed: SPEC §9's Saturday +3, Sunday +2); its request code and
 * start date.
 */
async function applyForTheNearestDate(page: Page, url: string): Promise<{ requestCode: string; startsOn: string }> {
  await page.goto(`${url}/subscription/group/9/new`);
  await page.getByRole('heading', { level: 1, name: 'New application' }).waitFor();
  const startsOnField = page.getByLabel(/^Start date/);
  let startsOn = (await startsOnField.getAttribute('min'))!;
  while (!businessCalendar().isUpdatable(startsOn, tokyoToday())) startsOn = addDays(startsOn, 1);
  await startsOnField.fill(startsOn);
  await page.getByRole('group', { name: 'Admins' }).getByRole('checkbox').first().check();
  await page.evaluate(async (text) => navigator.clipboard.writeText(text), 'Mari\tOno\tまり\tおの\tmari.ono@example.com');
  await page.locator('.learner-grid td.Spreadsheet__cell').first().click();
  await page.keyboard.press('Control+V');
  await page.getByText('Users entered: 1').waitFor();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'subscribe with agreement' }).click();
  await page.waitForURL(`${url}/subscription/group/9/new/done`);
  const requestCode = ((await page.getByText(/Request code: A\d{9}/).textContent()) ?? '').match(/A\d{9}/)![0];
  return { requestCode, startsOn };
}

describe('Deadlines: Home, reminders and calendar entries (issue 30)', function () {
  this.timeout(300_000);
  const e2e = useE2E({ DEADLINE_REMINDER_INTERVAL: '2s' });
  const errors: string[] = [];
  afterEach(() => expect(errors, 'errors logged by the page').to.deep.equal([]));

  it("lists a new application on Home with its deadline, reminds the manager by mail, and saves its dates as an .ics", async () => {
    const { url } = e2e.portal;
    const page = await newPage(e2e.browser, errors);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    try {
      await signInAt(page, url, '/', { email: MANAGER, gloplaId: 'G0000001', choose: true });
      const { requestCode, startsOn } = await applyForTheNearestDate(page, url);
      const deadline = businessCalendar().changeDeadline(startsOn);

      // Home: the application in Upcoming applications, its deadline marked as near
      await page.goto(`${url}/`);
      const upcoming = page.getByRole('table', { name: 'Applications starting in the next 90 days, soonest first' });
      const row = upcoming.getByRole('row', { name: new RegExp(requestCode) });
      await row.waitFor();
      const changes = (await row.getByRole('cell').last().textContent()) ?? '';
      expect(changes).to.contain('Deadline soon').and.contain(`changes until`).and.contain(deadline);
      expect(await row.getByRole('cell').nth(2).textContent()).to.contain(startsOn);
      await page.getByRole('img', { name: 'Learners by month' }).waitFor();

      // the reminder, in the manager's language (Japanese), through the outbox (the organisation's other manager gets one too)
      const reminder = await mailToWithSubject(url, MANAGER, `【法人管理者ポータル】変更期限のお知らせ：申込番号 ${requestCode} の変更は${deadline}までです`);
      expect(reminder.links).to.include(`${url}/subscription/${requestCode}?locale=ja`);

      // Application Details: the deadline as a date, and Add to calendar
      await row.getByRole('link', { name: requestCode }).click();
      await page.waitForURL(`${url}/subscription/${requestCode}`);
      await page.getByText(/^Changes and cancellation are possible until .+\.$/).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Add to calendar' }).click()]);
      expect(download.suggestedFilename()).to.equal(`application-${requestCode}.ics`);
      const ics = (await readFile((await download.path())!, 'utf8')).replace(/\r\n[ \t]/g, '');
      expect(ics).to.match(/^BEGIN:VCALENDAR\r\n/);
      expect(ics).to.contain(`DTSTART;VALUE=DATE:${startsOn.replaceAll('-', '')}`).and.contain(`DTSTART;VALUE=DATE:${deadline.replaceAll('-', '')}`);
      expect(ics).to.contain(`SUMMARY:Last day to change ${requestCode}`);
    } finally {
      await page.context().close();
    }
  });
});
