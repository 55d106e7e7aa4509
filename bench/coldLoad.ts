/**
 * `npm run bench` (BENCH_ONLY=cold), or alone: `npx tsx bench/coldLoad.ts`. What a user meets on a first visit over a
 * real network (issue 26): the portal started as a newcomer starts it (the compiled server, PGlite, demo data), the
 * demo manager signed in, then each page loaded cold — cache disabled, network and CPU emulated through the DevTools
 * protocol — BENCH_COLD_ROUNDS times (default 3), the median kept. Per page and profile: the time from the navigation
 * to the page's own content, the JavaScript requests, and when the page's first data call left.
 */
import type { CDPSession, Page } from 'playwright-core';
import { launchBrowser, newPage, startPortal } from '../test/e2e/support/portal.js';
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

/** One cold load: from the navigation's start to the content, counting what the page asked for on the way. */
async function coldLoad(page: Page, session: CDPSession, url: string, content: string): Promise<Omit<ColdLoadRow, 'page' | 'profile'>> {
  let jsRequests = 0;
  let firstDataCallAt: number | undefined;
  let transferredBytes = 0;
  const onLoaded = ({ encodedDataLength }: { encodedDataLength: number }) => {
    transferredBytes += encodedDataLength;
  };
  session.on('Network.loadingFinished', onLoaded);
  const started = Date.now();
  const onRequest = (request: { url(): string; resourceType(): string }) => {
    if (request.resourceType() === 'script') jsRequests += 1;
    if (firstDataCallAt === undefined && DATA_CALL.test(request.url())) firstDataCallAt = Date.now();
  };
  page.on('request', onRequest);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    await page.locator(content).first().waitFor({ state: 'visible', timeout: 60_000 });
    return { contentMs: Date.now() - started, firstDataCallMs: firstDataCallAt === undefined ? undefined : firstDataCallAt - started, jsRequests, transferredBytes };
  } finally {
    page.off('request', onRequest);
    session.off('Network.loadingFinished', onLoaded);
  }
}

export async function benchColdLoad(): Promise<ColdLoadRow[]> {
  const portal = await startPortal();
  const browser = await launchBrowser();
  const errors: string[] = [];
  try {
    const page = await newPage(browser, errors);
    await signInAsManagerAt(page, portal.url, '/', 'G0000001');
    const session = await page.context().newCDPSession(page);
    const rows: ColdLoadRow[] = [];
    for (const profile of Object.keys(PROFILES) as Profile[]) {
      await emulate(session, profile);
      for (const { path, content } of PAGES) {
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
    console.log(`\ncold loads, chromium, cache disabled, median of ${rounds}`);
    console.table(
      rows.map((row) => ({
        page: row.page,
        profile: row.profile,
        'content, ms': row.contentMs,
        goal: `≤ ${PROFILES[row.profile].goalMs}`,
        'first data call, ms': row.firstDataCallMs ?? '—',
        'JS requests': row.jsRequests,
        'transferred, KB': Math.round(row.transferredBytes / 1024),
      })),
    );
    return rows;
  } finally {
    await browser.close();
    await portal.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchColdLoad();
