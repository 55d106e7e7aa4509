/**
 * Home → a service card → Service Details (SPEC 2.7, 2.8), in chromium against the real server and demo data, as a
 * manager and as a member: the breadcrumb and title from the service's name, the link categories each role sees
 * (rewritten by the server), the member warning and the subscribe button.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { newPage, useSharedE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, MEMBER, useEnglish, waitForHeader } from './support/signin.js';

async function signedInAtHome(browser: Browser, url: string, email: string, errors: string[]): Promise<Page> {
  const page = await newPage(browser, errors);
  await useEnglish(page, url);
  await page.goto(`${url}/`);
  await enterCredentials(page, email, DEMO_PASSWORD);
  if (email === MANAGER) await chooseOrganization(page, 'G0000001');
  await waitForHeader(page, '[G0000001]');
  await page.getByRole('heading', { name: 'Available services' }).waitFor();
  return page;
}

async function openCard(page: Page, url: string, name: string, id: number): Promise<void> {
  await page.getByRole('link', { name }).click();
  await page.waitForURL(`${url}/services/${id}`);
  await page.getByRole('heading', { level: 1, name }).waitFor();
  expect(await page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]').textContent()).to.equal(name);
}

describe('Home → Service Details (SPEC 2.7, 2.8)', function () {
  this.timeout(300_000);
  const e2e = useSharedE2E();
  const errors: string[] = [];
  afterEach(() => {
    expect(errors.filter((error) => !/status of 401/.test(error)), 'errors logged by the page').to.deep.equal([]);
  });

  it('a manager: every category, the dashboard buttons rewritten with glopla_id, the subscribe button in the app, no warning', async () => {
    const { url } = e2e.portal;
    const page = await signedInAtHome(e2e.browser, url, MANAGER, errors);
    try {
      await openCard(page, url, 'Library Plus (legacy)', 3);
      await page.getByText(/ends at the end of July 2026/).waitFor();
      expect(await page.getByRole('link', { name: 'For more info' }).getAttribute('target')).to.equal('_blank');
      expect(await page.getByRole('link', { name: 'Unlimited Library admin' }).getAttribute('href')).to.equal('https://admin.hodaiplus.example.com/dashboard?glopla_id=G0000001');
      await page.getByText('The eMBA2 part of your plus bundle: see your learners\' classes and results.').waitFor();
      expect(await page.getByText('Only Principal Admins can subscribe to this service').count()).to.equal(0);
      const subscribe = page.getByRole('link', { name: 'Subscribe' });
      expect(await subscribe.getAttribute('href')).to.equal('/subscription/group/3/new');
      expect(await subscribe.getAttribute('target')).to.equal(null);
      // in-app navigation to the new application wizard (SPEC 2.11), no page load
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(request.url());
      });
      await subscribe.click();
      await page.waitForURL(`${url}/subscription/group/3/new`);
      await page.getByRole('heading', { level: 1, name: 'New application' }).waitFor();
      expect(documents).to.deep.equal([]);
    } finally {
      await page.context().close();
    }
  });

  it('a member: the warning, description and admin links only, no subscribe button', async () => {
    const { url } = e2e.portal;
    const page = await signedInAtHome(e2e.browser, url, MEMBER, errors);
    try {
      await openCard(page, url, 'Online MBA 2.0', 2);
      await page.getByText('Only Principal Admins can subscribe to this service').waitFor();
      await page.getByRole('link', { name: 'Admin dashboard' }).waitFor();
      await page.getByRole('link', { name: 'For more info' }).waitFor();
      expect(await page.getByRole('link', { name: 'Subscribe' }).count()).to.equal(0);
      // the project layout: other_sso for a member too, and the admin link with the page's locale
      await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
      await openCard(page, url, 'Class-based Training', 4);
      await page.getByRole('link', { name: 'Sign in to Class-based Training' }).waitFor();
      expect(await page.getByRole('link', { name: 'Admin dashboard' }).getAttribute('href')).to.equal('https://admin.gls.example.com/dashboard?locale=en');
    } finally {
      await page.context().close();
    }
  });
});
