/**
 * The CSV files the portal writes, the learners' list and the audit trail (issue 25 finding 3): one format (a header
 * first, CRLF, formula cells guarded, a UTF-8 byte-order mark where asked) and one way to write them, a stream of
 * records read from the database a batch at a time, so an export of any size holds one batch in memory.
 *
 * A cell is written as csv-stringify writes it (test/server/domain/csv.test.ts holds the two together), a line at a
 * time: csv-stringify's per-cell options were a tenth of the trail's export in the portal's CPU (issue 47).
 *
 * A file holds at most `maxRows` records (CSV_EXPORT_MAX_ROWS); where there are more, its last line says it was cut
 * there, rather than ending as if it were complete.
 */
import { Readable } from 'node:stream';

/**
 * A cell a spreadsheet would read as a formula (OWASP CSV injection: =, +, -, @, tab, carriage return), also behind
 * leading single quotes: such a value gets one more quote on export, and the upload takes exactly that one off, so a
 * downloaded file uploads unchanged whatever the stored value (issue 15 finding 10).
 */
const FORMULA_CELL = /^'*[=+\-@\t\r]/;

/**
 * A cell quoted (RFC 4180): one that holds the delimiter, a quote or a line break. A line break alone was left
 * unquoted before issue 47 (csv-stringify's `quote_record_delimiter` is off once CRLF records are asked for), and a
 * reader took it for the end of the record.
 */
const QUOTED_CELL = /[,"\r\n]/;

export function guardCsvCell(value: string): string {
  return FORMULA_CELL.test(value) ? `'${value}` : value;
}

export function unguardCsvCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_CELL.test(cell.slice(1)) ? cell.slice(1) : cell;
}

/** A value as a file's cell: guarded, quoted where it must be; null is an empty cell. */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const guarded = guardCsvCell(value);
  return QUOTED_CELL.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** Cells as one record's line. */
export const csvLine = (cells: ReadonlyArray<string | null>): string => `${cells.map(csvCell).join(',')}\r\n`;

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

/**
 * The file's text, one string a batch (a record at a time through a stream cost ~40 µs a row, issue 27), cut after
 * `maxRows` records with the note as the last line.
 */
async function* csvText(file: CsvFile, batches: AsyncIterable<readonly string[]>): AsyncGenerator<string> {
  yield (file.bom ? '\uFEFF' : '') + csvLine(file.columns);
  let written = 0;
  for await (const lines of batches) {
    const room = file.maxRows - written;
    const kept = lines.length > room ? lines.slice(0, room) : lines;
    written += kept.length;
    if (kept.length > 0) yield kept.join('');
    if (lines.length > room) {
      yield csvLine([cutNote(file.maxRows), ...file.columns.slice(1).map(() => '')]);
      return; // leaves the batches' generator: no more rows are read
    }
  }
}

/**
 * The file as a stream, from batches of its records' lines (csvLine): batches are read only as fast as the stream is
 * consumed; a database error destroys the stream with it (the reply ends cut short), a client gone stops the reading.
 */
export function csvStream(file: CsvFile, batches: AsyncIterable<readonly string[]>): Readable {
  return Readable.from(csvText(file, batches), { objectMode: false });
}
