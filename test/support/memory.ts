/**
 * Mocha root hook: the test process's peak resident memory, printed after the last test as `peak memory: N MB`.
 * scripts/test.ts reads it for each group and fails a group past its limit, so a test that leaves a database or a
 * server open shows as a number that grows rather than as a machine that runs out of memory.
 */
export const mochaHooks = {
  afterAll() {
    // resourceUsage().maxRSS is in kilobytes
    console.log(`peak memory: ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  },
};
