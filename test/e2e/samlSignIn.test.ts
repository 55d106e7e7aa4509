/**
 * Signing in through a SAML IdP, end to end (issue 45): Debian's SimpleSAMLphp is G0000001's IdP (support/
 * simpleSamlPhp.ts). A manager's API session sets it up as the real set-up does: a SAML connection with the IdP's
 * metadata as SimpleSAMLphp publishes it, the portal's SP registered at the IdP, the domain example.com verified by its
 * TXT record (a local DNS server, DNS_SERVERS) and routed to the connection. Then, in chromium, the manager types the
 * e-mail on the provider's sign-in page, presses 'Continue with single sign-on', signs in on SimpleSAMLphp's form, and
 * comes back signed in to the portal for G0000001, and works there.
 *
 * Skipped — loudly — only where php or SimpleSAMLphp is not installed; .ci/run installs them.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { newPage, organizationApi } from './support/portal.js';
import { MANAGER, useEnglish, waitForHeader } from './support/signin.js';
import { simpleSamlPhpInstalled, startSimpleSamlPhp, type SimpleSamlPhp } from './support/simpleSamlPhp.js';
import { managerToken, useSsoE2E, verifiedDomain } from './support/sso.js';

const IDP_USER = { username: 'hanako', password: 'Idp-Passw0rd-e2e', email: MANAGER };
const DOMAIN = MANAGER.split('@')[1]!;

if (!simpleSamlPhpInstalled()) {
  console.warn('\n!!! SKIPPED: the SAML end-to-end sign-in (test/e2e/samlSignIn.test.ts) needs php and SimpleSAMLphp: apt-get install -y simplesamlphp php-xml php-cli !!!\n');
}

(simpleSamlPhpInstalled() ? describe : describe.skip)('Signing in through a SAML IdP: SimpleSAMLphp (issue 45)', function () {
  this.timeout(300_000);
  const e2e = useSsoE2E();
  const errors: string[] = [];
  let idp: SimpleSamlPhp;
  before(async () => {
    idp = await startSimpleSamlPhp(IDP_USER);
  });
  after(() => idp?.stop());

  const api = (token: string, method: string, path: string, body?: unknown) => organizationApi(e2e.portal.url, token, method, path, body);

  before(async () => {
    const token = await managerToken(e2e);
    const metadata = await (await fetch(idp.metadataUrl)).text();
    const { sso_connection: connection } = await api(token, 'POST', 'sso_connections', { protocol: 'saml', name: 'SimpleSAMLphp', idp_metadata_xml: metadata });
    idp.registerServiceProvider({ entityId: String(connection!.sp_entity_id), acsUrl: String(connection!.acs_url) });
    await api(token, 'PATCH', `sso_connections/${connection!.id}`, { state: 'on' });
    const domainId = await verifiedDomain(e2e, token, DOMAIN);
    await api(token, 'PATCH', `sso_domains/${domainId}`, { connection_id: connection!.id });
  });

  let page: Page;
  after(() => page?.context().close());

  it('an admin at the domain continues with single sign-on, signs in at SimpleSAMLphp and comes back signed in for G0000001', async () => {
    page = await newPage(e2e.browser, errors);
    await useEnglish(page, e2e.portal.url);
    await page.goto(`${e2e.portal.url}/memberships`);
    await page.getByLabel('Email').waitFor();
    await page.getByLabel('Email').fill(MANAGER);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();

    // SimpleSAMLphp's own login form (exampleauth:UserPass)
    await page.waitForURL((url) => url.origin === idp.url).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 800)}`);
    });
    await page.locator('#username').waitFor({ timeout: 10_000 }).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 1500)}`);
    });
    await page.locator('#username').fill(IDP_USER.username);
    await page.locator('#password').fill(IDP_USER.password);
    await page.locator('#password').press('Enter');

    // its HTTP-POST binding posts the signed answer to the portal's ACS; the portal signs the manager in for G0000001
    await page.waitForURL(`${e2e.portal.url}/memberships`).catch(async (error: Error) => {
      throw new Error(`${error.message}\nat ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 1500)}`);
    });
    await waitForHeader(page, '[G0000001]');
    expect(errors.filter((error) => error.startsWith('pageerror')), 'errors of the portal’s pages').to.deep.equal([]);
  });

  it('works in the portal with that session: the users of G0000001', async () => {
    await page.goto(`${e2e.portal.url}/users`);
    await waitForHeader(page, '[G0000001]');
    // the organisation's users, read through the API with the session's token
    await page.getByRole('table', { name: 'Users' }).getByText('EMP0001').waitFor();
    expect(page.url()).to.equal(`${e2e.portal.url}/users`);
  });
});
