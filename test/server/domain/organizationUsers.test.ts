/**
 * The learner CSV read a chunk at a time (issue 27: a file of 100,000 learners is decoded and parsed in pieces, with
 * turns of the event loop for other requests between them): the same rows whatever the chunk boundaries cut.
 */
import { expect } from 'chai';
import iconv from 'iconv-lite';
import { API_ERROR } from '../../../src/common/errorCodes.js';
import { CsvFormatProblem, USERS_CSV_HEADER, usersCsvRows, decodedCsv, type UsersCsvRow } from '../../../src/server/domain/organizationUsers.js';

/** A CSV of `count` learners with three-byte (UTF-8) and two-byte (CP932) names, a quoted cell with a line break every 97th. */
function csvOf(count: number): { text: string; rows: UsersCsvRow[] } {
  const rows = Array.from({ length: count }, (_, index): UsersCsvRow => ({
    id: String(index + 1),
    lastName: '学習者',
    firstName: index % 97 === 0 ? '太郎\n二行目' : `太郎${index}`,
    kanaLastName: 'がくしゅうしゃ',
    kanaFirstName: 'たろう',
    email: `learner${index}@example.com`,
    nameId: `N${index}`,
  }));
  const cell = (value: string) => (value.includes('\n') ? `"${value}"` : value);
  const lines = rows.map((row) => USERS_CSV_HEADER.map((column) => cell(row[column])).join(','));
  return { text: `${[USERS_CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`, rows };
}

async function rowsOf(file: Buffer): Promise<{ rows: UsersCsvRow[]; batches: number; encoding: string }> {
  const { text, encoding } = await decodedCsv(file);
  const rows: UsersCsvRow[] = [];
  let batches = 0;
  for await (const batch of usersCsvRows(text)) {
    rows.push(...batch);
    batches += 1;
  }
  return { rows, batches, encoding };
}

describe('domain/organizationUsers: the learner CSV read a chunk at a time (issue 27)', () => {
  const { text, rows } = csvOf(12_000); // about 1 MB: several 64 K chunks

  it('reads a file of several chunks as UTF-8 (with and without a byte-order mark) and as CP932: the same rows, in more than one batch', async () => {
    for (const file of [Buffer.from(text), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), iconv.encode(text, 'cp932')]) {
      const read = await rowsOf(file);
      expect(read.rows).to.deep.equal(rows);
      expect(read.batches).to.be.greaterThan(1);
    }
    expect((await rowsOf(iconv.encode(text, 'cp932'))).encoding).to.equal('cp932');
  });

  it('lets other work run while a large file is read (a turn of the event loop between chunks)', async () => {
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 0);
    try {
      await rowsOf(iconv.encode(text, 'cp932'));
    } finally {
      clearInterval(timer);
    }
    expect(turns).to.be.greaterThan(2);
  });

  it('names what is wrong with a file that is no learner table, wherever in it', async () => {
    const problem = async (file: Buffer) => rowsOf(file).then(() => undefined, (error: unknown) => (error instanceof CsvFormatProblem ? error.code : error));
    expect(await problem(Buffer.from(' \r\n '))).to.equal(API_ERROR.fileNotFound);
    expect(await problem(Buffer.from(text.replace('nameId', 'name')))).to.equal(API_ERROR.invalidHeader);
    expect(await problem(Buffer.from(`${text}"open,quote\r\n`))).to.equal(API_ERROR.malformedCsv); // a quote left open at the end
    expect(await problem(Buffer.from(text.replace(`learner11000@example.com,N11000`, 'learner11000@example.com')))).to.equal(API_ERROR.malformedCsv); // a row one cell short, far in
    expect(await problem(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), iconv.encode(text, 'cp932')]))).to.equal(API_ERROR.invalidCsvFormat); // a BOM, then no UTF-8
    expect(await problem(Buffer.from(text.replace('\r\n1,', '\r\n"1"x,')))).to.equal(API_ERROR.malformedCsv); // text after a closing quote
  });

  it('reads a quote inside a cell that is not quoted as the character it is, and quoted cells with commas, quotes and line breaks', async () => {
    const header = USERS_CSV_HEADER.join(',');
    const { rows } = await rowsOf(Buffer.from(`${header}\r\n1,山"田,"太,郎","""花""子","a\r\nb",x@example.com,\r\n`));
    expect(rows).to.deep.equal([{ id: '1', lastName: '山"田', firstName: '太,郎', kanaLastName: '"花"子', kanaFirstName: 'a\r\nb', email: 'x@example.com', nameId: '' }]);
  });
});
