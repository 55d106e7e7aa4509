/**
 * `npm run bench` (BENCH_ONLY=cold), or alone: `npx tsx bench/coldLoad.ts`. What a user meets on a first visit over a
 * real network (issue 26): the portal started as a newcomer starts it (the compiled server, PGlite, demo data), the
 * demo manager signed in, then each page loaded cold — cache disabled, network and CPU emulated through the DevTools
 * protocol — BENCH_COLD_ROUNDS times (default 3), the median kept. Per page and profile: the time from the navigation
 * to the page's own content, the JavaScript requests, and when the page's first data call left.
 */
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';
import type { CDPSession, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchBrowser, newPage, startPortal } from '../test/e2e/support/portal.js';
import { signInAsManagerAt } from '../test/e2e/support/signin.js';

/** The emulated networks (Chrome DevTools' presets' figures) and the CPU slowdown. */
export const PROFILES = {
  'fast 4G': { latency: 40, downloadThroughput: (10 * 1024 * 1024) / 8, uploadThroughput: (5 * 1024 * 1024) / 8, cpu: 1, goalMs: 700 },
  'slow 4G': { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpu: 4, goalMs: 2500 },
} as const;
export type Profile = keyof typeof PROFILES;

/** Issue 26's goals besides the content times. */
export const FIRST_DATA_CALL_GOAL_MS = 450;
export const JS_REQUESTS_GOAL = 12;
export const CLIENT_VISIT_GOAL_MS = 250;

/** Screens first reached in a session through the account menu (localhost, no throttling), and their content. */
export const CLIENT_VISITS: Array<{ menu: string; path: string; content: string }> = [
  { menu: 'Manage admin accounts', path: '/memberships', content: 'main table tbody tr' },
  { menu: 'Users', path: '/users', content: 'main table tbody tr' },
  { menu: 'Activity log', path: '/audit', content: 'main table tbody tr' },
  { menu: 'Contacts', path: '/contacts', content: 'main table tbody tr' },
];

/** Each page and the element that says its own content is there. */
export const PAGES: Array<{ path: string; content: string; what: string }> = [
  { path: '/', content: 'main a[href^="/services/"]', what: 'service cards' },
  { path: '/services/1', content: 'main a[href^="http"]', what: 'admin links' },
  { path: '/subscription/group/1/new', content: 'main form input:not([type=hidden]), main form select', what: 'first field' },
  { path: '/memberships', content: 'main table tbody tr', what: 'rows' },
  { path: '/users', content: 'main table tbody tr', what: 'rows' },
  { path: '/audit', content: 'main table tbody tr', what: 'rows' },
];

/** A call of the page's data: the API, not the portal's settings nor the provider. */
const DATA_CALL = /\/api\/v2\/(?!portal_settings)/;
const rounds = Number(process.env.BENCH_COLD_ROUNDS ?? 3);
/** BENCH_COLD_PAGES: some of the pages only, comma-separated (e.g. the wizard with more rounds, to compare two builds). */
const pages = PAGES.filter(({ path }) => process.env.BENCH_COLD_PAGES?.split(',').includes(path) ?? true);

export interface ColdLoadRow {
  page: string;
  profile: Profile;
  contentMs: number;
  firstDataCallMs: number | undefined;
  jsRequests: number;
  /** Bytes over the wire until the content showed (compressed where the server compressed). */
  transferredBytes: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function emulate(session: CDPSession, profile: Profile): Promise<void> {
  const { latency, downloadThroughput, uploadThroughput, cpu } = PROFILES[profile];
  await session.send('Network.enable');
  await session.send('Network.setCacheDisabled', { cacheDisabled: true });
  await session.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput, uploadThroughput });
  await session.send('Emulation.setCPUThrottlingRate', { rate: cpu });
}

/**
 * In the page, before its scripts: the moment (performance.now(), from the navigation's start) each selector first
 * matches a laid-out element, and of the last click. Measured in the page, not by polling it from here: Playwright's
 * waits poll at growing intervals (up to half a second), which would round every time up to the next poll.
 */
function watchContent(selectors: string[]): void {
  const seen: Record<string, number> = {};
  // what showed before a reset is the last screen's
  let before = new Set<Element>();
  const reset = () => {
    Object.keys(seen).forEach((key) => delete seen[key]);
    before = new Set(selectors.flatMap((selector) => [...document.querySelectorAll(selector)]));
  };
  const watch = { seen, clickAt: 0, reset };
  Object.assign(window, { contentWatch: watch });
  const shown = (selector: string) => [...document.querySelectorAll(selector)].some((element) => !before.has(element) && element.getClientRects().length > 0);
  const check = () => {
    for (const selector of selectors) if (seen[selector] === undefined && shown(selector)) seen[selector] = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  document.addEventListener('click', () => (watch.clickAt = performance.now()), true);
}

type Watched = { contentWatch: { seen: Record<string, number>; clickAt: number; reset(): void } };
const contentSeenAt = (page: Page, selector: string) => page.evaluate((watched) => (window as unknown as Watched).contentWatch.seen[watched]!, selector);

/** One cold load: from the navigation's start to the content, counting what the page asked for on the way. */
async function coldLoad(page: Page, session: CDPSession, url: string, content: string): Promise<Omit<ColdLoadRow, 'page' | 'profile'>> {
  let jsRequests = 0;
  let transferredBytes = 0;
  const onLoaded = ({ encodedDataLength }: { encodedDataLength: number }) => {
    transferredBytes += encodedDataLength;
  };
  session.on('Network.loadingFinished', onLoaded);
  const onRequest = (request: { resourceType(): string }) => {
    if (request.resourceType() === 'script') jsRequests += 1;
  };
  page.on('request', onRequest);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator(content).first().waitFor({ state: 'visible', timeout: 60_000 });
    const contentMs = Math.round(await contentSeenAt(page, content));
    // the page's own clock, from the navigation's start
    const calls = await page.evaluate((pattern) => performance.getEntriesByType('resource').filter((entry) => new RegExp(pattern).test(entry.name)).map((entry) => entry.startTime), DATA_CALL.source);
    return { contentMs, firstDataCallMs: calls.length > 0 ? Math.round(Math.min(...calls)) : undefined, jsRequests, transferredBytes };
  } finally {
    page.off('request', onRequest);
    session.off('Network.loadingFinished', onLoaded);
  }
}

