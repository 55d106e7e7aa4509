import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'chai';
import { createTestApp } from './support/testApp.js';

// a full collection on demand, without starting node with --expose-gc
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** Builds an app, serves a request (the metrics too), closes it, and answers a weak reference to its database. */
async function closedAppDatabase(): Promise<WeakRef<object>> {
  const testApp = await createTestApp();
  await testApp.app.inject({ url: '/metrics' });
  const database = new WeakRef(testApp.testDatabase.database);
  await testApp.close();
  return database;
}

describe('server/app memory', () => {
  it('a closed app leaves nothing that keeps its database alive (the test process builds hundreds of apps)', async function () {
    this.timeout(90_000);
    const databases = [await closedAppDatabase(), await closedAppDatabase()];
    // let closing timers and sockets run out, then collect
    // closing timers and sockets run out within moments; what is kept for good never goes
    const collected = () => databases.every((database) => database.deref() === undefined);
    for (const deadline = Date.now() + 20_000; !collected() && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      collectGarbage();
    }
    expect(databases.map((database) => database.deref() === undefined)).to.deep.equal([true, true]);
  });
});
