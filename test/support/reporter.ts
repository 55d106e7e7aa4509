/**
 * Mocha's spec reporter, and for a test that fails and is retried (`retries` in .mocharc.json) the error of the
 * failed attempt: otherwise a test that passes on its retry leaves no trace of why it failed (test/support/retries.ts
 * names it), and a flaky test cannot be understood from a CI log.
 */
import Mocha, { type MochaOptions, type Runner, type Test } from 'mocha';

const FIRST_LINES = 15;

export default class SpecWithRetries extends Mocha.reporters.Spec {
  constructor(runner: Runner, options?: MochaOptions) {
    super(runner, options);
    runner.on(Mocha.Runner.constants.EVENT_TEST_RETRY, (test: Test, error: unknown) => {
      const lines = String((error as Error | undefined)?.stack ?? error).split('\n').slice(0, FIRST_LINES);
      console.log(`      ↻ failed, retried: ${test.fullTitle()}\n${lines.map((line) => `        ${line}`).join('\n')}`);
    });
  }
}
