/**
 * Batches read from the database, the next one asked for as soon as one arrives: the database reads it while the
 * portal works on this one, on the other core (issue 27: an export of the trail's 2,000 batches waited ~1 ms for each).
 * One query at a time still: an async generator takes the next request only once it has yielded.
 */
export async function* readAhead<T>(batches: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = batches[Symbol.asyncIterator]();
  try {
    for (let next = iterator.next(); ; ) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      next.catch(() => undefined); // its error is met at the await above, or nobody waits for it any more
      yield result.value;
    }
  } finally {
    await iterator.return?.(); // a reader gone: no more batches are read
  }
}
