/**
 * Rows by id, `size` at a time: each batch read after the last id of the one before (a keyset, so each read is a range
 * of an index by id), until a batch comes back short. Each batch is its own turn of the event loop.
 */
export async function* batchesAfterId<Row extends { id: number }>(read: (after: number) => Promise<Row[]>, size: number): AsyncGenerator<Row[]> {
  for (let after = 0; ; ) {
    const rows = await read(after);
    yield rows;
    if (rows.length < size) return;
    after = rows.at(-1)!.id;
  }
}
