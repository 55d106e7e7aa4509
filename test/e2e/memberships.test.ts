import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { mailTo } from './support/outbox.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, MEMBER, openMenuItem, useEnglish, waitForHeader } from './support/signin.js';

const INVITEE = 'new-admin@example.com';
const INVITEE_PASSWORD = 'Invited-Passw0rd-2026';

async function signedIn(browser: Browser, url: string, email: string, errors: string[], gloplaId = 'G0000001'): Promise<Page> {
  const page = await newPage(browser, errors);
  await useEnglish(page, url);
  await page.goto(`${url}/memberships`);
  await enterCredentials(page, email, DEMO_PASSWORD);
  if (email === MANAGER) await chooseOrganization(page, gloplaId);
  await page.waitForURL(`${url}/memberships`);
  await waitForHeader(page, '[G0000001]');
  return page;
}

const rowOf = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

describe('Manage Admin Accounts, invitations and Admin Permissions (SPEC 2.13, 2.14)', function () {
  this.timeout(300_000);
  const e2e = useE2E();
  const errors: string[] = [];
  afterEach(() => {
    expect(errors.filter((error) => !/status of 40[01]/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  describe('as a manager', () => {
    let page: Page;
    before(async () => {
      page = await signedIn(e2e.browser, e2e.portal.url, MANAGER, errors);
    });
    after(() => page.context().close());

    it('invites a new address: the mail arrives, the list shows the banner and the not-activated row', async () => {
      await page.getByRole('table', { name: 'Admins of the organization' }).waitFor();
      await page.getByRole('link', { name: 'Invite manager' }).click();
      await page.waitForURL(`${e2e.portal.url}/membership/invite`);
      await page.getByRole('heading', { level: 1, name: 'Invite new admin' }).waitFor();
      expect(await page.getByRole('radio', { name: 'Support Admin' }).isChecked(), 'member by default').to.equal(true);
      await page.getByText(/apply for services, and invite, re-role and delete other admins/).waitFor();
      await page.getByLabel('Email').fill(INVITEE);
      await page.getByRole('button', { name: 'Invite now' }).click();

      await page.waitForURL(`${e2e.portal.url}/memberships`);
      await page.getByText(`An invitation has been sent to ${INVITEE}.`).waitFor();
      const row = rowOf(page, INVITEE);
      await row.getByText('Account not yet activated').waitFor();

      const invitation = await mailTo(e2e.portal.url, INVITEE);
      expect(invitation.links.some((link) => /\/admins\/\d+\/activate\//.test(link))).to.equal(true);
    });

    it('the invitee activates from the mailed link and shows as activated', async () => {
      const link = (await mailTo(e2e.portal.url, INVITEE)).links.find((candidate) => /\/activate\//.test(candidate))!;
      const invitee = await newPage(e2e.browser, errors);
      await invitee.goto(link);
      await invitee.getByRole('button', { name: /activate/i }).waitFor();
      await invitee.getByLabel(/^Last name(?! \()/).fill('鈴木');
      await invitee.getByLabel(/^First name(?! \()/).fill('一郎');
      await invitee.getByLabel(/^Last name \(/).fill('すずき');
      await invitee.getByLabel(/^First name \(/).fill('いちろう');
      await invitee.getByLabel(/^Password/).fill(INVITEE_PASSWORD);
      await invitee.locator('.password__score[data-score="3"], .password__score[data-score="4"]').waitFor();
      await invitee.getByRole('button', { name: /activate/i }).click();
      await invitee.waitForURL(`${e2e.portal.url}/activation/success`);
      await invitee.context().close();

      await page.reload();
      const row = rowOf(page, INVITEE);
      await row.getByText('一郎 鈴木').waitFor();
      expect(await row.getByText('Account not yet activated').count()).to.equal(0);
    });

    it('changes a role after confirmation, and back; Escape cancels', async () => {
      const select = rowOf(page, MEMBER).getByRole('combobox');
      await select.selectOption('manager');
      const dialog = page.getByRole('dialog', { name: 'Assign role' });
      await dialog.getByText(/to Principal Admin\?/).waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await select.inputValue()).to.equal('member');

      await select.selectOption('manager');
      await dialog.getByRole('button', { name: 'Change' }).click();
      await page.getByText('Role updated').waitFor();
      await page.waitForFunction(() => [...document.querySelectorAll('tr')].some((row) => row.textContent?.includes('member@example.com') && (row.querySelector('select') as HTMLSelectElement | null)?.value === 'manager'));

      await rowOf(page, MEMBER).getByRole('combobox').selectOption('member');
      await page.getByRole('dialog', { name: 'Assign role' }).getByRole('button', { name: 'Change' }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('tr')].some((row) => row.textContent?.includes('member@example.com') && (row.querySelector('select') as HTMLSelectElement | null)?.value === 'member'));
    });

    it('deletes a membership after confirmation with the red Delete now', async () => {
      await rowOf(page, INVITEE).getByRole('button', { name: `Delete ${INVITEE}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete membership' });
      const confirm = dialog.getByRole('button', { name: 'Delete now' });
      expect(await confirm.getAttribute('class')).to.contain('button--danger');
      await confirm.click();
      await page.getByText('Deleted', { exact: true }).waitFor();
      await rowOf(page, INVITEE).waitFor({ state: 'detached' });
    });

    it('the own row has no select and no Delete', async () => {
      const own = rowOf(page, MANAGER);
      await own.getByText('Principal Admin').waitFor();
      expect(await own.getByRole('combobox').count()).to.equal(0);
      expect(await own.getByRole('button').count()).to.equal(0);
    });

    it('Admin Permissions from the menu: the product roles with their about-role links', async () => {
      await openMenuItem(page, 'Admin permissions');
      await page.waitForURL(`${e2e.portal.url}/roles`);
      await page.getByRole('heading', { level: 1, name: 'Admin Permissions' }).waitFor();
      const about = page.getByRole('link', { name: 'About this role' }).first();
      await about.waitFor();
      expect(await about.getAttribute('target')).to.equal('_blank');
    });
  });

  describe('as a member', () => {
    let page: Page;
    before(async () => {
      page = await signedIn(e2e.browser, e2e.portal.url, MEMBER, errors);
    });
    after(() => page.context().close());

    it('sees the roles as text: no invite link, no selects, no Delete', async () => {
      const table = page.getByRole('table', { name: 'Admins of the organization' });
      await rowOf(page, MANAGER).getByText('Principal Admin').waitFor();
      expect(await page.getByRole('link', { name: 'Invite manager' }).count()).to.equal(0);
      expect(await table.getByRole('combobox').count()).to.equal(0);
      expect(await table.getByRole('button').count()).to.equal(0);
    });

    it('/membership/invite sends a member to top', async () => {
      await page.goto(`${e2e.portal.url}/membership/invite`);
      await page.waitForURL(`${e2e.portal.url}/`);
      await page.getByRole('heading', { name: 'Available services' }).waitFor();
    });
  });
});
