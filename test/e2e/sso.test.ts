/**
 * Single sign-on's set-up page (issue 45) in the browser, on the real portal: a manager of G0000001 adds an OpenID
 * Connect connection and sees the redirect URI to register at the IdP, adds an e-mail domain and sees the TXT record
 * to publish; Verify answers the missing-record message while the record is not published (the portal asks a small
 * local DNS server through DNS_SERVERS), and 'Verified' once it is. The page passes axe, in English and Japanese.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage } from './support/portal.js';
import { signInAsManagerAt } from './support/signin.js';
import { useSsoE2E } from './support/sso.js';

const DOMAIN = 'sso-e2e.example.com';

describe('Single sign-on page (issue 45)', function () {
  this.timeout(300_000);
  const e2e = useSsoE2E();
  const errors: string[] = [];
  let page: Page;

  before(async () => {
    page = await newPage(e2e.browser, errors);
    await signInAsManagerAt(page, e2e.portal.url, '/memberships', 'G0000001');
  });
  after(() => page?.context().close());
  afterEach(() => {
    // a refused call (Verify's 422) is logged by the browser itself as a failed resource, not by the page's code
    expect(errors.filter((error) => !/status of 422/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it("is linked from Manage Admin Accounts; adding an OpenID Connect connection shows it as a draft with the redirect URI to register", async () => {
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await page.waitForURL(`${e2e.portal.url}/sso`);
    await page.getByRole('heading', { level: 1, name: 'Single sign-on' }).waitFor();
    await page.getByRole('button', { name: 'Add an OpenID Connect connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an OpenID Connect connection' });
    await dialog.getByLabel(/^Name/).fill('Entra ID');
    await dialog.getByLabel(/^Issuer URL/).fill('https://login.example.com/tenant/v2.0');
    await dialog.getByLabel(/^Client ID/).fill('corporate-admin-portal');
    await dialog.getByLabel(/^Client secret/).fill('a-client-secret');
    expect(await dialog.getByLabel(/^Attribute for the e-mail address/).inputValue()).to.equal('email');
    expect(await dialog.getByLabel(/^Create members at their first sign-in/).isChecked()).to.equal(false);
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await page.getByText('The connection Entra ID has been added as a draft.', { exact: false }).waitFor();
    const row = page.getByRole('table', { name: 'Single sign-on connections' }).getByRole('row').filter({ hasText: 'Entra ID' });
    await row.getByText('Draft').waitFor();
    await row.getByText('OpenID Connect').waitFor();
    await row.getByText(`Redirect URI: ${e2e.portal.url}/oidc/federation/callback`).waitFor();
  });

  it('adding a domain shows the TXT record to publish; Verify says the record is missing, then verifies it once published', async () => {
    await page.getByRole('button', { name: 'Add a domain' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a domain' });
    await dialog.getByLabel(/^Domain/).fill(DOMAIN);
    await dialog.getByRole('button', { name: 'Add' }).click();
    const row = page.getByRole('table', { name: 'E-mail domains for single sign-on' }).getByRole('row').filter({ hasText: DOMAIN });
    await row.getByText('Not verified').waitFor();
    const name = ((await row.getByText(/^TXT record name: /).textContent()) ?? '').replace('TXT record name: ', '');
    const value = ((await row.getByText(/^TXT record value: /).textContent()) ?? '').replace('TXT record value: ', '');
    expect(name.endsWith(DOMAIN)).to.equal(true);
    expect(value).to.match(/^corporate-admin-portal-verification=\S+$/);
    await expectAccessible(page);

    await row.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    await page.getByText(`The TXT record was not found. Publish ${value} at ${name} at your DNS provider`, { exact: false }).waitFor();
    expect(e2e.dns.queries).to.include(name.toLowerCase());
    await row.getByText('Not verified').waitFor();

    e2e.dns.publish(name, value);
    await row.getByRole('button', { name: `Verify ${DOMAIN}` }).click();
    await page.getByText(`${DOMAIN} has been verified.`).waitFor();
    await row.getByText('Verified', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Require single sign-on for addresses at ${DOMAIN}` }).waitFor();
  });

  it("a domain's connection: 'Change' offers the default and the organisation's connections; the row names the one saved", async () => {
    const row = page.getByRole('table', { name: 'E-mail domains for single sign-on' }).getByRole('row').filter({ hasText: DOMAIN });
    await row.getByText('Default: the connection that is on').waitFor();
    await row.getByRole('button', { name: `Change the connection of ${DOMAIN}` }).click();
    const dialog = page.getByRole('dialog', { name: 'The connection this domain signs in through' });
    const select = dialog.getByLabel(/^Connection/);
    // the options come with the form's data, a moment after the dialog
    await select.locator('option', { hasText: 'Entra ID' }).waitFor({ state: 'attached' });
    expect(await select.locator('option').allTextContents()).to.include.members(["The organization's only active connection (default)", 'Entra ID']);
    // the dialog (the page around it has its own checks above)
    await expectAccessible(page, { include: ['[role="dialog"]'] });
    await select.selectOption({ label: 'Entra ID' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`The connection of ${DOMAIN} has been saved.`).waitFor();
    await row.getByText('Entra ID').waitFor();
  });

  it('in Japanese too, the page passes axe', async () => {
    await page.goto(`${e2e.portal.url}/sso?locale=ja`);
    await page.getByRole('heading', { level: 1, name: 'シングルサインオン' }).waitFor();
    await page.getByRole('table', { name: 'シングルサインオンの接続' }).getByText('Entra ID').waitFor();
    await expectAccessible(page);
  });
});
