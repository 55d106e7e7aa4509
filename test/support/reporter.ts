/**
 * Mocha's spec reporter, and for a test that fails and is retried (`retries` in .mocharc.json) the error of the
 * failed attempt: otherwise a test that passes on its retry leaves no trace of why it failed (test/support/retries.ts
 * names it), and a flaky test cannot be understood from a CI log. At the end it lists the slowest test files, so
 * that a CI run that grows longer shows where its time went (`SLOWEST_FILES=200` lists them all).
 */
import Mocha, { type MochaOptions, type Runner, type Suite, type Test } from 'mocha';

const FIRST_LINES = 15;
const SLOWEST_FILES = Number(process.env.SLOWEST_FILES ?? 12);

export default class SpecWithRetries extends Mocha.reporters.Spec {
  constructor(runner: Runner, options?: MochaOptions) {
    super(runner, options);
    runner.on(Mocha.Runner.constants.EVENT_TEST_RETRY, (test: Test, error: unknown) => {
      const lines = String((error as Error | undefined)?.stack ?? error).split('\n').slice(0, FIRST_LINES);
      console.log(`      ↻ failed, retried: ${test.fullTitle()}\n${lines.map((line) => `        ${line}`).join('\n')}`);
    });
    const fileTimes = new Map<string, number>();
    let started = 0;
    runner.on(Mocha.Runner.constants.EVENT_SUITE_BEGIN, (suite: Suite) => {
      if (suite.parent?.root) started = Date.now();
    });
    runner.on(Mocha.Runner.constants.EVENT_SUITE_END, (suite: Suite) => {
      if (!suite.parent?.root || !suite.file) return;
      const file = suite.file.replace(`${process.cwd()}/`, '');
      fileTimes.set(file, (fileTimes.get(file) ?? 0) + Date.now() - started);
    });
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const slowest = [...fileTimes].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_FILES);
      console.log(`\n  slowest test files:\n${slowest.map(([file, ms]) => `    ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`).join('\n')}`);
    });
  }
}
