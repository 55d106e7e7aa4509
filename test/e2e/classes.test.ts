/**
 * Learners through projects and classes end to end (issue 17; SPEC 2.1 class routes, 2.8 project layout, §4 class
 * deadlines, §5 class size, §8 enlargementDeadline / reductionDeadline), in chromium against the real server and demo
 * data, as the manager of G0000001 (README, demo section): GLS-B is open for registration; A000000106 (GLS-C) is
 * confirmed before its enlargement deadline; A000000107 (GLS-D) is past both deadlines. Elements are found by role and
 * label in the SPEC's English words.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { mailWithSubject } from './support/outbox.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish, waitForHeader } from './support/signin.js';

const learnerRow = (index: number) => `Ken${index}\tSato\tけん\tさとう\tken${index}.sato@example.com`;
const LEARNERS = ['Hana\tMori\tはな\tもり\thana.mori@example.com', 'Sota\tAbe\tそうた\tあべ\tsota.abe@example.com', 'Rin\tOno\tりん\tおの\trin.ono@example.com'].join('\n');
const REDUCTION_LOCK = 'Registered learners cannot be changed or removed: the reduction deadline has passed.';
const ENLARGEMENT_LOCK = 'No learners can be added: the enlargement deadline has passed.';

/** Pastes tab-separated rows into the learner grid at the given cell (default the first) through the real clipboard. */
async function pasteLearners(page: Page, rows: string, cellIndex = 0): Promise<void> {
  await page.evaluate(async (text) => navigator.clipboard.writeText(text), rows);
  const cells = page.locator('.learner-grid td.Spreadsheet__cell');
  // a click on the active cell would start editing it (its overlay takes the click): activate a neighbour first
  await cells.nth(cellIndex === 0 ? 1 : cellIndex - 1).click({ force: true });
  await cells.nth(cellIndex).click();
  await page.keyboard.press('Control+V');
}

