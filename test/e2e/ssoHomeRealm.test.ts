/**
 * The provider's sign-in page asks for the e-mail's home realm (issue 45 item 3), in chromium on the real portal with
 * the demo data: G0000001's demo connection (the demo IdP at /dev/idp) signs in sso.example.com. An ordinary address
 * keeps Email, Password and 'Sign in'; typing an address of a single sign-on domain hides the password and shows
 * 'Continue', which goes to the IdP; 'Use my password instead' brings the password back (example.com, verified here
 * through a small local DNS server, routes to the same connection); a domain that requires single sign-on offers no
 * password, in English and Japanese.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { demoSso } from '../../src/server/db/seed/demoData.js';
import { expectAccessible } from './support/axe.js';
import { newPage, organizationApi } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, MANAGER, useEnglish, waitForHeader } from './support/signin.js';
import { managerToken, nextAccessToken, useSsoE2E, verifiedDomain } from './support/sso.js';

describe("Sign-in page: the e-mail's home realm (issue 45 item 3)", function () {
  this.timeout(300_000);
  const e2e = useSsoE2E();
  const errors: string[] = [];
  const pages: Page[] = [];
  let ssoAdminToken: string;

  after(() => Promise.all(pages.map((page) => page.context().close())));
  afterEach(() => {
    expect(errors, 'errors logged by the pages').to.deep.equal([]);
  });

  /** A new browser on the provider's sign-in page, in English unless `language` says otherwise. */
  async function signinPage(language: 'en' | 'ja' = 'en'): Promise<Page> {
    const page = await newPage(e2e.browser, errors);
    pages.push(page);
    if (language === 'en') await useEnglish(page, e2e.portal.url);
    else {
      await page.goto(`${e2e.portal.url}/registration?locale=ja`);
      await page.waitForURL(`${e2e.portal.url}/registration`);
    }
    await page.goto(`${e2e.portal.url}/memberships`);
    await page.locator('#email').waitFor();
    return page;
  }

  const realmAnswer = (page: Page) => page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/realm'));

  const api = (token: string, method: string, path: string, body?: unknown) => organizationApi(e2e.portal.url, token, method, path, body);

  it("an ordinary address keeps Email, Password and 'Sign in' once the page has asked, and signs in as before", async () => {
    const page = await signinPage();
    const asked = realmAnswer(page);
    await page.getByLabel('Email').fill(MANAGER);
    await page.getByLabel('Email').blur();
    expect(await (await asked).json()).to.deep.equal({ sso: false, required: false });
    expect(await page.getByLabel('Password', { exact: true }).isVisible()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Use my password instead' }).isVisible()).to.equal(false);
    await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '[G0000001]');
  });

  it("typing an address of a single sign-on domain hides the password and shows 'Continue', which goes to the IdP and signs in", async () => {
    const page = await signinPage();
    await page.getByLabel('Email').pressSequentially('sso-admin@sso.example.com');
    await page.getByRole('button', { name: 'Continue', exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).waitFor({ state: 'hidden' });
    expect(await page.getByRole('status').filter({ hasText: "This address signs in with your organization's single sign-on." }).isVisible()).to.equal(true);
    expect(await page.getByRole('button', { name: 'Use my password instead' }).isVisible()).to.equal(true);
    // the focus stays where the admin types
    expect(await page.evaluate(() => document.activeElement?.id)).to.equal('email');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.waitForURL(new RegExp(`^${e2e.portal.url}/dev/idp/interaction/`));
    await page.getByRole('heading', { level: 1, name: 'Demo IdP: sign in' }).waitFor();
    expect(await page.getByLabel('E-mail').inputValue()).to.equal('sso-admin@sso.example.com');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    const token = nextAccessToken(page);
    await page.getByRole('button', { name: 'Sign in to the demo IdP' }).click();
    await waitForHeader(page, '[G0000001]');
    ssoAdminToken = await token;
  });

  it("asks nothing once 'Sign in' is pressed: a lookup then could find the sign-in over and be answered 400", async () => {
    const page = await signinPage();
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/realm')) lookups.push(request.url());
    });
    // the sign-in held back for longer than the page's pause after leaving the e-mail (150 ms)
    const action = new URL((await page.locator('#signin-form').getAttribute('action'))!, e2e.portal.url).pathname;
    await page.route((url) => url.pathname === action, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    // the address typed, the password filled and the form sent in one go (a password manager and Enter): the lookup
    // due after leaving the e-mail is still waiting when the form is sent, however slow the machine (a lookup the page
    // made before the form was sent would be right)
    // (no function declared inside: the test's compiler would name it with a helper the page does not have)
    await page.locator('#signin-form').evaluate(
      (form: HTMLFormElement, values) => {
        for (const [id, value] of values) {
          const input = form.querySelector<HTMLInputElement>(`#${id}`)!;
          input.focus();
          input.value = value!;
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
        form.requestSubmit(form.querySelector<HTMLButtonElement>('#signin-submit'));
      },
      [
        ['email', MANAGER],
        ['password', DEMO_PASSWORD],
      ],
    );
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '[G0000001]');
    expect(lookups).to.deep.equal([]);
  });

  it("asks about an address typed before the page's script arrived, once the script runs", async () => {
    const page = await newPage(e2e.browser, errors);
    pages.push(page);
    await useEnglish(page, e2e.portal.url);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/oidc/assets/signin.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${e2e.portal.url}/memberships`, { waitUntil: 'commit' });
    await page.getByLabel('Email').fill('sso-admin@sso.example.com');
    release();
    await page.getByRole('button', { name: 'Continue', exact: true }).waitFor();
    await page.getByLabel('Password', { exact: true }).waitFor({ state: 'hidden' });
  });

  it("'Use my password instead' brings the password and 'Sign in' back, and signs in with the password", async () => {
    // example.com, verified, routes to G0000001's only active connection: the demo IdP
    await verifiedDomain(e2e, await managerToken(e2e), MANAGER.split('@')[1]!);

    const page = await signinPage();
    await page.getByLabel('Email').fill(MANAGER);
    await page.getByRole('button', { name: 'Continue', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Use my password instead' }).click();
    const password = page.getByLabel('Password', { exact: true });
    await password.waitFor();
    expect(await password.evaluate((input) => input === document.activeElement)).to.equal(true);
    expect(await page.getByRole('status').innerText()).to.equal("Enter your password and choose 'Sign in'.");
    expect(await page.getByRole('button', { name: 'Use my password instead' }).isVisible()).to.equal(false);
    await password.fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '[G0000001]');
  });

  it('an address of a domain that requires single sign-on is offered no password, in English and Japanese', async () => {
    // required from the session that signed in through the connection a moment ago
    await api(ssoAdminToken, 'PATCH', `sso_domains/${demoSso.domainId}`, { require_sso: true });

    const page = await signinPage();
    await page.getByLabel('Email').fill('sso-member@sso.example.com');
    await page.getByRole('button', { name: 'Continue', exact: true }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Your organization requires single sign-on for this address.' }).waitFor();
    await page.getByLabel('Password', { exact: true }).waitFor({ state: 'hidden' });
    expect(await page.getByRole('button', { name: 'Use my password instead' }).isVisible()).to.equal(false);
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Demo IdP: sign in' }).waitFor();

    const japanese = await signinPage('ja');
    await japanese.getByLabel('メールアドレス').fill('sso-member@sso.example.com');
    await japanese.getByRole('button', { name: '続ける', exact: true }).waitFor();
    await japanese.getByRole('status').filter({ hasText: 'このメールアドレスは、組織の設定によりシングルサインオンでのログインが必要です。' }).waitFor();
    expect(await japanese.getByLabel('パスワード', { exact: true }).isVisible()).to.equal(false);
    expect(await japanese.getByRole('button', { name: '代わりにパスワードを使う' }).isVisible()).to.equal(false);
    await expectAccessible(japanese);
  });
});
