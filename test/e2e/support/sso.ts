/**
 * What the single sign-on end-to-end files share (issue 45): the portal and a browser (useE2E) with a small local DNS
 * server for the customer's domains, which the portal asks through DNS_SERVERS; a manager's access token for
 * G0000001's API; an e-mail domain added and verified through that API, its TXT record published on the DNS server.
 */
import type { Page } from 'playwright-core';
import { startDnsServer, type TestDnsServer } from '../../server/support/dnsServer.js';
import { newPage, organizationApi, useE2E, type E2EContext } from './portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish } from './signin.js';

export interface SsoE2EContext extends E2EContext {
  /** The DNS server the portal resolves the domains' TXT records with. */
  dns: TestDnsServer;
}

/** Mocha hooks giving a describe block a DNS server, then the portal asking it and a browser; all stopped after it. */
export function useSsoE2E(): SsoE2EContext {
  // the portal's settings, completed with the DNS server's port by this hook, which mocha runs before useE2E's
  const env: Record<string, string> = {};
  before(async () => {
    e2e.dns = await startDnsServer();
    env.DNS_SERVERS = e2e.dns.server;
  });
  after(() => e2e.dns?.close());
  const e2e = useE2E(env) as SsoE2EContext;
  return e2e;
}

/** The access token the page gets next: the provider's token endpoint answering the portal's page. */
export function nextAccessToken(page: Page): Promise<string> {
  return page
    .waitForResponse((response) => new URL(response.url()).pathname === '/oidc/token' && response.request().method() === 'POST')
    .then(async (response) => ((await response.json()) as { access_token: string }).access_token);
}

/** A manager's access token for G0000001: the portal's own sign-in in a browser context of its own, closed after. */
export async function managerToken(e2e: E2EContext): Promise<string> {
  const page = await newPage(e2e.browser, []);
  try {
    await useEnglish(page, e2e.portal.url);
    await page.goto(`${e2e.portal.url}/memberships`);
    const token = nextAccessToken(page);
    await enterCredentials(page, MANAGER, DEMO_PASSWORD);
    await chooseOrganization(page, 'G0000001');
    return await token;
  } finally {
    await page.context().close();
  }
}

/** Adds `domain` to G0000001 as the admin of `token`, publishes its TXT record and verifies it: the domain's id. */
export async function verifiedDomain(e2e: SsoE2EContext, token: string, domain: string): Promise<unknown> {
  const { sso_domain: added } = await organizationApi(e2e.portal.url, token, 'POST', 'sso_domains', { domain });
  const record = added!.txt_record as { name: string; value: string };
  e2e.dns.publish(record.name, record.value);
  await organizationApi(e2e.portal.url, token, 'POST', `sso_domains/${added!.id}/verify`);
  return added!.id;
}