describe('Classes: register learners, edit a confirmed registration, the gls Service Details (issue 17)', function () {
  this.timeout(300_000);
  const e2e = useE2E();
  const errors: string[] = [];
  /** Errors a test provokes on purpose (a 404 that leads to top). */
  let expected: RegExp[] = [];
  afterEach(() => {
    const unexpected = errors.filter((error) => !/status of 401/.test(error) && !expected.some((pattern) => pattern.test(error)));
    errors.length = 0;
    expected = [];
    expect(unexpected, 'errors logged by the page').to.deep.equal([]);
  });

  async function signedIn(): Promise<Page> {
    const { url } = e2e.portal;
    const page = await newPage(e2e.browser, errors);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
    await useEnglish(page, url);
    await page.goto(`${url}/`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '[G0000001]');
    return page;
  }

  it('registers learners for an open class from Service Details (paste, class size, confirm, done, mail); Service Details then lists it', async () => {
    const { url } = e2e.portal;
    const page = await signedIn();
    try {
      // the gls Service Details (project layout): the organisation's project and classes, 'Register learners' on the open one
      await page.goto(`${url}/services/4`);
      const classes = page.getByRole('table', { name: 'Classes of your projects' });
      const glsB = classes.getByRole('row', { name: /GLS-B/ });
      await glsB.waitFor();
      expect(await glsB.textContent()).to.contain('PJ2026-001');
      expect(await classes.getByRole('row', { name: /GLS-C/ }).getByRole('link', { name: 'Register learners' }).count(), 'a started class takes no registration').to.equal(0);
      await glsB.getByRole('link', { name: 'Register learners' }).click();
      await page.waitForURL(/\/project\/PJ2026-001\/subscription\/\d+\/new(\/input)?$/);
      await page.getByRole('heading', { level: 1, name: 'Register learners (class)' }).waitFor();
      await page.getByText(/\(PJ2026-001\)$/).waitFor();
      await page.getByText(/\(GLS-B\)$/).waitFor();
      // no billing contact, billing note nor contact with a class (SPEC 2.11 items 6–8)
      for (const label of [/^Billing contact/, /^Billing note/, /^Contact/]) expect(await page.getByLabel(label).count(), String(label)).to.equal(0);

      // the class size (SPEC §5): the maximum refused with its message before Next
      await page.getByRole('heading', { name: 'Learners (a class takes 10 to 40 people)' }).waitFor();
      await page.getByRole('group', { name: 'Admins' }).getByRole('checkbox').first().check();
      await pasteLearners(page, Array.from({ length: 41 }, (_, index) => learnerRow(index)).join('\n'));
      await page.getByText('Users entered: 41').waitFor();
      await page.getByRole('alert').filter({ hasText: 'The number of learners exceeds the class size (40).' }).waitFor();
      expect(await page.getByRole('button', { name: 'Next' }).isDisabled(), 'Next with 41 learners').to.equal(true);
      await page.getByTitle('Select all cells').click();
      await page.keyboard.press('Delete');
      await page.getByText('Users entered: 0').waitFor();

      // three learners: below the minimum, which the confirm step warns about
      await pasteLearners(page, LEARNERS);
      await page.getByText('Users entered: 3').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(/\/project\/PJ2026-001\/subscription\/\d+\/new\/confirm$/);
      for (const learner of ['hana.mori@example.com', 'sota.abe@example.com', 'rin.ono@example.com']) await page.getByRole('cell', { name: learner }).waitFor();
      await page.getByText('The class has fewer learners than its minimum (10). Please add learners at least one week before the start date.').waitFor();
      await page.getByRole('button', { name: 'subscribe with agreement' }).click();

      await page.waitForURL(/\/project\/PJ2026-001\/subscription\/\d+\/new\/done$/);
      const requestCode = ((await page.getByText(/Request code: A\d{9}/).textContent()) ?? '').match(/A\d{9}/)![0];
      await page.getByText(`A confirmation mail has been sent to ${MANAGER}.`).waitFor();
      const mail = await mailWithSubject(url, `Your application ${requestCode} has been received`);
      expect(mail.to, 'the confirmation mail').to.equal(MANAGER);
      expect(mail.text).to.contain('Learners: 3');

      // Service Details lists the project, the class and the application with its state, linking to the class edit route
      await page.goto(`${url}/services/4`);
      const registered = page.getByRole('table', { name: 'Classes of your projects' }).getByRole('row', { name: /GLS-B/ }).getByRole('link', { name: new RegExp(requestCode) });
      await registered.waitFor();
      expect(await registered.textContent()).to.equal(`${requestCode} (3 people) – changeable`);
      expect(await registered.getAttribute('href')).to.equal(`/project/PJ2026-001/subscription/${requestCode}/edit`);
      const listed = page.getByRole('link', { name: new RegExp(`Request code: ${requestCode}`) });
      expect(await listed.textContent()).to.contain('changeable').and.contain('2026年度 新任管理職研修');
      await registered.click();
      await page.getByRole('heading', { level: 1, name: 'Change learner registration (class)' }).waitFor();
      await page.getByText('Users entered: 3').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('edits a confirmed class application: the locked rows are shown before Next, a removal is refused with its message, an addition goes through', async () => {
    const { url } = e2e.portal;
    const page = await signedIn();
    try {
      // Application Details of the confirmed class application offers 'Change order' through the class edit route
      await page.goto(`${url}/subscription/A000000106`);
      await page.getByText('Request code: A000000106').waitFor();
      await page.getByRole('link', { name: 'Change order' }).click();
      await page.waitForURL(`${url}/project/PJ2026-001/subscription/A000000106/edit`);
      await page.getByRole('heading', { level: 1, name: 'Change learner registration (class)' }).waitFor();
      await page.getByText('This registration is confirmed: the learners already registered can no longer be changed or removed.').waitFor();
      await page.getByText('Users entered: 10').waitFor();

      // before Next: every registered row says it is locked and why; the admins cannot change
      await page.getByText(`※ ${REDUCTION_LOCK}`).waitFor();
      expect(await page.getByRole('img', { name: REDUCTION_LOCK }).count()).to.equal(10);
      expect(await page.getByRole('group', { name: 'Admins' }).getByRole('checkbox').first().isDisabled()).to.equal(true);
      await page.getByText('The admins of a confirmed registration cannot be changed.').waitFor();

      // removing a registered learner: undone, with SPEC §8's reductionDeadline words
      const thirdEmail = (await page.locator('.learner-grid tr').nth(3).locator('td').last().textContent())!.trim();
      await page.getByRole('rowheader', { name: /^3/ }).click();
      await page.keyboard.press('Delete');
      await page.getByRole('alert').filter({ hasText: `${thirdEmail} cannot be deleted.` }).waitFor();
      await page.getByText('Users entered: 10').waitFor();

      // adding one before the enlargement deadline goes through (PATCH …/confirmed_corporate_subscriptions)
      await page.getByRole('button', { name: 'Add row' }).click();
      await pasteLearners(page, 'Taro\tYamada\tたろう\tやまだ\ttaro.new@example.com', 10 * 5);
      await page.getByText('Users entered: 11').waitFor();
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForURL(`${url}/project/PJ2026-001/subscription/A000000106/edit/confirm`);
      await page.getByRole('cell', { name: 'taro.new@example.com' }).waitFor();
      await page.getByRole('cell', { name: thirdEmail }).waitFor();
      await page.getByRole('button', { name: 'change with agreement' }).click();
      await page.waitForURL(`${url}/project/PJ2026-001/subscription/A000000106/edit/done`);
      const mail = await mailWithSubject(url, 'Your application A000000106 has been changed');
      expect(mail.text).to.contain('Learners: 11');

      // past both deadlines (A000000107): Application Details disables 'Change order'; on the edit route nothing is added
      await page.goto(`${url}/subscription/A000000107`);
      await page.getByText('Request code: A000000107').waitFor();
      expect(await page.getByRole('button', { name: 'Change order' }).isDisabled()).to.equal(true);
      await page.goto(`${url}/project/PJ2026-001/subscription/A000000107/edit`);
      await page.getByText('Users entered: 10').waitFor();
      await page.getByText(`※ ${ENLARGEMENT_LOCK}`).waitFor();
      expect(await page.getByRole('button', { name: 'Add row' }).isDisabled()).to.equal(true);
      await pasteLearners(page, [learnerRow(90), learnerRow(91)].join('\n'), 9 * 5);
      await page.getByRole('alert').filter({ hasText: 'No. 11: ken91.sato@example.com cannot be added.' }).waitFor();
      await page.getByText('Users entered: 10').waitFor();
    } finally {
      await page.context().close();
    }
  });

  it('an application that is not of a class of the project in the URL, or an unknown class: the unexpected-error flash and top', async () => {
    const { url } = e2e.portal;
    expected = [/status of 404/];
    const page = await signedIn();
    try {
      for (const path of ['/project/PJ2026-101/subscription/A000000105/edit', '/project/PJ2026-001/subscription/A000000101/edit', '/project/PJ2026-001/subscription/999999/new']) {
        await page.goto(`${url}${path}`);
        await page.waitForURL(`${url}/`);
        await page.getByText('An unexpected error occurred. Please try again.').first().waitFor();
        expect(await page.getByText('An unexpected error occurred. Please try again.').count(), path).to.equal(1);
      }
    } finally {
      await page.context().close();
    }
  });
  it('both class routes render in English and Japanese, axe-clean; arriving keeps projectId and projectCode for the next single sign-on to gls', async () => {
    const { url } = e2e.portal;
    const page = await signedIn();
    try {
      await page.goto(`${url}/services/4`);
      const register = page.getByRole('table', { name: 'Classes of your projects' }).getByRole('row', { name: /GLS-B/ }).getByRole('link', { name: 'Register learners' });
      const newPath = (await register.getAttribute('href'))!;
      expect(newPath).to.match(/^\/project\/PJ2026-001\/subscription\/\d+\/new$/);
      const editPath = '/project/PJ2026-001/subscription/A000000106/edit';
      const titles = { en: ['Register learners (class)', 'Change learner registration (class)'], ja: ['受講者登録（クラス）', '受講者登録の変更（クラス）'] };
      for (const language of ['en', 'ja'] as const) {
        if (language === 'ja') {
          await page.getByRole('combobox', { name: 'Language' }).selectOption('ja');
          await page.getByRole('combobox', { name: '言語' }).waitFor();
        }
        for (const [index, path] of [newPath, editPath].entries()) {
          await page.goto(`${url}${path}`);
          await page.getByRole('heading', { level: 1, name: titles[language][index] }).waitFor();
          await page.getByText(index === 0 ? 'GLS-B' : 'GLS-C').first().waitFor();
          await page.waitForFunction(() => document.querySelector('.loader') === null);
          await expectAccessible(page);
        }
      }
      const remembered = await page.evaluate(() => [localStorage.getItem('projectId'), localStorage.getItem('projectCode')]);
      expect(remembered[0], 'projectId').to.match(/^\d+$/);
      expect(remembered[1], 'projectCode').to.equal('PJ2026-001');
    } finally {
      await page.context().close();
    }
  });
});
