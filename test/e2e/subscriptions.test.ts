/**
 * Applications end to end (SPEC 2.9, 2.10, 2.11), in chromium against the real server and demo data, as the manager
 * of G0000001: the subscriptions section of Service Details and its sort, Application Details, a new application
 * through the wizard (term, start date, admin, learners pasted into the grid from the clipboard, the contacts'
 * defaults) to confirm and done with the confirmation mail, its change through the edit wizard, and its cancellation.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { addDays, tokyoToday } from '../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../src/server/domain/businessCalendar.js';
import { mailWithSubject } from './support/outbox.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish, waitForHeader } from './support/signin.js';

const LEARNERS = ['Ken\tSato\tけん\tさとう\tken.sato@example.com', 'Yumi\tIto\tゆみ\tいとう\tyumi.ito@example.com', 'Jiro\tKato\tじろう\tかとう\tjiro.kato@example.com'].join('\n');

/** Pastes tab-separated rows into the learner grid at its first cell through the real clipboard (Ctrl+V). */
async function pasteLearners(page: Page, rows: string): Promise<void> {
  await page.evaluate(async (text) => navigator.clipboard.writeText(text), rows);
  await page.locator('.learner-grid td.Spreadsheet__cell').first().click();
  await page.keyboard.press('Control+V');
}

describe('Applications: section, details, new and edit wizards, cancel (SPEC 2.9–2.11)', function () {
  this.timeout(300_000);
  const e2e = useE2E();
  const errors: string[] = [];
  afterEach(() => {
    expect(errors.filter((error) => !/status of 401/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it('applies for the unlimited library with pasted learners, sees it, changes it and cancels it; the section lists and sorts the applications', async () => {
    const { url } = e2e.portal;
    const page = await newPage(e2e.browser, errors);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    try {
      await useEnglish(page, url);
      await page.goto(`${url}/`);
      await enterCredentials(page, MANAGER, DEMO_PASSWORD);
      await chooseOrganization(page, 'G0000001');
      await waitForHeader(page, '[G0000001]');

      // the subscriptions section of emba: the demo application, changeable; the sort goes into the URL
      await page.goto(`${url}/services/2`);
      const demoApplication = page.getByRole('link', { name: /A000000101/ });
      await demoApplication.waitFor();
      expect(await demoApplication.textContent()).to.match(/changeable/i);
      await page.getByLabel(/sort/i).selectOption({ label: 'starts on ascending' });
      await page.waitForURL(/order_by=starts_on/);
      await demoApplication.click();
      await page.getByText('Request code: A000000101').waitFor();

      // a new application for the unlimited library (newhodaiplus, one service: no term to choose) through the wizard
      await page.goto(`${url}/services/9`);
      await page.getByRole('link', { name: 'Subscribe' }).click();
      await page.waitForURL(/\/subscription\/group\/9\/new(\/input)?$/);
      await page.getByRole('heading', { level: 1, name: 'New application' }).waitFor();
      const startsOn = page.getByLabel(/^Start date/);
      // the first date offered whose change deadline is still to come (on a weekend the earliest one's has passed:
      // SPEC §9's Saturday +3, Sunday +2), so that the application can be changed below
      let earliest = (await startsOn.getAttribute('min'))!;
      while (!businessCalendar().isUpdatable(earliest, tokyoToday())) earliest = addDays(earliest, 1);
      await startsOn.fill(earliest);
      await page.getByRole('group', { name: 'Admins' }).getByRole('checkbox').first().check();
      await pasteLearners(page, LEARNERS);
      await page.getByText('Users entered: 3').waitFor();
      expect(await page.getByLabel(/^Contact/).inputValue(), 'the last contact by default').not.to.equal('0');
      await page.getByRole('button', { name: 'Next' }).click();

      await page.waitForURL(`${url}/subscription/group/9/new/confirm`);
      for (const learner of ['ken.sato@example.com', 'yumi.ito@example.com', 'jiro.kato@example.com']) await page.getByRole('cell', { name: learner }).waitFor();
      await page.getByRole('main').getByRole('link', { name: 'Terms of use' }).waitFor();
      await page.getByRole('button', { name: 'subscribe with agreement' }).click();

      await page.waitForURL(`${url}/subscription/group/9/new/done`);
      const requestCode = ((await page.getByText(/Request code: A\d{9}/).textContent()) ?? '').match(/A\d{9}/)![0];
      await page.getByText(`A confirmation mail has been sent to ${MANAGER}.`).waitFor();
      const applied = await mailWithSubject(url, `Your application ${requestCode} has been received`);
      expect(applied.to, 'the confirmation mail').to.equal(MANAGER);
      expect(applied.text).to.contain(`Start date: ${earliest}`).and.contain('Learners: 3');

      // Application Details, then a change through the edit wizard: one learner fewer
      await page.getByRole('link', { name: 'View the application details' }).click();
      await page.waitForURL(`${url}/subscription/${requestCode}`);
      await page.getByRole('cell', { name: 'jiro.kato@example.com' }).waitFor();
      await page.getByRole('link', { name: 'Change order' }).click();
      await page.getByRole('heading', { level: 1, name: 'Change application' }).waitFor();
      await page.getByText('Users entered: 3').waitFor();
      await page.getByTitle('Select row 3').click(); // the row header selects the row; Delete empties it
      await page.keyboard.press('Delete');
      await page.getByText('Users entered: 2').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(`${url}/subscription/${requestCode}/edit/confirm`);
      await page.getByRole('button', { name: 'change with agreement' }).click();
      await page.waitForURL(`${url}/subscription/${requestCode}/edit/done`);

      // cancel it from Application Details
      await page.goto(`${url}/subscription/${requestCode}`);
      expect(await page.getByRole('cell', { name: 'jiro.kato@example.com' }).count()).to.equal(0);
      await page.getByRole('button', { name: 'Cancel order' }).click();
      const dialog = page.getByRole('dialog', { name: 'Cancel order' });
      await dialog.getByText(requestCode).waitFor();
      await dialog.getByRole('button', { name: 'Execute cancel order' }).click();
      await page.getByText('Cancellation completed').waitFor();
      await page.waitForURL(`${url}/services/9`);
      expect(await page.getByRole('link', { name: new RegExp(requestCode) }).count(), 'gone from the section').to.equal(0);
      await mailWithSubject(url, `Your application ${requestCode} has been cancelled`);
    } finally {
      await page.context().close();
    }
  });
});
