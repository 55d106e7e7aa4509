/**
 * The CSV files the portal writes, the learners' list and the audit trail (issue 25 finding 3): one format (a header
 * first, CRLF, formula cells guarded, a UTF-8 byte-order mark where asked) and one way to write them, a stream of
 * records read from the database a batch at a time, so an export of any size holds one batch in memory.
 *
 * A file holds at most `maxRows` records (CSV_EXPORT_MAX_ROWS); where there are more, its last line says it was cut
 * there, rather than ending as if it were complete.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';

/**
 * A cell a spreadsheet would read as a formula (OWASP CSV injection: =, +, -, @, tab, carriage return), also behind
 * leading single quotes: such a value gets one more quote on export, and the upload takes exactly that one off, so a
 * downloaded file uploads unchanged whatever the stored value (issue 15 finding 10).
 */
const FORMULA_CELL = /^'*[=+\-@\t\r]/;

export function guardCsvCell(value: string): string {
  return FORMULA_CELL.test(value) ? `'${value}` : value;
}

export function unguardCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_CELL.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/**
 * The rows read at once: a batch's memory is the export's, and its conversion one turn of the event loop (issue 27:
 * 1,000 learners a turn read up to 55 ms on a slow day, over the 50 ms a request may hold it).
 */
export const CSV_BATCH_ROWS = 500;

export interface CsvFile {
  columns: readonly string[];
  /** A UTF-8 byte-order mark first (the audit trail; the learners' page adds its own when it saves the file). */
  bom: boolean;
  maxRows: number;
}

/** The last line of a file cut at `maxRows` records. */
export const cutNote = (maxRows: number) => `# cut at ${maxRows} rows (CSV_EXPORT_MAX_ROWS): narrow the filters for the rest`;

/** The batches with formula cells guarded, cut after `maxRows` records with the note as the last line. */
async function* guardedBatches(file: CsvFile, batches: AsyncIterable<ReadonlyArray<readonly string[]>>): AsyncGenerator<string[][]> {
  let written = 0;
  for await (const batch of batches) {
    const room = file.maxRows - written;
    const kept = batch.slice(0, room).map((record) => record.map(guardCsvCell));
    written += kept.length;
    if (kept.length > 0) yield kept;
    if (batch.length > room) {
      yield [[cutNote(file.maxRows), ...file.columns.slice(1).map(() => '')]];
      return; // leaves the batches' generator: no more rows are read
    }
  }
}

const CSV_OPTIONS = { record_delimiter: 'windows' } as const;

/** The file's text a batch at a time: one string per batch (a record at a time through a stream cost ~40 µs a row, issue 27). */
async function* csvText(file: CsvFile, batches: AsyncIterable<ReadonlyArray<readonly string[]>>): AsyncGenerator<string> {
  yield (file.bom ? '\uFEFF' : '') + stringify([[...file.columns]], CSV_OPTIONS);
  for await (const records of guardedBatches(file, batches)) yield stringify(records, CSV_OPTIONS);
}

/**
 * The file as a stream: batches are read only as fast as the stream is consumed; a database error destroys the stream
 * with it (the reply ends cut short), a client gone stops the reading.
 */
export function csvStream(file: CsvFile, batches: AsyncIterable<ReadonlyArray<readonly string[]>>): Readable {
  return Readable.from(csvText(file, batches), { objectMode: false });
}
