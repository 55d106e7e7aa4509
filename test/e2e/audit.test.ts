import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, MEMBER, openMenuItem, signInAsManagerAt, useEnglish, waitForHeader } from './support/signin.js';

describe("Activity log (issue 21): a role change appears with its before and after, the filters find it (its target's link too), the export has it", function () {
  this.timeout(300_000);
  const e2e = useE2E();
  const errors: string[] = [];
  afterEach(() => {
    // Chrome intermittently reports a blocked beforeunload panel around a saved download (see test/e2e/users.test.ts)
    const beforeUnloadNotice = /Blocked attempt to show a 'beforeunload' confirmation panel/;
    expect(errors.filter((error) => !/status of 40[01]/.test(error) && !beforeUnloadNotice.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  describe('as a manager', () => {
    let page: Page;
    before(async () => {
      page = await newPage(e2e.browser, errors);
      await signInAsManagerAt(page, e2e.portal.url, '/memberships', 'G0000001');
    });
    after(() => page.context().close());

    it('shows a role change, newest first, with its before and after', async () => {
      await page.getByRole('table', { name: 'Admins of the organization' }).waitFor();
      await page.getByRole('row').filter({ hasText: MEMBER }).getByRole('combobox').selectOption('manager');
      await page.getByRole('dialog', { name: 'Assign role' }).getByRole('button', { name: 'Change' }).click();
      await page.waitForFunction(() => [...document.querySelectorAll('tr')].some((row) => row.textContent?.includes('member@example.com') && (row.querySelector('select') as HTMLSelectElement | null)?.value === 'manager'));

      await openMenuItem(page, 'Activity log');
      await page.waitForURL(`${e2e.portal.url}/audit`);
      const table = page.getByRole('table', { name: 'Activity log' });
      const rows = table.getByRole('row');
      await rows.filter({ hasText: 'Role changed' }).waitFor();
      // newest first: the role change comes before the manager's sign-in
      expect(await rows.nth(1).textContent()).to.contain('Role changed');
      await rows.filter({ hasText: 'Signed in' }).first().waitFor();

      const roleChange = rows.filter({ hasText: 'Role changed' });
      expect(await roleChange.textContent()).to.contain('Admin: member@example.com');
      // the time as a person reads it, to the second (the browser's time zone)
      expect((await roleChange.getByRole('cell').first().textContent())!.trim()).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      await roleChange.getByRole('button', { name: 'Show changes: Role changed, member@example.com' }).click();
      const changes = page.getByRole('table', { name: 'Changes' });
      await changes.waitFor();
      const change = changes.getByRole('row').filter({ hasText: 'role' });
      expect((await change.getByRole('cell').allTextContents()).map((text) => text.trim())).to.deep.equal(['role', 'member', 'manager']);
      await expectAccessible(page);

      // the target's link: that admin's whole history, until the filters are cleared
      await roleChange.getByRole('link', { name: 'Admin: member@example.com' }).click();
      await page.waitForURL(/target_id=2/);
      await page.getByText('Only the entries of one target').waitFor();
      await page.waitForFunction(() => {
        const body = [...document.querySelectorAll('table:has(> caption) > tbody > tr')].filter((row) => row.closest('table')?.caption?.textContent?.includes('Activity log'));
        return body.length > 0 && body.every((row) => row.textContent?.includes('Admin: member@example.com'));
      });
      expect(await rows.filter({ hasText: 'Signed in' }).count()).to.equal(0);
      await page.getByRole('link', { name: 'Clear the filters' }).click();
      await page.waitForURL(`${e2e.portal.url}/audit`);
      await rows.filter({ hasText: 'Signed in' }).first().waitFor();
    });

    it('finds it with the action filter, and exports the filtered list as CSV with a byte-order mark', async () => {
      await page.getByRole('combobox', { name: 'Action' }).selectOption('membership.roleChanged');
      await page.waitForURL(/action=membership\.roleChanged/);
      const rows = page.getByRole('table', { name: 'Activity log' }).getByRole('row');
      await page.waitForFunction(() => {
        const table = [...document.querySelectorAll('table')].find((candidate) => candidate.querySelector('caption')?.textContent?.includes('Activity log'));
        const body = [...(table?.querySelectorAll('tbody tr') ?? [])];
        return body.length === 1 && body[0]!.textContent!.includes('Role changed');
      });
      expect(await rows.filter({ hasText: 'Signed in' }).count()).to.equal(0);
      // the admin filter lists the organisation's admins; member@ did nothing, so nothing is found for them
      const admin = page.getByRole('combobox', { name: 'Admin', exact: true });
      await admin.selectOption({ label: 'member@example.com' });
      await page.getByText('There are no entries.').waitFor();
      await admin.selectOption({ label: 'manager@example.com' });
      await rows.filter({ hasText: 'Role changed' }).waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV export' }).click()]);
      expect(download.suggestedFilename()).to.match(/^activity_log_G0000001_\d{8}\.csv$/);
      const bytes = await readFile((await download.path())!);
      expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
      const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).to.equal('occurredAt,actorEmail,action,targetType,targetId,targetLabel,changes');
      expect(lines).to.have.length(2);
      expect(lines[1]).to.contain('manager@example.com,membership.roleChanged,admin,2,member@example.com');
      await expectAccessible(page);
    });
  });

  // manager@ is a member of G0000002 (member@ became a manager above)
  describe('as a member', () => {
    it('sees no Activity log in the menu, and /audit sends them to the top page', async () => {
      const page = await newPage(e2e.browser, errors);
      try {
        await useEnglish(page, e2e.portal.url);
        await page.goto(`${e2e.portal.url}/memberships`);
        await enterCredentials(page, MANAGER, DEMO_PASSWORD);
        await chooseOrganization(page, 'G0000002');
        await page.waitForURL(`${e2e.portal.url}/memberships`);
        await waitForHeader(page, '[G0000002]');
        await page.getByRole('button', { name: 'Menu' }).click();
        await page.getByRole('link', { name: 'Users' }).or(page.getByRole('link', { name: 'Account' })).first().waitFor();
        expect(await page.getByRole('link', { name: 'Activity log' }).count()).to.equal(0);
        await page.goto(`${e2e.portal.url}/audit`);
        await page.waitForURL(`${e2e.portal.url}/`);
      } finally {
        await page.context().close();
      }
    });
  });
});
