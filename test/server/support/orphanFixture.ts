/**
 * Not a test of its own (no .test.ts): test/server/main.test.ts runs it with mocha. Its hook starts a process group
 * (sh and its sleep) through test/support/children.ts, prints their ids, and never finishes: mocha times it out and
 * exits (--exit); the group must not outlive it.
 */
import { spawnChild } from '../../support/children.js';

describe('a hook that times out while its server is starting', function () {
  this.timeout(1_000);
  before(async () => {
    const child = spawnChild('sh', ['-c', 'sleep 300 & echo "GRANDCHILD $!"; wait'], { stdio: ['ignore', 'inherit', 'inherit'] });
    console.log(`CHILD ${child.pid}`);
    await new Promise(() => undefined);
  });

  it('never runs', () => undefined);
});
