import { expect } from 'chai';
import { onceByKey } from '../../src/common/onceByKey.js';

/** A `make` that answers each call with the next of `outcomes` (an Error is thrown), counting its calls. */
function maker(...outcomes: Array<string | Error>) {
  const counted = {
    calls: 0,
    async make(): Promise<string> {
      const outcome = outcomes[counted.calls++];
      if (outcome instanceof Error) throw outcome;
      return outcome;
    },
  };
  return counted;
}

const failure = (promise: Promise<unknown>) => promise.then(() => 'no failure', (error: Error) => error.message);

describe('onceByKey: a promise made once per key, dropped when it fails', () => {
  it('shares a success: every caller of the key gets the one promise, made once', async () => {
    const store = new Map<string, Promise<string>>();
    const counted = maker('first', 'second');
    const first = onceByKey(store, 'k', counted.make);
    expect(onceByKey(store, 'k', counted.make)).to.equal(first);
    expect(await first).to.equal('first');
    expect(await onceByKey(store, 'k', counted.make)).to.equal('first');
    expect(counted.calls).to.equal(1);
  });

  it('makes one promise per key', async () => {
    const store = new Map<string, Promise<string>>();
    expect(await onceByKey(store, 'a', async () => 'A')).to.equal('A');
    expect(await onceByKey(store, 'b', async () => 'B')).to.equal('B');
  });

  it('does not remember a failure: those waiting get it, the next caller makes the promise again', async () => {
    const store = new Map<string, Promise<string>>();
    const counted = maker(new Error('busy'), 'second');
    const waiting = [onceByKey(store, 'k', counted.make), onceByKey(store, 'k', counted.make)];
    expect(await Promise.all(waiting.map(failure))).to.deep.equal(['busy', 'busy']);
    expect(await onceByKey(store, 'k', counted.make)).to.equal('second');
    expect(counted.calls).to.equal(2);
  });

  it('keeps a WeakMap by object keys, and a failure there is dropped as well', async () => {
    const store = new WeakMap<object, Promise<string>>();
    const key = {};
    const counted = maker(new Error('lost connection'), 'keys');
    expect(await failure(onceByKey(store, key, counted.make))).to.equal('lost connection');
    expect(await onceByKey(store, key, counted.make)).to.equal('keys');
  });

  it('drops only the promise that failed, not one that replaced it meanwhile', async () => {
    const store = new Map<string, Promise<string>>();
    let fail!: (error: Error) => void;
    const failing = onceByKey(store, 'k', () => new Promise<string>((_, reject) => (fail = reject)));
    store.delete('k');
    const replacement = onceByKey(store, 'k', async () => 'replacement');
    fail(new Error('stale'));
    expect(await failure(failing)).to.equal('stale');
    expect(store.get('k')).to.equal(replacement);
  });
});