/**
 * Each screen of CLIENT_VISITS visited for the first time in a session, from Home through the account menu, as an
 * admin clicks (the pointer over the link first): the time from the click to the screen's content, the median of
 * `rounds` sessions.
 */
async function clientVisits(page: Page, url: string): Promise<Array<{ path: string; contentMs: number }>> {
  const times = new Map<string, number[]>(CLIENT_VISITS.map(({ path }) => [path, []]));
  for (let round = 0; round < rounds; round += 1) {
    await page.goto(`${url}/`);
    await page.locator(PAGES[0]!.content).first().waitFor();
    for (const { menu, path, content } of CLIENT_VISITS) {
      await page.getByRole('button', { name: 'Menu' }).click();
      const link = page.getByRole('link', { name: menu, exact: true });
      await link.hover();
      await page.evaluate(() => (window as unknown as Watched).contentWatch.reset());
      await link.click();
      await page.waitForURL(`${url}${path}`);
      // the last screen stays shown until the next one is ready (a transition): wait for the new screen's own content
      await page.waitForFunction((watched) => (window as unknown as Watched).contentWatch.seen[watched] !== undefined, content, { timeout: 60_000 });
      const { seenAt, clickAt } = await page.evaluate((watched) => ({ seenAt: (window as unknown as Watched).contentWatch.seen[watched]!, clickAt: (window as unknown as Watched).contentWatch.clickAt }), content);
      times.get(path)!.push(Math.round(seenAt - clickAt));
    }
  }
  return CLIENT_VISITS.map(({ path }) => ({ path, contentMs: median(times.get(path)!) }));
}

export async function benchColdLoad(): Promise<ColdLoadRow[]> {
  const portal = await startPortal();
  const browser = await launchBrowser(CHROMIUM_PATH);
  const errors: string[] = [];
  try {
    const page = await newPage(browser, errors);
    const selectors = [...new Set([...PAGES, ...CLIENT_VISITS].map(({ content }) => content))];
    // as source: tsx's compiled functions name themselves through a helper the page does not have
    await page.addInitScript({ content: `var __name = (target) => target; (${watchContent.toString()})(${JSON.stringify(selectors)});` });
    await signInAsManagerAt(page, portal.url, '/', 'G0000001');
    const visits = await clientVisits(page, portal.url);
    // the machine's speed as Lighthouse reads it (a fixed workload in the page, higher is faster): the same code's
    // times differ by up to 2× between machines, so a figure is compared with one of a like index
    const machineIndex = Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex));
    const session = await page.context().newCDPSession(page);
    const rows: ColdLoadRow[] = [];
    for (const profile of Object.keys(PROFILES) as Profile[]) {
      await emulate(session, profile);
      for (const { path, content } of pages) {
        const runs = [];
        for (let round = 0; round < rounds; round += 1) runs.push(await coldLoad(page, session, `${portal.url}${path}`, content));
        const dataCalls = runs.map((run) => run.firstDataCallMs).filter((ms): ms is number => ms !== undefined);
        rows.push({
          page: path,
          profile,
          contentMs: median(runs.map((run) => run.contentMs)),
          firstDataCallMs: dataCalls.length > 0 ? median(dataCalls) : undefined,
          jsRequests: Math.max(...runs.map((run) => run.jsRequests)),
          transferredBytes: median(runs.map((run) => run.transferredBytes)),
        });
      }
    }
    if (errors.length > 0) throw new Error(`the pages logged errors: ${errors.join('; ')}`);
    console.log(`\ncold loads, chromium, cache disabled, median of ${rounds}; the machine's index (Lighthouse's benchmark index) ${machineIndex}`);
    console.table(
      rows.map((row) => ({
        page: row.page,
        profile: row.profile,
        'content, ms': row.contentMs,
        goal: `≤ ${PROFILES[row.profile].goalMs}`,
        holds: row.contentMs <= PROFILES[row.profile].goalMs,
        'first data call, ms': row.firstDataCallMs ?? '—',
        ...(row.profile === 'fast 4G' ? { [`call ≤ ${FIRST_DATA_CALL_GOAL_MS}`]: (row.firstDataCallMs ?? Infinity) <= FIRST_DATA_CALL_GOAL_MS } : {}),
        'JS requests': row.jsRequests,
        'JS ≤ 12': row.jsRequests <= JS_REQUESTS_GOAL,
        'transferred, KB': Math.round(row.transferredBytes / 1024),
      })),
    );
    console.log(`\nfirst client-side visit to a screen, localhost, no throttling, median of ${rounds}`);
    console.table(visits.map((visit) => ({ page: visit.path, 'content, ms': visit.contentMs, goal: `≤ ${CLIENT_VISIT_GOAL_MS}`, holds: visit.contentMs <= CLIENT_VISIT_GOAL_MS })));
    return rows;
  } finally {
    await browser.close();
    await portal.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchColdLoad();
