/**
 * The single-sign-on gateway end to end (issue 9 §4-5): /auth/gateway signs a signed-out visitor in, fetches the
 * tokens and forwards the browser to the demo partner (/dev/partner), which verifies them like a real partner; a
 * reload of that partner URL (a replay) is refused; glo=true signs out at the provider first and signs in again.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newPage, useSharedE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish } from './support/signin.js';

/** The demo partner's answer: its heading and the label → value rows. */
async function partnerPage(page: Page): Promise<{ title: string; rows: Record<string, string>; reason: string | null }> {
  const title = (await page.locator('h1').textContent()) ?? '';
  const labels = await page.locator('dt').allTextContents();
  const values = await page.locator('dd').allTextContents();
  const refusal = page.locator('#refusal');
  const reason = (await refusal.count()) > 0 ? await refusal.getAttribute('data-reason') : null;
  return { title, rows: Object.fromEntries(labels.map((label, index) => [label, values[index]!])), reason };
}

describe('Single-sign-on gateway through the demo partner (issue 9 §4)', function () {
  this.timeout(180_000);
  const e2e = useSharedE2E();
  const errors: string[] = [];

  it('signs in, forwards to the partner with the tokens, refuses their replay, and glo=true signs out and in again (only for a known product)', async () => {
    const { url } = e2e.portal;
    const page = await newPage(e2e.browser, errors);
    await useEnglish(page, url);

    // signed out: the gateway sends the visitor to sign in and back
    await page.goto(`${url}/auth/gateway?gpc=demo-partner&gss=xyz&gul=en`);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await page.waitForURL(`${url}/dev/partner?**`);
    const partnerUrl = new URL(page.url());
    expect([...partnerUrl.searchParams.keys()].sort()).to.deep.equal(['ghs', 'goi', 'gsg', 'gss', 'gui', 'gul', 'guq']);
    const arrived = await partnerPage(page);
    expect(arrived.title).to.equal('Demo partner: signed in');
    expect(arrived.rows).to.include({ gloplaId: 'G0000001', 'E-mail': MANAGER, Language: 'en', 'State (gss)': 'xyz' });

    // the same tokens again: refused
    await page.reload();
    expect(await partnerPage(page)).to.include({ title: 'Demo partner: refused', reason: 'replayed' });

    // glo=true: the provider session ends (the password is asked for again), then back through the gateway
    const providerRequests: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/oidc/session/end') || pathname === '/oidc/token/revocation') providerRequests.push(pathname);
    });
    // … but not for an unknown product code: refused before anything ends (issue 15 finding 6)
    await page.goto(`${url}/auth/gateway?glo=true&gpc=anything`);
    await page.waitForURL(`${url}/`);
    await page.getByText('Forbidden').waitFor();
    expect(providerRequests).to.deep.equal([]);
    await page.goto(`${url}/auth/gateway?glo=true&gpc=demo-partner&gss=again&gul=en`);
    await page.getByLabel('Password', { exact: true }).waitFor();
    expect(providerRequests).to.include.members(['/oidc/token/revocation', '/oidc/session/end/confirm']);
    const signin = new URL(page.url());
    expect(signin.pathname).to.match(/^\/oidc\/interaction\//);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    await page.waitForURL(`${url}/dev/partner?**`);
    const again = await partnerPage(page);
    expect(again.title).to.equal('Demo partner: signed in');
    expect(again.rows).to.include({ gloplaId: 'G0000001', 'State (gss)': 'again' });
    expect(new URL(page.url()).searchParams.get('guq')).to.not.equal(partnerUrl.searchParams.get('guq'));

    // the partner's 403 on the replay is the only error the pages logged
    expect(errors.filter((error) => !/status of 403/.test(error))).to.deep.equal([]);
    await page.context().close();
  });
});
