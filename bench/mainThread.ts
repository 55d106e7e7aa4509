/**
 * `npx tsx bench/mainThread.ts`: where Lighthouse's blocking time comes from (issue 47 item 2). No goal of its own: a
 * diagnostic for bench/lighthouse.ts' TBT, which is the main thread's tasks' time beyond 50 ms at 4× the CPU time
 * measured. The portal started as a newcomer starts it, the demo manager signed in, each page loaded cold
 * (BENCH_MAIN_THREAD_PAGES, default every main page; BENCH_MAIN_THREAD_ROUNDS loads each, default 2) while the
 * browser traces what Lighthouse traces (its own categories: stack traces and screenshots cost the page's tasks time
 * too). Printed for each load: every task over 12.5 ms (over 50 ms at 4×), when it started after the navigation, and
 * what ran in it — a script's evaluation (its file), a function called from the browser (a timer, a message: its
 * source through the build's source maps, `dist/assets/*.map`), microtasks, style and layout, GC.
 *
 * Lighthouse's simulation counts every task after the first paint, and its first paint is the stylesheet's and the
 * document's alone (the deferred script is not render-blocking): nearly every task of a load counts, the first load's
 * evaluation included.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import TraceGatherer from 'lighthouse/core/gather/gatherers/trace.js';
import { chromium, type CDPSession, type Page } from 'playwright-core';
import sourceMap from 'source-map';
import { PROJECT_ROOT } from '../src/configuration/load.js';
import { CHROMIUM_PATH, newPage, startPortal } from '../test/e2e/support/portal.js';
import { signInAsManagerAt } from '../test/e2e/support/signin.js';
import { PAGES } from './lighthouse.js';

/** What Lighthouse traces, from Lighthouse itself (its list starts by leaving out every other category: '-*'). */
const LIGHTHOUSE_CATEGORIES = TraceGatherer.getDefaultTraceCategories().filter((category) => !category.startsWith('-'));
/** A task Lighthouse's 4× makes longer than 50 ms. */
const LONG_TASK_US = 12_500;
/** What a long task's line names: the events inside it that say what it did. */
const TOLD = new Set(['EvaluateScript', 'FunctionCall', 'TimerFire', 'RunMicrotasks', 'EventDispatch', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC', 'ParseHTML', 'FireAnimationFrame']);

const pages = process.env.BENCH_MAIN_THREAD_PAGES?.split(',') ?? PAGES;
const rounds = Number(process.env.BENCH_MAIN_THREAD_ROUNDS ?? 2);

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; lineNumber?: number; columnNumber?: number } };
}

const maps = new Map<string, sourceMap.SourceMapConsumer | null>();

/** A script position as its source: a package's name, or our file and line; the chunk's name where it has no map. */
function sourceOf(data: NonNullable<TraceEvent['args']>['data']): string {
  const file = path.join(PROJECT_ROOT, 'dist', new URL(data?.url ?? '', 'http://portal').pathname);
  if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? new sourceMap.SourceMapConsumer(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : null);
  const map = maps.get(file);
  if (!map) return `${data?.functionName ?? ''}@${path.basename(file)}`;
  // the trace's lines and columns count from 1; source-map's columns from 0
  const position = map.originalPositionFor({ line: data?.lineNumber ?? 1, column: Math.max(0, (data?.columnNumber ?? 1) - 1) });
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(position.source ?? '')?.[1];
  return `${pkg ?? (position.source ?? '?').replace(/^.*?src\//, 'src/')}:${position.line}${position.name ? ` ${position.name}` : ''}`;
}

function describe(event: TraceEvent): string {
  const data = event.args?.data;
  const what = event.name === 'FunctionCall' ? ` ${sourceOf(data)}` : event.name === 'EvaluateScript' && data?.url ? ` ${path.basename(data.url)}` : '';
  return `${event.name}${what} ${Math.round((event.dur ?? 0) / 1000)}`;
}

/** The trace of one load of `url`, until the network has been quiet for half a second. */
async function tracedLoad(cdp: CDPSession, page: Page, url: string): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  // the protocol types a trace event as a string map; its fields are those of TraceEvent
  const collect = (chunk: { value: object[] }) => void events.push(...(chunk.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: LIGHTHOUSE_CATEGORIES, excludedCategories: ['*'] }, transferMode: 'ReportEvents' });
  await page.goto(url, { waitUntil: 'networkidle' });
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return events;
}

/** The page's long tasks, a line each, and their blocking time at 4× (all of them, as Lighthouse's simulation counts). */
function longTasks(events: TraceEvent[]): { lines: string[]; blockingMs: number } {
  const navigation = events.find((event) => event.name === 'navigationStart' && event.args?.data !== undefined) ?? events.find((event) => event.name === 'navigationStart');
  const main = events.find((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain' && event.pid === navigation?.pid);
  if (!main) throw new Error("the trace has no renderer's main thread");
  const onMain = events.filter((event) => event.pid === main.pid && event.tid === main.tid && event.ph === 'X');
  const tasks = onMain.filter((event) => event.name === 'RunTask' && (event.dur ?? 0) > LONG_TASK_US).sort((a, b) => a.ts - b.ts);
  const lines = tasks.map((task) => {
    const inside = onMain.filter((event) => TOLD.has(event.name) && event.ts >= task.ts && event.ts < task.ts + task.dur! && (event.dur ?? 0) > 1500);
    return `  @${Math.round((task.ts - (navigation?.ts ?? task.ts)) / 1000)} ms: ${Math.round(task.dur! / 1000)} ms (${Math.round(task.dur! / 250)} at 4×) ${inside.map(describe).join(' | ')}`;
  });
  return { lines, blockingMs: tasks.reduce((sum, task) => sum + (task.dur! / 1000) * 4 - 50, 0) };
}

const portal = await startPortal();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await newPage(browser, []);
  await signInAsManagerAt(page, portal.url, '/', 'G0000001');
  // Lighthouse's mobile screen: what is laid out and painted is what it measures
  await page.setViewportSize({ width: 412, height: 823 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  for (const pagePath of pages) {
    for (let round = 1; round <= rounds; round += 1) {
      const { lines, blockingMs } = longTasks(await tracedLoad(cdp, page, `${portal.url}${pagePath}`));
      console.log(`\n${pagePath}, load ${round}: ${lines.length} tasks over 12.5 ms, ~${Math.round(blockingMs)} ms blocking at 4×`);
      for (const line of lines) console.log(line);
    }
  }
} finally {
  await browser.close();
  await portal.stop();
}
