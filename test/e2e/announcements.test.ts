/**
 * SPEC 2.2 in the browser: the announcements badge counts the demo articles, a click opens the announcement page in a
 * new tab and marks them read (the badge goes, and stays gone after a reload); the support chat's script is absent by
 * default, and with SUPPORT_CHAT_* set it loads from its origin — which the CSP then allows — with the page's key.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { demoAnnouncementArticles } from '../../src/server/db/seed/demoData.js';
import { newPage, useE2E } from './support/portal.js';
import { chooseOrganization, DEMO_PASSWORD, enterCredentials, MANAGER, useEnglish, waitForHeader } from './support/signin.js';

const SCRIPT_ID = '#support-chat-script';

describe('Announcements and the support chat (SPEC 2.2)', function () {
  this.timeout(240_000);

  describe('by default', () => {
    const e2e = useE2E();
    const errors: string[] = [];
    afterEach(() => expect(errors.filter((error) => !/status of 401/.test(error)), 'errors logged by the page').to.deep.equal([]));

    it('the badge counts the articles; a click opens the announcement page in a new tab and marks them read, also after a reload; no chat', async () => {
      const page = await newPage(e2e.browser, errors);
      await useEnglish(page, e2e.portal.url);
      await page.goto(`${e2e.portal.url}/`);
      await enterCredentials(page, MANAGER, DEMO_PASSWORD);
      await chooseOrganization(page, 'G0000001');
      await waitForHeader(page, '[G0000001]');

      const count = demoAnnouncementArticles.length;
      const icon = page.getByRole('link', { name: `Announcements, ${count} unread` });
      await icon.waitFor();
      expect(await icon.locator('.announcements-icon__badge').textContent()).to.equal(String(count));
      expect(await page.locator(SCRIPT_ID).count(), 'no support chat unless configured').to.equal(0);

      const [tab] = await Promise.all([page.context().waitForEvent('page'), icon.click()]);
      await tab.waitForURL(`${e2e.portal.url}/announcements`);
      const titles = tab.getByRole('list', { name: 'Announcement articles' }).getByRole('heading', { level: 2 });
      await titles.first().waitFor();
      expect(await titles.allTextContents()).to.have.members(demoAnnouncementArticles.map((article) => article.title.en));
      await tab.close();

      const read = page.getByRole('link', { name: 'Announcements', exact: true });
      await read.waitFor();
      expect(await page.locator('.announcements-icon__badge').count()).to.equal(0);
      await page.reload();
      await waitForHeader(page, '[G0000001]');
      await read.waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.locator('.announcements-icon__badge').count(), 'still read after a reload').to.equal(0);
      await page.context().close();
    });
  });

  describe('with a support chat configured', () => {
    // the chat provider: one script that shows it ran, and with which key
    let provider: Server;
    const widget = "document.documentElement.dataset.supportChat = document.currentScript.dataset.key + '/' + document.currentScript.dataset.lang;";
    const origin = { url: '' };
    before(async () => {
      provider = createServer((request, response) => {
        if (request.url !== '/widget.js') return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(widget);
      });
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
      origin.url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    });
    after(() => new Promise((resolve) => provider.close(resolve)));

    const env = {} as Record<string, string>;
    before(() => Object.assign(env, { SUPPORT_CHAT_SCRIPT_URL: `${origin.url}/widget.js`, SUPPORT_CHAT_KEY_JA: 'demo-key-ja', SUPPORT_CHAT_KEY_EN: 'demo-key-en' }));
    const e2e = useE2E(env);
    const errors: string[] = [];

    it('loads the widget from its origin, which the CSP allows, with the key of the page\'s language', async () => {
      const page = await newPage(e2e.browser, errors);
      const response = await page.goto(`${e2e.portal.url}/registration?locale=en`);
      expect(response?.headers()['content-security-policy']).to.contain(`script-src 'self' ${origin.url}`);
      await page.waitForFunction(() => document.documentElement.dataset.supportChat !== undefined);
      expect(await page.evaluate(() => document.documentElement.dataset.supportChat)).to.equal('demo-key-en/en');
      expect(await page.locator(SCRIPT_ID).getAttribute('src')).to.equal(`${origin.url}/widget.js`);
      expect(errors).to.deep.equal([]);
      await page.context().close();
    });
  });
});
