import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { browserClosedDays, businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { expect } from 'chai';
import { contentSecurityPolicy } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { useTestApp } from '../support/testApp.js';
import { cspDirectives as directives } from '../support/csp.js';

describe('GET /api/v2/announcements/articles', () => {
  const ctx = useTestApp();
  const day = 24 * 60 * 60 * 1000;
  let ids: Record<string, number>;

  before(async () => {
    const now = Date.now();
    const rows = await ctx.db
      .insertInto('announcementArticles')
      .values(
        [
          { key: 'older', publishedAt: new Date(now - 10 * day), url: 'https://news.example.com/older' },
          { key: 'newer', publishedAt: new Date(now - day), url: null },
          { key: 'future', publishedAt: new Date(now + day), url: null },
        ].map(({ key, publishedAt, url }) => ({
          title: JSON.stringify({ ja: `${key} 題`, en: `${key} title` }) as never,
          body: JSON.stringify({ ja: `${key} 本文`, en: `${key} body` }) as never,
          url,
          publishedAt,
        })),
      )
      .returning('id')
      .execute();
    ids = { older: rows[0]!.id, newer: rows[1]!.id, future: rows[2]!.id };
  });

  it('answers the published articles newest first, in the language asked for, in snake_case, without the unpublished', async () => {
    const response = await ctx.app.inject({ url: '/api/v2/announcements/articles?lang=en' });
    expect(response.statusCode).to.equal(200);
    const { articles } = response.json();
    expect(articles.map((article: { id: number }) => article.id)).to.deep.equal([ids.newer, ids.older]);
    expect(articles[1]).to.have.all.keys('id', 'title', 'published_at', 'body', 'url');
    expect(articles[1]).to.include({ title: 'older title', body: 'older body', url: 'https://news.example.com/older' });
    expect(new Date(articles[1].published_at).getTime()).to.be.closeTo(Date.now() - 10 * day, 60_000);
  });

  it('answers Japanese by default', async () => {
    const { articles } = (await ctx.app.inject({ url: '/api/v2/announcements/articles' })).json();
    expect(articles.map((article: { title: string }) => article.title)).to.deep.equal(['newer 題', 'older 題']);
  });

  it('refuses a language it does not know (422, like every invalid query)', async () => {
    const response = await ctx.app.inject({ url: '/api/v2/announcements/articles?lang=fr' });
    expect(response.statusCode).to.equal(422);
  });
});

describe('GET /api/v2/portal_settings and the support chat in the CSP', () => {
  describe('by default', () => {
    const ctx = useTestApp();

    it('answers the portal\'s own announcement page and no support chat', async () => {
      const response = await ctx.app.inject({ url: '/api/v2/portal_settings' });
      expect(response.statusCode).to.equal(200);
      expect(response.json()).to.deep.equal({ announcement_page_url: '/announcements', closed_days: browserClosedDays(tokyoToday()) });
    });

    it("gives the browser's calendar the closed days from a month ago to 200 days ahead", async () => {
      const closedDays: string[] = (await ctx.app.inject({ url: '/api/v2/portal_settings' })).json().closed_days;
      const today = tokyoToday();
      expect(closedDays.length).to.be.greaterThan(3); // a year-end closure or a holiday falls in any 231 days
      expect(closedDays[0]! >= addDays(today, -31) && closedDays.at(-1)! <= addDays(today, 200)).to.equal(true);
      for (const date of closedDays) expect(businessCalendar().isBusinessDay(date), date).to.equal(false);
    });

    it('keeps the CSP to the portal\'s own origin', async () => {
      const csp = directives((await ctx.app.inject({ url: '/healthz' })).headers['content-security-policy']);
      expect(csp.get('script-src')).to.equal("'self'");
      expect(csp.get('connect-src')).to.equal("'self'");
      expect(csp.has('frame-src')).to.equal(false);
    });
  });

  describe('with a support chat and an external announcement page configured', () => {
    const ctx = useTestApp({
      env: {
        SUPPORT_CHAT_SCRIPT_URL: 'https://chat.example.com/widget/v2/loader.js',
        SUPPORT_CHAT_KEY_JA: 'key-ja',
        SUPPORT_CHAT_KEY_EN: 'key-en',
        ANNOUNCEMENT_PAGE_URL: 'https://news.example.com/{lang}/',
      },
    });

    it('answers both to the browser', async () => {
      const response = await ctx.app.inject({ url: '/api/v2/portal_settings' });
      expect(response.json()).to.deep.include({
        announcement_page_url: 'https://news.example.com/{lang}/',
        support_chat: { script_url: 'https://chat.example.com/widget/v2/loader.js', keys: { ja: 'key-ja', en: 'key-en' } },
      });
    });

    it('widens the CSP by exactly the chat\'s origin, still without inline script or eval', async () => {
      const header = (await ctx.app.inject({ url: '/healthz' })).headers['content-security-policy'];
      const csp = directives(header);
      expect(csp.get('script-src')).to.equal("'self' https://chat.example.com");
      expect(csp.get('connect-src')).to.equal("'self' https://chat.example.com");
      expect(csp.get('frame-src')).to.equal("'self' https://chat.example.com");
      expect(csp.get('style-src')).to.equal("'self' https://chat.example.com");
      expect(csp.get('img-src')).to.equal("'self' data: https://chat.example.com");
      expect(csp.get('default-src')).to.equal("'self'");
      expect(String(header)).not.to.match(/unsafe-inline|unsafe-eval|\*/);
    });
  });

  it('uses the Japanese key for English when no English key is given', () => {
    const config = loadConfig({ SUPPORT_CHAT_SCRIPT_URL: 'https://chat.example.com/w.js', SUPPORT_CHAT_KEY_JA: 'k' });
    expect(config.supportChat).to.deep.equal({ scriptUrl: 'https://chat.example.com/w.js', origin: 'https://chat.example.com', keys: { ja: 'k', en: 'k' } });
    expect(contentSecurityPolicy(config).directives.scriptSrc).to.deep.equal(["'self'", 'https://chat.example.com']);
  });
});
