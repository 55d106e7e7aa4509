/**
 * Single sign-on's demo (issue 45 §8) as a newcomer tries it after `npm start`: on the real portal with the demo data,
 * the demo admin types sso-admin@sso.example.com on the sign-in page, presses 'Continue with single sign-on', signs in
 * at the demo identity provider the portal serves at /dev/idp, and is back in the portal signed in for G0000001.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { expectAccessible } from './support/axe.js';
import { newPage, useSharedE2E } from './support/portal.js';
import { DEMO_PASSWORD, useEnglish, waitForHeader } from './support/signin.js';

describe('Single sign-on demo: through the demo IdP at /dev/idp (issue 45 §8)', function () {
  this.timeout(300_000);
  const e2e = useSharedE2E();
  const errors: string[] = [];
  let page: Page;

  before(async () => {
    page = await newPage(e2e.browser, errors);
  });
  after(() => page?.context().close());

  it("the demo admin at sso.example.com signs in with 'Continue with single sign-on' and the demo IdP's password, and is signed in for G0000001", async () => {
    await useEnglish(page, e2e.portal.url);
    await page.goto(`${e2e.portal.url}/`);
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Email').fill('sso-admin@sso.example.com');
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();

    await page.waitForURL(new RegExp(`^${e2e.portal.url}/dev/idp/interaction/`));
    await page.getByRole('heading', { level: 1, name: 'Demo IdP: sign in' }).waitFor();
    // the portal passed the typed address on as login_hint
    expect(await page.getByLabel('E-mail').inputValue()).to.equal('sso-admin@sso.example.com');
    await expectAccessible(page);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in to the demo IdP' }).click();

    await waitForHeader(page, '[G0000001]');
    expect(new URL(page.url()).origin).to.equal(e2e.portal.url);
    expect(errors, 'errors logged by the page').to.deep.equal([]);
  });
});
