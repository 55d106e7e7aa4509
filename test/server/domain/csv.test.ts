/**
 * The CSV files' cells (domain/csv.ts): written as csv-stringify writes them after the formula guard, a line break
 * quoted as RFC 4180 asks (csv-stringify's `quote_record_delimiter`, off by default once CRLF records are asked for: the
 * files left a lone LF unquoted before issue 47), for the values that are hard to get right; csv-parse reads each back.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { csvCell, csvLine, guardCsvCell, unguardCsvCell } from '../../../src/server/domain/csv.js';

/** Values a cell must quote, guard, or leave alone. */
const HARD_VALUES = [
  '', 'plain', '山田 太郎', 'a,b', 'say "hi"', '"', '""', 'line\nbreak', 'cr\rhere', 'crlf\r\nend', 'ends with cr\r', '\r', '\n',
  '=SUM(A1)', '+1', '-1', '@here', '\tindented', '\rreturn', "'=quoted", "''+two", "'plain", "it's", 'a-b', 'x=1', ' =spaced',
  '=a,"b"', '\t"tab,quote"', '\u0001control', 'tab\tinside', '\u2028line separator', '＝full-width', '😀 emoji, comma',
];

const STRINGIFY_OPTIONS = { record_delimiter: 'windows', quote_record_delimiter: true } as const;

describe('CSV cells: written as csv-stringify writes them (issue 47)', () => {
  it("writes each hard value as csv-stringify's cell, after the formula guard", () => {
    for (const value of HARD_VALUES) expect(csvCell(value), JSON.stringify(value)).to.equal(stringify([[guardCsvCell(value)]], STRINGIFY_OPTIONS).slice(0, -2));
    expect(csvCell(null)).to.equal('');
  });

  it("writes a record's line as csv-stringify writes the record, CRLF-ended", () => {
    const cells = ['1', '=1+1', 'a,b', null, 'x'];
    expect(csvLine(cells)).to.equal(stringify([cells.map((cell) => (cell === null ? null : guardCsvCell(cell)))], STRINGIFY_OPTIONS));
  });

  it('writes lines csv-parse reads back as the guarded values, line breaks inside a cell included', () => {
    const text = HARD_VALUES.map((value) => csvLine([value, 'next'])).join('');
    expect(parse(text, { record_delimiter: '\r\n' })).to.deep.equal(HARD_VALUES.map((value) => [guardCsvCell(value), 'next']));
  });

  it('takes exactly the guard off an uploaded cell', () => {
    for (const value of HARD_VALUES) expect(unguardCsvCell(guardCsvCell(value)), JSON.stringify(value)).to.equal(value);
  });
});
