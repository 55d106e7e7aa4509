/**
 * Batches read ahead (issue 27): the next one is asked for while the reader works on this one, one query at a time;
 * from a database in another process (PostgreSQL) each batch a turn of the event loop later (issue 47).
 */
import { expect } from 'chai';
import { queriesRunElsewhere, readAhead, runsElsewhere } from '../../../src/server/db/readAhead.js';

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

/** A database whose queries run on this thread (PGlite), and one whose run in another process (PostgreSQL). */
const here = {};
const elsewhere = {};
queriesRunElsewhere(elsewhere);

describe('server/db/readAhead', () => {
  it('tells a database marked as running its queries elsewhere from one that is not', () => {
    expect([runsElsewhere(elsewhere), runsElsewhere(here)]).to.deep.equal([true, false]);
  });

  /** Batches whose reads start in a process.nextTick, as pg's pool hands a query its connection. */
  async function* sentInANextTick(log: string[]): AsyncGenerator<number> {
    for (let batch = 1; batch <= 2; batch++) {
      await new Promise((resolve) => process.nextTick(resolve));
      log.push(`sent ${batch}`);
      await new Promise((resolve) => setImmediate(resolve));
      yield batch;
    }
  }

  it("from a database in another process, sends the next read before the reader works on this batch, also one started in a process.nextTick (pg's pool)", async () => {
    const log: string[] = [];
    for await (const batch of readAhead(elsewhere, sentInANextTick(log))) log.push(`use ${batch}`);
    expect(log).to.deep.equal(['sent 1', 'sent 2', 'use 1', 'use 2']);
  });

  it("from a database on the portal's thread, hands each batch on at once (no turn between)", async () => {
    const log: string[] = [];
    for await (const batch of readAhead(here, sentInANextTick(log))) log.push(`use ${batch}`);
    expect(log).to.deep.equal(['sent 1', 'use 1', 'sent 2', 'use 2']);
  });

  it('reads the next batch while the reader works on this one, and every batch in order', async () => {
    const { log, batches } = source(3);
    const seen: number[] = [];
    for await (const batch of readAhead(here, batches)) {
      log.push(`use ${batch}`);
      seen.push(batch);
    }
    expect(seen).to.deep.equal([1, 2, 3]);
    // batch 2 is being read before batch 1 is used, and never two reads at once
    expect(log.slice(0, 4)).to.deep.equal(['read 1', 'got 1', 'read 2', 'use 1']);
    expect(log.filter((line) => line.startsWith('read') || line.startsWith('got'))).to.deep.equal(['read 1', 'got 1', 'read 2', 'got 2', 'read 3', 'got 3']);
    expect(log).to.include('closed');
  });

  for (const [where, database] of [['on the portal\'s thread', here], ['in another process', elsewhere]] as const) {
    describe(`a database ${where}`, () => {
      it('stops reading when the reader goes away, after the read under way has ended', async () => {
        const { log, batches } = source(10);
        for await (const batch of readAhead(database, batches)) if (batch === 2) break;
        expect(log).to.not.include('read 4');
        expect(log.at(-1)).to.equal('closed');
      });

      it("gives a read's error to the reader at the batch it failed", async () => {
        const { batches } = source(5, 3);
        const seen: number[] = [];
        let failure: unknown;
        try {
          for await (const batch of readAhead(database, batches)) seen.push(batch);
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
          for await (const batch of readAhead(database, batches)) if (batch === 1) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect(unhandled).to.deep.equal([]);
        } finally {
          process.off('unhandledRejection', onUnhandled);
        }
      });
    });
  }
});
