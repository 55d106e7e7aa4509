/**
 * Mocha root hooks: a test that failed and then passed on its retry (`retries` in .mocharc.json) is named in the
 * output, so a flaky test is seen and fixed rather than hidden. A test failing twice fails the run as before.
 */
import type { Context } from 'mocha';

export const mochaHooks = {
  afterEach(this: Context) {
    const test = this.currentTest;
    if (test && test.state === 'passed' && (test as unknown as { currentRetry(): number }).currentRetry() > 0) {
      console.log(`      ↻ passed on its retry (flaky, fix it): ${test.fullTitle()}`);
    }
  },
};
