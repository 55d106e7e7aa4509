import { expect } from 'chai';
import type { Page, Request } from 'playwright-core';
import { newPage, useE2E } from './support/portal.js';
import { DEMO_PASSWORD, enterCredentials, MEMBER, useEnglish, waitForHeader } from './support/signin.js';

async function signInAsMember(page: Page, url: string): Promise<void> {
  await useEnglish(page, url);
  await page.goto(`${url}/account`);
  await enterCredentials(page, MEMBER, DEMO_PASSWORD);
  await page.waitForURL(`${url}/account`);
  await waitForHeader(page, '株式会社デモ [G0000001]');
  await page.locator('dl.details').waitFor();
}

describe('Session in the browser: refresh and re-authentication (SPEC §4 Session, Re-authentication)', function () {
  this.timeout(240_000);

  describe('with 10-second access tokens', () => {
    const e2e = useE2E({ ACCESS_TOKEN_TTL: '10' });

    it('an expired access token is refreshed once and the call retried, unnoticed by the admin', async () => {
      const errors: string[] = [];
      const page = await newPage(e2e.browser, errors);
      await signInAsMember(page, e2e.portal.url);
      const refreshes: Request[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/oidc/token' && /grant_type=refresh_token/.test(request.postData() ?? '')) {
          refreshes.push(request);
        }
      });
      await page.waitForTimeout(11_000);
      await page.getByRole('link', { name: 'Change name' }).click();
      await page.getByLabel(/^First name(?! \(phonetic\))/).waitFor();
      expect(refreshes).to.have.length(1);
      expect(await page.locator('.flash__item').count()).to.equal(0);
      // the 401 that started the refresh is the only error the page logged
      expect(errors.filter((error) => !/status of 401/.test(error))).to.deep.equal([]);
      await page.context().close();
    });
    it('a second tab takes over the session the first tab refreshed, and stays signed in', async () => {
      const errors: string[] = [];
      const first = await newPage(e2e.browser, errors);
      await signInAsMember(first, e2e.portal.url);
      const second = await first.context().newPage();
      await second.goto(`${e2e.portal.url}/account`);
      await second.locator('dl.details').waitFor();
      const secondTabProviderCalls: string[] = [];
      second.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (pathname === '/oidc/token' || pathname === '/oidc/auth') secondTabProviderCalls.push(pathname);
      });
      await first.waitForTimeout(11_000);
      // the first tab refreshes (and the rotation retires the refresh token both tabs started with)
      await first.getByRole('link', { name: 'Change name' }).click();
      await first.getByLabel(/^First name(?! \(phonetic\))/).waitFor();
      // the second tab's access token has expired too: it must take over the first tab's session, not be signed out
      await second.getByRole('link', { name: 'Change name' }).click();
      await second.getByLabel(/^First name(?! \(phonetic\))/).waitFor();
      expect(second.url()).to.equal(`${e2e.portal.url}/account/name/edit`);
      expect(await second.locator('.flash__item').count()).to.equal(0);
      // no refresh with the retired token (the provider would revoke the grant) and no new sign-in
      expect(secondTabProviderCalls).to.deep.equal([]);
      await first.context().close();
    });
  });

  describe('with a 5-second re-authentication window', () => {
    const e2e = useE2E({ REAUTH_WINDOW: '5' });

    it('an account page asks for the password again (prompt=login) and comes back to the page', async () => {
      const errors: string[] = [];
      const page = await newPage(e2e.browser, errors);
      await signInAsMember(page, e2e.portal.url);
      await page.waitForTimeout(6_000);
      const authorizations: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/oidc/auth') authorizations.push(request.url());
      });
      await page.getByRole('link', { name: 'Change name' }).click();
      await page.waitForURL((url) => url.pathname.startsWith('/oidc'));
      const authorization = new URL(authorizations[0]);
      expect(authorization.searchParams.get('prompt')).to.equal('login');
      expect(authorization.searchParams.get('glopla_id')).to.equal('G0000001');
      await enterCredentials(page, MEMBER, DEMO_PASSWORD);
      await page.waitForURL(`${e2e.portal.url}/account/name/edit`);
      await page.getByLabel(/^First name(?! \(phonetic\))/).waitFor();
      expect(errors).to.deep.equal([]);
      await page.context().close();
    });
  });
});
