/**
 * 'Test connection' (issue 45) in the browser, on the real portal with the demo data: a manager of G0000001 presses
 * 'Test connection Demo IdP' on the /sso page; a new window goes to the demo identity provider the portal serves at /dev/idp, the
 * manager signs in there as the demo SSO admin, and the window shows what the IdP sent and that this address could
 * sign in through the connection — while the manager's own page stays where it was, signed in as before.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage, useSharedE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish, waitForHeader } from './support/signin.js';

describe("Single sign-on: 'Test connection' through the demo IdP (issue 45)", function () {
  this.timeout(300_000);
  const e2e = useSharedE2E();
  const errors: string[] = [];
  let page: Page;

  before(async () => {
    page = await newPage(e2e.browser, errors);
  });
  after(() => page?.context().close());

  it("opens the test in a new window: a sign-in at the IdP there, then what it sent and whether the address could sign in", async () => {
    await useEnglish(page, e2e.portal.url);
    await page.goto(`${e2e.portal.url}/sso`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await page.waitForURL(`${e2e.portal.url}/sso`);
    await waitForHeader(page, '[G0000001]');
    const row = page.getByRole('table', { name: 'Single sign-on connections' }).getByRole('row').filter({ hasText: 'Demo IdP' });

    const [popup] = await Promise.all([page.context().waitForEvent('page'), row.getByRole('button', { name: 'Test connection Demo IdP' }).click()]);
    popup.on('pageerror', (error) => errors.push(`popup pageerror: ${error.message}`));
    await popup.waitForURL(new RegExp(`^${e2e.portal.url}/dev/idp/interaction/`));
    await page.getByText('The test of Demo IdP opened in a new window', { exact: false }).waitFor();
    await popup.getByLabel('E-mail').fill('sso-admin@sso.example.com');
    await popup.getByLabel('Password').fill(DEMO_PASSWORD);
    await popup.getByRole('button', { name: 'Sign in to the demo IdP' }).click();

    await popup.getByRole('heading', { level: 1, name: "Test of the connection 'Demo IdP'" }).waitFor();
    expect(new URL(popup.url()).pathname).to.equal('/oidc/connection_test/oidc');
    await popup.getByText('passed every check of a sign-in').waitFor();
    await popup.getByRole('table', { name: /claims/ }).first().getByText('sso-admin@sso.example.com').first().waitFor();
    await popup.getByText('This address can sign in through this connection.').waitFor();
    await popup.getByText('This test signed nobody in.', { exact: false }).waitFor();
    await expectAccessible(popup);
    await popup.close();

    // the manager's page is as it was: still the manager's session for G0000001
    await waitForHeader(page, '[G0000001]');
    expect(errors, 'errors logged by the pages').to.deep.equal([]);
  });
});
