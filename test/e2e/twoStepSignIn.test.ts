/**
 * Two-step sign-in in chromium (issue 29), as a new user tries it: the member opens Sign-in security from My Account,
 * sets up an authenticator app (the code computed from the secret the page shows, as an app would), keeps the recovery
 * codes shown once, logs out, and signs in again with a code of the app — then once more with a recovery code.
 */
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { mailToWithSubject } from './support/outbox.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, MEMBER, openMenuItem, signInAt, useEnglish, waitForHeader } from './support/signin.js';

/** What the authenticator app shows for the secret, `stepsAhead` 30-second steps from now. */
const appCode = (secret: string, stepsAhead = 0) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp: Date.now() + stepsAhead * 30_000 });

describe('Two-step sign-in with an authenticator app and recovery codes (issue 29)', function () {
  this.timeout(180_000);
  const e2e = useE2E();
  const errors: string[] = [];
  let page: Page;
  let secret: string;
  let recoveryCodes: string[];
  before(async () => {
    page = await newPage(e2e.browser, errors);
    await signInAt(page, e2e.portal.url, '/account', { email: MEMBER, gloplaId: 'G0000001', choose: false });
  });
  after(async () => {
    await page.context().close();
  });
  // a refused code is a 401 page the browser logs as a failed resource: the refusal this test is about
  // a refused code is a 401 page, a password-only session's call a 403 (mfa_required): the refusals this test is about
  afterEach(() => expect(errors.filter((error) => !/status of (401|403)/.test(error)), 'errors logged by the pages').to.deep.equal([]));

  /** Logs out and signs in again with the password, up to the provider's second step. */
  async function signInAgain() {
    await openMenuItem(page, 'Log out');
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
    await enterCredentials(page, MEMBER, DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
  }

  it('sets up an authenticator app from My Account: QR code, secret key, a code of the app, then ten recovery codes shown once', async () => {
    await page.getByRole('link', { name: 'Sign-in security' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign-in security' }).waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code of your authenticator app set-up' }).waitFor();
    await expectAccessible(page);
    secret = (await page.getByText(/^[A-Z2-7]{32}$/).textContent())!;
    await page.getByLabel('Code').fill(appCode(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('Two-step sign-in is on.').waitFor();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    recoveryCodes = await list.getByRole('listitem').allTextContents();
    await expectAccessible(page);
    expect(recoveryCodes).to.have.length(10);
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).to.equal('recovery-codes.txt');
    await page.getByText('On: signing in asks for a code of your authenticator app after the password.').waitFor();
  });

  it('asks for the code after the password: a wrong one is refused, a code of the app signs in', async () => {
    await signInAgain();
    await expectAccessible(page);
    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: 'The code is wrong or has already been used' }).waitFor();
    await expectAccessible(page);
    // the set-up took this step's code: the app's next one
    await page.getByLabel('Authentication code').fill(appCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForHeader(page, '[G0000001]');
  });

  it('signs in with a recovery code instead, and the page then says nine are left', async () => {
    await signInAgain();
    await page.getByLabel('Authentication code').fill(recoveryCodes[0]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await waitForHeader(page, '[G0000001]');
    await page.goto(`${e2e.portal.url}/account/security`);
    await page.getByText('Recovery codes left: 9.', { exact: false }).waitFor();
  });

  it("holds an organisation's rule: the manager, signed in in two steps, requires it; an admin without an app is sent to set one up", async () => {
    const manager = await newPage(e2e.browser, errors);
    const second = await newPage(e2e.browser, errors);
    try {
      // the manager sets an app up, then signs in with it
      await signInAt(manager, e2e.portal.url, '/account/security', { email: MANAGER, gloplaId: 'G0000001', choose: true });
      await manager.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const managerSecret = (await manager.getByText(/^[A-Z2-7]{32}$/).textContent())!;
      await manager.getByLabel('Code').fill(appCode(managerSecret));
      await manager.getByRole('button', { name: 'Verify' }).click();
      await manager.getByText('Two-step sign-in is on.').waitFor();
      await openMenuItem(manager, 'Log out');
      await manager.waitForURL((url) => url.pathname.startsWith('/oidc'));
      await enterCredentials(manager, MANAGER, DEMO_PASSWORD);
      await manager.getByLabel('Authentication code').fill(appCode(managerSecret, 1));
      await manager.getByRole('button', { name: 'Verify' }).click();
      await chooseOrganization(manager, 'G0000001');
      await waitForHeader(manager, '[G0000001]');

      await manager.goto(`${e2e.portal.url}/memberships`);
      await manager.getByRole('button', { name: 'Require two-step sign-in for every admin of this organisation' }).click();
      await manager.getByRole('dialog').getByRole('button', { name: 'Require' }).click();
      await manager.getByText('Two-step sign-in is now required for every admin of this organisation.').waitFor();
      // the list says who has it: the manager and the member
      const table = manager.getByRole('table');
      expect(await table.getByRole('row', { name: /manager@example\.com/ }).getByText('On', { exact: true }).count()).to.equal(1);
      expect(await table.getByRole('row', { name: /manager2@example\.com/ }).getByText('Off', { exact: true }).count()).to.equal(1);

      // manager2 has no app: signed in with the password, the portal holds them at Sign-in security, every page
      // (one that calls no organisation API too: issue 44)
      await useEnglish(second, e2e.portal.url);
      await second.goto(`${e2e.portal.url}/`);
      await enterCredentials(second, 'manager2@example.com', DEMO_PASSWORD);
      await second.waitForURL(`${e2e.portal.url}/account/security`);
      await second.goto(`${e2e.portal.url}/account`);
      await second.waitForURL(`${e2e.portal.url}/account/security`);
      // the password alone opens no set-up: a link mailed to the admin does
      await second.getByText('Your organisation requires two-step sign-in', { exact: false }).waitFor();
      expect(await second.getByRole('button', { name: 'Set up an authenticator app' }).count(), 'not before the link').to.equal(0);
      await second.getByRole('button', { name: 'Send the set-up link' }).click();
      await second.getByText('We sent the set-up link to your e-mail address', { exact: false }).waitFor();
      const mail = await mailToWithSubject(e2e.portal.url, 'manager2@example.com', '2段階目を設定してください');
      // (the mail's link opens the page in the admin's language, Japanese: this test reads English)
      await second.goto(mail.links.find((link) => link.includes('enrolment='))!.replace('locale=ja', 'locale=en'));
      await second.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secondSecret = (await second.getByText(/^[A-Z2-7]{32}$/).textContent())!;
      await second.getByLabel('Code').fill(appCode(secondSecret));
      await second.getByRole('button', { name: 'Verify' }).click();
      await second.getByText('Two-step sign-in is on.').waitFor();
      // the session the set-up answered is a two-step one: the organisation's pages open at once
      await second.goto(`${e2e.portal.url}/memberships`);
      await second.getByRole('table').getByRole('row', { name: /manager2@example\.com/ }).waitFor();
    } finally {
      await manager.context().close();
      await second.context().close();
    }
  });
});
