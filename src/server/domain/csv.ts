/**
 * The CSV files the portal writes, the learners' list and the audit trail (issue 25 finding 3): one format (a header
 * first, CRLF, formula cells guarded, a UTF-8 byte-order mark where asked) and one way to write them, a stream of
 * records read from the database a batch at a time, so an export of any size holds one batch in memory.
 *
 * A file holds at most `maxRows` records (CSV_EXPORT_MAX_ROWS); where there are more, its last line says it was cut
 * there, rather than ending as if it were complete.
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

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

/** The rows read at once: a batch's memory is the export's. */
export const CSV_BATCH_ROWS = 1000;

export interface CsvFile {
  columns: readonly string[];
  /** A UTF-8 byte-order mark first (the audit trail; the learners' page adds its own when it saves the file). */
  bom: boolean;
  maxRows: number;
}

/** The last line of a file cut at `maxRows` records. */
export const cutNote = (maxRows: number) => `# cut at ${maxRows} rows (CSV_EXPORT_MAX_ROWS): narrow the filters for the rest`;

async function* guardedRecords(file: CsvFile, batches: AsyncIterable<ReadonlyArray<readonly string[]>>): AsyncGenerator<string[]> {
  let written = 0;
  for await (const batch of batches) {
    for (const record of batch) {
      if (written === file.maxRows) {
        yield [cutNote(file.maxRows), ...file.columns.slice(1).map(() => '')];
        return; // leaves the batches' generator: no more rows are read
      }
      written++;
      yield record.map(guardCsvCell);
    }
  }
}

/** The file as a stream: records are read (batch by batch) only as fast as the stream is consumed. */
export function csvStream(file: CsvFile, batches: AsyncIterable<ReadonlyArray<readonly string[]>>): Readable {
  const stringifier = stringify({ header: true, columns: [...file.columns], record_delimiter: 'windows', bom: file.bom });
  // a database error destroys the returned stream with it (the reply ends cut short); a client gone stops the reading
  return pipeline(Readable.from(guardedRecords(file, batches)), stringifier, () => undefined);
}
