/**
 * Passkeys in chromium (issue 29), with the DevTools protocol's virtual authenticator (ctap2, internal, resident key,
 * user verification) standing in for the device: the member adds a passkey on Sign-in security (named, listed, with
 * recovery codes as the first factor), then signs in with it instead of a password, and with the password then the
 * passkey as the second step. The portal is reached as `localhost`: WebAuthn refuses an IP address as relying party.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage, useE2E } from './support/portal.js';
import { DEMO_PASSWORD, enterCredentials, MEMBER, openMenuItem, signInAt, waitForHeader } from './support/signin.js';

describe('Passkeys: added on Sign-in security, used to sign in (issue 29)', function () {
  this.timeout(180_000);
  const e2e = useE2E({}, { hostName: 'localhost' });
  const errors: string[] = [];
  let page: Page;
  before(async () => {
    page = await newPage(e2e.browser, errors);
    // the device: a platform authenticator that keeps passkeys and verifies its user
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInAt(page, e2e.portal.url, '/account/security', { email: MEMBER, gloplaId: 'G0000001', choose: false });
  });
  after(async () => {
    await page.context().close();
  });
  afterEach(() => expect(errors, 'errors logged by the pages').to.deep.equal([]));

  async function logOut() {
    await openMenuItem(page, 'Log out');
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
  }

  it("adds a passkey: named, listed with when it was added and 'Never' used, and ten recovery codes as the first factor", async () => {
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a passkey' });
    await dialog.getByLabel('Name').fill('Work laptop');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('The passkey has been added.').waitFor();
    const table = page.getByRole('table', { name: 'Your passkeys' });
    const row = table.getByRole('row', { name: /Work laptop/ });
    await row.waitFor();
    await row.getByText('Never').waitFor();
    await expectAccessible(page);
    expect(await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).to.equal(10);
  });

  it("signs in with 'Sign in with a passkey', no password", async () => {
    await logOut();
    await page.getByRole('link', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Sign in with a passkey' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await waitForHeader(page, '[G0000001]');
    await page.goto(`${e2e.portal.url}/account/security`);
    const row = page.getByRole('table', { name: 'Your passkeys' }).getByRole('row', { name: /Work laptop/ });
    await row.waitFor();
    expect(await row.getByText('Never').count(), 'its last use is shown').to.equal(0);
  });

  it("asks for the passkey after the password ('Use a passkey'), and renames it", async () => {
    await logOut();
    await enterCredentials(page, MEMBER, DEMO_PASSWORD);
    await page.getByRole('heading', { name: 'Two-step sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await waitForHeader(page, '[G0000001]');

    await page.goto(`${e2e.portal.url}/account/security`);
    await page.getByRole('button', { name: 'Rename passkey Work laptop' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename the passkey' });
    await dialog.getByLabel('Name').fill('Office PC');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('table', { name: 'Your passkeys' }).getByRole('row', { name: /Office PC/ }).waitFor();
  });
});
