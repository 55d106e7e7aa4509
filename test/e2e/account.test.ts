import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, openMenuItem, useEnglish, waitForHeader } from './support/signin.js';

const NEW_PASSWORD = 'Fresh-Passw0rd-2024';

describe('My Account: name and password (SPEC 2.6)', function () {
  this.timeout(240_000);
  const e2e = useE2E();
  let page: Page;
  const errors: string[] = [];

  before(async () => {
    page = await newPage(e2e.browser, errors);
    await useEnglish(page, e2e.portal.url);
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await page.waitForURL(`${e2e.portal.url}/account`);
    await waitForHeader(page, '株式会社デモ [G0000001]');
  });
  afterEach(() => {
    expect(errors.filter((error) => !/status of 40[01]/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it('shows the name, the masked password and the e-mail address', async () => {
    const account = page.locator('dl.details');
    await account.waitFor();
    const text = (await account.textContent()) ?? '';
    expect(text).to.contain('太郎 山田 (たろう やまだ)').and.contain('********').and.contain('manager@example.com');
  });

  it('changes the name: submit waits for a change; flash, My Account and header show the new name', async () => {
    await page.getByRole('link', { name: 'Change name' }).click();
    await page.waitForURL(`${e2e.portal.url}/account/name/edit`);
    const first = page.getByLabel(/^First name(?! \(phonetic\))/);
    await first.waitFor();
    expect(await first.inputValue()).to.equal('太郎');
    const save = page.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).to.equal(true);
    await first.fill('次郎');
    await page.getByLabel('First name (phonetic)').fill('じろう');
    await save.click();
    await page.getByText('Your name has been updated.').waitFor();
    await page.waitForURL(`${e2e.portal.url}/account`);
    expect(await page.locator('dl.details').textContent()).to.contain('次郎 山田 (じろう やまだ)');
    expect(await page.locator('.header__name').textContent()).to.equal('次郎 山田');
  });

  it('a wrong current password is shown on its field', async () => {
    await page.goto(`${e2e.portal.url}/account/password/edit`);
    await page.getByLabel('Current password').fill('NotMyPassw0rd!');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    const submit = page.getByRole('button', { name: 'Change password' });
    await page.waitForFunction(() => !(document.querySelector('button[type=submit]') as HTMLButtonElement).disabled);
    await submit.click();
    await page.locator('#root_current__field').getByText('The current password is incorrect.').waitFor();
  });

  it('a weak new password keeps submit disabled; the strength meter says why', async () => {
    await page.getByLabel('New password').fill('password');
    await page.getByText(/Password strength: (Very weak|Weak)/).waitFor();
    expect(await page.getByRole('button', { name: 'Change password' }).isDisabled()).to.equal(true);
  });

  it('changes the password, signs out, and signs in with the new one', async () => {
    await page.getByLabel('Current password').fill(DEMO_PASSWORD);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByText(/Password strength: (Fair|Strong|Very strong)/).waitFor();
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Your password has been updated.').waitFor();
    await page.waitForURL(`${e2e.portal.url}/account`);
    // the new session works
    await page.reload();
    await page.locator('dl.details').waitFor();

    await openMenuItem(page, 'Log out');
    // the portal root after end-session sends a visitor on to the provider's sign-in
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await page.getByText('Invalid user name or password').waitFor();
    await enterCredentials(page, MANAGER, NEW_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    // signed out at the root, so back to the root
    await page.waitForURL(`${e2e.portal.url}/`);
    await waitForHeader(page, '株式会社デモ [G0000001]');
  });
});
