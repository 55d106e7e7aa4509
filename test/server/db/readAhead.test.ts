/** Batches read ahead (issue 27): the next one is asked for while the reader works on this one, one query at a time. */
import { expect } from 'chai';
import { readAhead } from '../../../src/server/db/readAhead.js';

/** A source of `count` batches that logs when each read starts and ends, and whether it was closed. */
function source(count: number, failAt?: number) {
  const log: string[] = [];
  async function* batches(): AsyncGenerator<number> {
    try {
      for (let batch = 1; batch <= count; batch++) {
        log.push(`read ${batch}`);
        await new Promise((resolve) => setImmediate(resolve));
        if (batch === failAt) throw new Error(`batch ${batch} failed`);
        log.push(`got ${batch}`);
        yield batch;
      }
    } finally {
      log.push('closed');
    }
  }
  return { log, batches: batches() };
}

describe('server/db/readAhead', () => {
  it('reads the next batch while the reader works on this one, and every batch in order', async () => {
    const { log, batches } = source(3);
    const seen: number[] = [];
    for await (const batch of readAhead(batches)) {
      log.push(`use ${batch}`);
      seen.push(batch);
    }
    expect(seen).to.deep.equal([1, 2, 3]);
    // batch 2 is being read before batch 1 is used, and never two reads at once
    expect(log.slice(0, 4)).to.deep.equal(['read 1', 'got 1', 'read 2', 'use 1']);
    expect(log.filter((line) => line.startsWith('read') || line.startsWith('got'))).to.deep.equal(['read 1', 'got 1', 'read 2', 'got 2', 'read 3', 'got 3']);
    expect(log).to.include('closed');
  });

  it('stops reading when the reader goes away, after the read under way has ended', async () => {
    const { log, batches } = source(10);
    for await (const batch of readAhead(batches)) if (batch === 2) break;
    expect(log).to.not.include('read 4');
    expect(log.at(-1)).to.equal('closed');
  });

  it("gives a read's error to the reader at the batch it failed", async () => {
    const { batches } = source(5, 3);
    const seen: number[] = [];
    let failure: unknown;
    try {
      for await (const batch of readAhead(batches)) seen.push(batch);
    } catch (error) {
      failure = error;
    }
    expect(seen).to.deep.equal([1, 2]);
    expect((failure as Error).message).to.equal('batch 3 failed');
  });

  it('leaves no unhandled rejection when a read ahead fails after the reader has gone', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { batches } = source(5, 2);
      for await (const batch of readAhead(batches)) if (batch === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
