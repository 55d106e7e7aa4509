/**
 * Batches read from the database, the next one asked for as soon as one arrives: the database reads it while the
 * portal works on this one, on the other core (issue 27: an export of the trail's 2,000 batches waited ~1 ms for each).
 * One query at a time still: an async generator takes the next request only once it has yielded.
 *
 * On PostgreSQL each batch is handed on one turn of the event loop later: pg's pool hands its connection to the next
 * query in a process.nextTick, which runs only once the microtasks have run dry, so a batch worked on at once held the
 * next query back until its work ended (the trail's export of 500,000 entries: 3.7 s, 3.1 with the turn; issue 47).
 * The turn also lets other requests in between two batches. Not on PGlite, whose queries run on the portal's own
 * thread: there the turn only spreads the same work over more turns (the learners' CSV at 100,000: 0.8 → 1.1 s).
 */
const onAnotherCore = new WeakSet<object>();

/** Marks a database whose queries run in another process (PostgreSQL: db/index.ts); transactions are not marked. */
export function queriesRunElsewhere(db: object): void {
  onAnotherCore.add(db);
}

/** Whether `db` was marked by queriesRunElsewhere (a transaction: whether the database it was opened on was). */
export const runsElsewhere = (db: object): boolean => onAnotherCore.has(db);

export async function* readAhead<T>(db: object, batches: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = batches[Symbol.asyncIterator]();
  const turn = runsElsewhere(db);
  try {
    for (let next = iterator.next(); ; ) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      next.catch(() => undefined); // its error is met at the await above, or nobody waits for it any more
      if (turn) await new Promise((resolve) => setImmediate(resolve));
      yield result.value;
    }
  } finally {
    await iterator.return?.(); // a reader gone: no more batches are read
  }
}
