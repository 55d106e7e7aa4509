import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newPage, useSharedE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, MEMBER, openMenuItem, useEnglish, waitForHeader } from './support/signin.js';

describe('Sign-in through the embedded identity provider (SPEC 2.3, §4 Sign-in)', function () {
  this.timeout(180_000);
  const e2e = useSharedE2E();
  let page: Page;
  let errors: string[] = [];

  beforeEach(async () => {
    errors = [];
    page = await newPage(e2e.browser, errors);
    await useEnglish(page, e2e.portal.url);
  });
  afterEach(async () => {
    await page.context().close();
    // the provider's pages may log their own 4xx for a wrong password; the portal's must not
    expect(errors.filter((error) => !/status of 401/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it('the manager signs in, chooses Demo Corporation, and sees 株式会社デモ [G0000001] and their name in the header', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await page.waitForURL(`${e2e.portal.url}/account`);
    await waitForHeader(page, '株式会社デモ [G0000001]');
    expect(await page.locator('.header__name').textContent()).to.equal('太郎 山田');
    await page.getByRole('heading', { level: 1, name: 'My account' }).waitFor();
  });

  it('"Switch organization" goes back to the provider\'s organisation choice and switches to the other organisation', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '株式会社デモ [G0000001]');
    await openMenuItem(page, 'Switch organization');
    await chooseOrganization(page, 'G0000002');
    await waitForHeader(page, 'サンプル商事株式会社 [G0000002]');
  });

  it('the member signs in without an organisation choice', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MEMBER, DEMO_PASSWORD);
    await page.waitForURL(`${e2e.portal.url}/account`);
    await waitForHeader(page, '株式会社デモ [G0000001]');
    expect(await page.locator('.header__name').textContent()).to.equal('花子 佐藤');
  });

  it('a wrong password shows "Invalid user name or password"', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MANAGER, 'WrongPassw0rd!');
    await page.getByText('Invalid user name or password').waitFor();
    expect(page.url().startsWith(`${e2e.portal.url}/oidc`)).to.equal(true);
  });

  it('/account without a session leads through sign-in back to /account; a reload keeps the session', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
    await enterCredentials(page, MEMBER, DEMO_PASSWORD);
    await page.waitForURL(`${e2e.portal.url}/account`);
    await page.getByText('member@example.com').waitFor();
    await page.reload();
    await page.getByText('member@example.com').waitFor();
    expect(page.url()).to.equal(`${e2e.portal.url}/account`);
  });

  it('the menu: roles appear with the feature flag; logout ends both sessions', async () => {
    await page.goto(`${e2e.portal.url}/account`);
    await enterCredentials(page, MEMBER, DEMO_PASSWORD);
    await waitForHeader(page, '株式会社デモ [G0000001]');
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await page.getByRole('link', { name: 'Admin permissions' }).waitFor();
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');

    await openMenuItem(page, 'Log out');
    // end-session brings the browser to the portal root, which is for signed-in admins: on to the provider's sign-in
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
    await page.getByLabel('Email').waitFor();
    // the provider session ended too: a guarded page asks for the password again instead of signing in silently
    await page.goto(`${e2e.portal.url}/account`);
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
    await page.getByLabel('Email').waitFor();
    expect(await page.evaluate(() => window.localStorage.getItem('portal.login'))).to.equal(null);
  });

  it('the callback without a matching state shows the error page with a Home button', async () => {
    await page.goto(`${e2e.portal.url}/auth/openid/callback?code=forged&state=forged`);
    await page.getByText('Authentication failed. Please start again from the beginning.').waitFor();
    expect(await page.getByRole('link', { name: 'Home' }).last().getAttribute('href')).to.equal('/');
  });

  it('/signin?error_message_key=no_organization_affiliation explains and offers to sign in again', async () => {
    await page.goto(`${e2e.portal.url}/signin?error_message_key=no_organization_affiliation`);
    await page.getByText(/does not belong to an organization/).waitFor();
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
  });
});
