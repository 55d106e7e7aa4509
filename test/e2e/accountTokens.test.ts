import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { mailTo } from './support/outbox.js';
import { newPage, solveCaptcha, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, waitForHeader } from './support/signin.js';

const PENDING = 'pending@example.com';
const NEW_PASSWORD = 'Kiwi-Harbor-93-Lantern';

describe('Activation and password reset in the browser (SPEC 2.4, 2.5)', function () {
  this.timeout(240_000);
  const e2e = useE2E();
  let page: Page;
  let errors: string[] = [];

  const latestMail = (to: string) => mailTo(e2e.portal.url, to);

  beforeEach(async () => {
    errors = [];
    page = await newPage(e2e.browser, errors);
  });
  afterEach(async () => {
    await page.context().close();
    // refused links and captchas answer 401/409 on purpose; the provider's sign-in page may log its own
    expect(errors.filter((error) => !/status of (401|409)/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it('opens in Japanese; ?locale=en switches to English and disappears from the address, keeping ?email=', async () => {
    await page.goto(`${e2e.portal.url}/activation/start`);
    await page.getByRole('heading', { level: 1, name: 'アカウント登録' }).waitFor();
    await page.goto(`${e2e.portal.url}/activation/start?locale=en&email=${encodeURIComponent(PENDING)}`);
    await page.getByRole('heading', { level: 1, name: 'Register account' }).waitFor();
    await page.waitForURL((url) => !url.search.includes('locale'));
    expect(new URL(page.url()).searchParams.get('email')).to.equal(PENDING);
    expect(await page.getByLabel('Email').inputValue()).to.equal(PENDING);
    expect(await page.locator('html').getAttribute('lang')).to.equal('en');
  });

  it('an unsolved puzzle says "Please complete the puzzle."', async () => {
    await page.goto(`${e2e.portal.url}/password/reset/start?locale=en`);
    await page.getByLabel('Email').fill(MANAGER);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.locator('#root_capyAnswer__field').getByText('Please complete the puzzle.').waitFor();
    expect(page.url()).to.equal(`${e2e.portal.url}/password/reset/start`);
  });

  it('pending@example.com requests activation, opens the mailed link, sets names and a password, and signs in', async () => {
    await page.goto(`${e2e.portal.url}/activation/start?locale=en&email=${encodeURIComponent(PENDING)}`);
    await page.getByLabel('Email').waitFor();
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${e2e.portal.url}/token/sent`);
    await page.getByRole('heading', { name: 'Please check your mail' }).waitFor();

    const mail = await latestMail(PENDING);
    expect(mail.subject).to.equal('Activate your administrator account');
    const link = mail.links[0]!;
    expect(link).to.match(new RegExp(`^${e2e.portal.url}/admins/\\d+/activate/[A-Za-z0-9_-]+\\?locale=en$`));

    await page.goto(link);
    await page.getByRole('heading', { level: 1, name: 'Activate your account' }).waitFor();
    await page.getByText(`Account: ${PENDING}`).waitFor();
    await page.waitForURL((url) => !url.search.includes('locale'));
    const activate = page.getByRole('button', { name: 'Agree and activate' });
    expect(await activate.isDisabled()).to.equal(true);
    expect(await page.getByRole('link', { name: 'terms of use', exact: true }).getAttribute('href')).to.match(/^https:\/\//);

    await page.getByLabel(/^Last name(?! \()/).fill('田中');
    await page.getByLabel(/^First name(?! \()/).fill('花子');
    await page.getByLabel('Last name (phonetic)').fill('たなか');
    await page.getByLabel('First name (phonetic)').fill('はなこ');
    await page.getByLabel(/^Password/).fill('password1');
    await page.locator('.password__score[data-score="0"], .password__score[data-score="1"]').waitFor();
    expect(await activate.isDisabled(), 'a weak password keeps the button disabled').to.equal(true);
    await page.getByLabel(/^Password/).fill(NEW_PASSWORD);
    await page.locator('.password__score[data-score="3"], .password__score[data-score="4"]').waitFor();
    await activate.click();

    await page.waitForURL(`${e2e.portal.url}/activation/success`);
    await page.getByRole('heading', { level: 1, name: 'Account activated' }).waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'), { timeout: 15_000 });
    await enterCredentials(page, PENDING, NEW_PASSWORD);
    await waitForHeader(page, '株式会社デモ [G0000001]');
    expect(await page.locator('.header__name').textContent()).to.equal('花子 田中');
  });

  it('the used activation link leads to the link-expired page, without a restart link (already activated)', async () => {
    const link = (await latestMail(PENDING)).links[0]!;
    await page.goto(link);
    await page.waitForURL(`${e2e.portal.url}/token/expired`);
    await page.getByRole('heading', { level: 1, name: 'Link expired' }).waitFor();
    await page.getByText('This account has already been activated.').waitFor();
    expect(await page.getByRole('link', { name: 'Request a new activation mail' }).count()).to.equal(0);
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
  });

  it('an activated address asking for activation goes to the already-completed page, then to sign-in', async () => {
    await page.goto(`${e2e.portal.url}/activation/start?locale=en&email=${encodeURIComponent(MANAGER)}`);
    await page.getByLabel('Email').waitFor();
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${e2e.portal.url}/activation/already-completed`);
    await page.getByRole('heading', { level: 1, name: /already registered as an administrator/ }).waitFor();
    await page.waitForURL((url) => url.pathname.startsWith('/oidc'), { timeout: 15_000 });
  });

  it('the manager resets the password through the mailed link and signs in with the new one', async () => {
    await page.goto(`${e2e.portal.url}/password/reset/start?locale=en`);
    await page.getByLabel('Email').fill(MANAGER);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(`${e2e.portal.url}/token/sent`);
    await page.getByText('If the address belongs to an administrator account').waitFor();

    const mail = await latestMail(MANAGER);
    expect(mail.subject).to.equal('Reset your password');
    const link = mail.links[0]!;
    expect(link).to.match(new RegExp(`^${e2e.portal.url}/password/reset\\?admin_id=\\d+&token=[A-Za-z0-9_-]+&locale=en$`));

    // a mail client that shows '&amp;' literally: the page still reads the link
    await page.goto(link.replace(/&/g, '&amp;'));
    await page.getByRole('heading', { level: 1, name: 'Choose a new password' }).waitFor();
    await page.waitForURL((url) => url.search.startsWith('?admin_id=') && !/locale|amp;/.test(url.search));
    const reset = page.getByRole('button', { name: 'Reset password' });
    await page.getByLabel('New password').fill('abc');
    expect(await reset.isDisabled()).to.equal(true);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.locator('.password__score[data-score="3"], .password__score[data-score="4"]').waitFor();
    await reset.click();
    await page.waitForURL(`${e2e.portal.url}/password/reset/success`);
    await page.getByRole('heading', { level: 1, name: 'Password reset' }).waitFor();

    await page.waitForURL((url) => url.pathname.startsWith('/oidc'), { timeout: 15_000 });
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await page.getByText('Invalid user name or password').waitFor();
    await enterCredentials(page, MANAGER, NEW_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await waitForHeader(page, '株式会社デモ [G0000001]');
  });

  it('the used reset link leads to the link-expired page, whose restart link opens the reset request', async () => {
    const link = (await latestMail(MANAGER)).links[0]!;
    await page.goto(link);
    await page.waitForURL(`${e2e.portal.url}/token/expired`);
    await page.getByText('This password-reset link has expired or has already been used.').waitFor();
    await page.getByRole('link', { name: 'Request a new password-reset mail' }).click();
    await page.waitForURL(`${e2e.portal.url}/password/reset/start`);
    await page.getByRole('heading', { level: 1, name: 'Reset your password' }).waitFor();
  });
});
