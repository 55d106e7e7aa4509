/**
 * Accessibility checks with axe-core in the end-to-end tests: axe is injected into the page under test and run over
 * it; a violation of impact `serious` or `critical` fails the test, printed with its rule, impact, target selectors
 * and help.
 *
 * The portal's Content-Security-Policy allows scripts of its own origin only, so axe cannot come in as a <script>
 * element with its source inline (what `page.addScriptTag({ path })` makes, which the policy blocks). Its source is
 * evaluated through the DevTools protocol instead (`page.evaluate(source)`), which the page's policy does not govern,
 * as @axe-core/playwright does; the page itself keeps its policy. `injectAxe` checks that axe arrived.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, ElementContext, ImpactValue, Result, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
let axeSource: string | undefined;

/** Impacts that fail a test; `minor` and `moderate` findings are printed by `formatViolations` only on request. */
export const FAILING_IMPACTS: readonly ImpactValue[] = ['serious', 'critical'];

/** Puts axe into the page (once per document: a full navigation needs it again). */
export async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  if (!(await page.evaluate(() => 'axe' in window))) throw new Error(`axe-core could not be injected into ${page.url()}`);
}

export interface AxeCheck {
  /** What axe looks at; default the whole document. */
  include?: string[];
  /**
   * Elements left out, each with the reason — only third-party widgets whose markup the portal cannot change. The
   * selectors are CSS selectors of the page (a shadow root's content is left out with its host).
   */
  exclude?: Array<{ selector: string; why: string }>;
  /** axe's run options; default every rule axe has, violations only. */
  options?: RunOptions;
}

/** Runs axe over the page and answers its results. */
export async function runAxe(page: Page, check: AxeCheck = {}): Promise<AxeResults> {
  await injectAxe(page);
  const context: ElementContext = {
    include: check.include && check.include.length > 0 ? check.include : 'html',
    exclude: (check.exclude ?? []).map(({ selector }) => selector),
  };
  const options: RunOptions = { resultTypes: ['violations'], ...check.options };
  // plain values across the protocol; axe's own types would make playwright's serialisation types too deep
  const args: { context: unknown; options: unknown } = { context, options };
  const results: unknown = await page.evaluate(
    ({ context, options }) => (window as unknown as { axe: { run(c: unknown, o: unknown): Promise<unknown> } }).axe.run(context, options),
    args,
  );
  return results as AxeResults;
}

/** Violations of a failing impact. */
export function seriousViolations(results: AxeResults): Result[] {
  return results.violations.filter((violation) => FAILING_IMPACTS.includes(violation.impact ?? null));
}

/** Rule id, impact, help and its link, then each element: target selectors and what is wrong. */
export function formatViolations(violations: readonly Result[]): string {
  return violations
    .map((violation) => {
      const nodes = violation.nodes.map((node) => {
        const summary = (node.failureSummary ?? '').split('\n').map((line) => `        ${line}`).join('\n');
        return `    - ${node.target.map((selector) => JSON.stringify(selector)).join(' → ')}\n      ${node.html.slice(0, 200)}\n${summary}`;
      });
      return `  [${violation.impact}] ${violation.id}: ${violation.help} (${violation.helpUrl})\n${nodes.join('\n')}`;
    })
    .join('\n');
}

/** Runs axe and fails with every serious or critical violation printed. */
export async function expectAccessible(page: Page, check: AxeCheck = {}): Promise<AxeResults> {
  const results = await runAxe(page, check);
  const failing = seriousViolations(results);
  if (failing.length > 0) {
    throw new Error(`axe: ${failing.length} serious or critical violation(s) on ${page.url()}\n${formatViolations(failing)}`);
  }
  return results;
}
