/**
 * A signed-in page's first visit (issue 26): the page's data call leaves from the first load's route table while the
 * screen's code is still on its way — proven by holding every lazily loaded script back until the call is seen —
 * and the screen then shows that answer without asking again; with a login stored, the route's chunks are asked for
 * before the login is restored; a cold page asks for few scripts.
 */
import { expect } from 'chai';
import type { Page, Request, Route } from 'playwright-core';
import { holdScripts, newPage, useSharedE2E } from './support/portal.js';
import { signInAsManagerAt } from './support/signin.js';

const MAIN_SCRIPT = /\/assets\/main\.[0-9a-f]+\.js$/;
const AFFILIATIONS = /\/api\/v2\/organizations\/1\/affiliations$/;
const USERS = /\/api\/v2\/organizations\/1\/users\?/;

describe('a first visit: data beside code (issue 26)', function () {
  this.timeout(300_000);
  const e2e = useSharedE2E();
  const errors: string[] = [];
  let page: Page;

  before(async () => {
    page = await newPage(e2e.browser, errors);
    await signInAsManagerAt(page, e2e.portal.url, '/', 'G0000001');
  });
  after(() => page.context().close());
  afterEach(() => expect(errors, 'errors logged by the page').to.deep.equal([]));

  it("asks for the Admins list while the screen's code is held back, then shows that answer without asking again", async () => {
    const asked: string[] = [];
    let dataAsked!: () => void;
    const dataSeen = new Promise<void>((resolve) => (dataAsked = resolve));
    page.on('request', (request) => {
      if (AFFILIATIONS.test(request.url())) {
        asked.push(request.url());
        dataAsked();
      }
    });
    // every script but the first load's waits until the data call has left, or until a while has passed: what let it go
    const released: Array<'data call' | 'waited in vain'> = [];
    const holdUntilDataCall = async (route: Route) => {
      if (!MAIN_SCRIPT.test(route.request().url())) {
        const inVain = new Promise<'waited in vain'>((resolve) => setTimeout(() => resolve('waited in vain'), 15_000));
        released.push(await Promise.race([dataSeen.then(() => 'data call' as const), inVain]));
      }
      await route.continue();
    };
    await page.route('**/assets/*.js', holdUntilDataCall);
    try {
      await page.goto(`${e2e.portal.url}/memberships`);
      await page.getByRole('table', { name: 'Admins of the organization' }).getByRole('row').filter({ hasText: 'member@example.com' }).waitFor({ timeout: 60_000 });
      expect(released, 'the held scripts').to.include('data call').and.not.include('waited in vain');
      expect(asked).to.have.length(1);
    } finally {
      await page.unroute('**/assets/*.js', holdUntilDataCall);
    }
  });

  it("with a login stored, a cold visit asks for the route's chunks while the login is still being restored", async () => {
    // a second tab of the signed-in session whose stored login decrypts only once three scripts beside the first load
    // have been asked for (the language's words, and the route's own), or after a while in vain: what let it go
    const tab = await page.context().newPage();
    // as text: the test's compiler would wrap a function's inner functions in a helper the page does not have
    await tab.addInitScript(`{
      const decrypt = SubtleCrypto.prototype.decrypt;
      let release;
      const released = new Promise((resolve) => { release = resolve; });
      Object.assign(window, { releaseLogin: () => release('released'), loginWaitedInVain: false });
      SubtleCrypto.prototype.decrypt = function (...args) {
        const inVain = new Promise((resolve) => setTimeout(resolve, 15000, 'in vain'));
        return Promise.race([released, inVain]).then((outcome) => {
          if (outcome === 'in vain') window.loginWaitedInVain = true;
          return decrypt.apply(this, args);
        });
      };
    }`);
    const session = await tab.context().newCDPSession(tab);
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts: string[] = [];
    let released = false;
    tab.on('request', (request) => {
      if (!/\/assets\/.+\.js$/.test(request.url()) || MAIN_SCRIPT.test(request.url())) return;
      scripts.push(request.url());
      if (scripts.length === 3 && !released) {
        released = true;
        void tab.evaluate(() => (window as unknown as { releaseLogin?: () => void }).releaseLogin?.()).catch(() => undefined);
      }
    });
    try {
      await tab.goto(`${e2e.portal.url}/memberships`);
      await tab.getByRole('table', { name: 'Admins of the organization' }).getByRole('row').filter({ hasText: 'member@example.com' }).waitFor({ timeout: 60_000 });
      const waitedInVain = await tab.evaluate(() => (window as unknown as { loginWaitedInVain: boolean }).loginWaitedInVain);
      expect(waitedInVain, `the login waited in vain; scripts asked for:\n${scripts.join('\n')}`).to.equal(false);
    } finally {
      await tab.close();
    }
  });

  it("Home's cold visits move nothing already shown while their answers arrive (layout shift under 0.05)", async () => {
    const session = await page.context().newCDPSession(page);
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    try {
      for (let visit = 0; visit < 3; visit += 1) {
        await page.goto(`${e2e.portal.url}/`);
        await page.locator('main a[href^="/services/"]').first().waitFor();
        await page.locator('main .loader').waitFor({ state: 'detached' });
        // the page's shifts so far (a buffered observer hands over the entries recorded since the navigation)
        const shifts = await page.evaluate(() => {
          const observer = new PerformanceObserver(() => undefined);
          observer.observe({ type: 'layout-shift', buffered: true });
          const entries = observer.takeRecords() as Array<PerformanceEntry & { value: number; sources: Array<{ node?: Node }> }>;
          observer.disconnect();
          return entries.map((entry) => ({ value: entry.value, moved: entry.sources.map((source) => (source.node as Element | undefined)?.className ?? '?').join(' ') }));
        });
        const total = shifts.reduce((sum, shift) => sum + shift.value, 0);
        expect(total, JSON.stringify(shifts)).to.be.below(0.05);
      }
    } finally {
      await session.detach();
    }
  });

  it("the stylesheet's first rule reaches the page: the design's colours and fonts (:root)", async () => {
    await page.goto(`${e2e.portal.url}/`);
    await page.locator('main a[href^="/services/"]').first().waitFor();
    const root = await page.evaluate(() => {
      const style = getComputedStyle(document.documentElement);
      return { primary: style.getPropertyValue('--color-primary').trim(), font: style.fontFamily };
    });
    // a browser drops the rule behind anything that is not CSS (a script's banner): the page falls back to serif, uncoloured
    expect(root.primary).to.match(/^#[0-9a-f]{6}$/i);
    expect(root.font).to.contain('Noto Sans JP').and.contain('sans-serif');
    // Japanese names find their font in the list, not in a system fallback character by character (issue 47)
    expect(root.font).to.match(/sans-serif, "Noto Sans CJK JP"$/);
  });

  it('a page asks for no SVG image: each would be a document of its own on its thread (issue 47: the logo in the page, the icon a PNG)', async () => {
    const images: string[] = [];
    const onRequest = (request: Request) => {
      if (request.resourceType() === 'image' || request.url().includes('favicon')) images.push(request.url());
    };
    page.on('request', onRequest);
    try {
      await page.goto(`${e2e.portal.url}/memberships`);
      await page.getByRole('link', { name: /Corporate Admin Portal|法人管理者ポータル/ }).locator('svg').waitFor();
      await page.getByText('manager@example.com', { exact: true }).waitFor();
      expect(await page.locator('link[rel~="icon"]').getAttribute('href')).to.match(/\.png$/);
      expect(images.filter((url) => /\.svg(\?|$)/.test(url))).to.deep.equal([]);
    } finally {
      page.off('request', onRequest);
    }
  });

  it("the form engine behind the page (issue 47): the wizard's steps and a busy place for its form while RJSF is held back; /users asks for it once its list has answered", async () => {
    // the form engine's chunk is the script that holds RJSF (its class names): held until the test lets it go
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let engineAsked!: (url: string) => void;
    let engineSeen = new Promise<string>((resolve) => (engineAsked = resolve));
    const unhold = await holdScripts(page, async (body, url) => {
      if (!body.includes('rjsf')) return;
      engineAsked(url);
      await released;
    });
    const session = await page.context().newCDPSession(page);
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    try {
      // not until the load event: the held script holds it back
      await page.goto(`${e2e.portal.url}/subscription/group/1/new`, { waitUntil: 'commit' });
      const place = page.locator('main [aria-busy="true"]');
      await place.waitFor({ timeout: 60_000 });
      await page.locator('main .steps [aria-current="step"]').waitFor();
      await engineSeen;
      expect(await page.locator('main form').count(), 'no form before its engine').to.equal(0);
      release();
      await page.locator('main form input:not([type=hidden]), main form select').first().waitFor({ timeout: 60_000 });
      expect(await place.count(), 'the place given up to the form').to.equal(0);

      // a cold /users: the engine of its rows' form is asked for once the screen has shown its answer, not beside its
      // code and data (the page's own clock)
      engineSeen = new Promise<string>((resolve) => (engineAsked = resolve));
      await page.goto(`${e2e.portal.url}/users`);
      await page.locator('main table tbody tr').first().waitFor({ timeout: 60_000 });
      const engine = await engineSeen;
      await page.waitForFunction((url) => performance.getEntriesByName(url).length > 0, engine);
      const { answeredAt, engineAt } = await page.evaluate(
        ({ url, users }) => ({
          answeredAt: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((entry) => new RegExp(users).test(entry.name))!.responseEnd,
          engineAt: performance.getEntriesByName(url)[0]!.startTime,
        }),
        { url: engine, users: USERS.source },
      );
      expect(engineAt, 'the form engine asked for, against the list answered').to.be.greaterThan(answeredAt);
    } finally {
      release();
      await session.send('Network.setCacheDisabled', { cacheDisabled: false });
      await unhold();
    }
  });

  it("a page with a date field has a worker make ICU's first use, off the page's thread, and ends it (issue 47: the field's 17–63 ms task)", async () => {
    const workers: string[] = [];
    const onWorker = (worker: { url(): string }) => void workers.push(worker.url());
    page.on('worker', onWorker);
    try {
      await page.goto(`${e2e.portal.url}/memberships`);
      await page.getByRole('table').getByText('manager@example.com').waitFor();
      expect(workers, 'workers of a page without a date field').to.deep.equal([]);
      // the worker's close listened for as the worker is announced: the two events can come in one turn, before a
      // promise of the first would go on
      const closed = new Promise<string>((resolve) => page.once('worker', (worker) => worker.once('close', () => resolve(worker.url()))));
      await page.goto(`${e2e.portal.url}/subscription/group/1/new`);
      expect(new URL(await closed).origin).to.equal(e2e.portal.url);
      await page.getByLabel('Start date').waitFor();
    } finally {
      page.off('worker', onWorker);
    }
  });

  it('a cold signed-in page with a form asks for at most 12 scripts', async () => {
    const session = await page.context().newCDPSession(page);
    await session.send('Network.enable');
    await session.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts: string[] = [];
    const onRequest = (request: { resourceType(): string; url(): string }) => void (request.resourceType() === 'script' && scripts.push(request.url()));
    page.on('request', onRequest);
    try {
      await page.goto(`${e2e.portal.url}/subscription/group/1/new`);
      await page.locator('main form input:not([type=hidden]), main form select').first().waitFor();
      expect(scripts.length, scripts.join('\n')).to.be.within(1, 12);
    } finally {
      page.off('request', onRequest);
      await session.detach();
    }
  });
});
