import { Readable } from 'node:stream';
import { TokenParser } from '@streamparser/json';
import { expect } from 'chai';
import iconv from 'iconv-lite';
import { sql } from 'kysely';
import { KEY_ALLOWANCE } from '../../../src/server/api/jsonBody.js';
import { MAX_BULK_UPDATE_ROWS } from '../../../src/server/api/organizationUsers.js';
import { MAX_TOKEN_BYTES } from '../../../src/server/api/streamedJsonBody.js';
import { addLearners } from '../../../src/server/db/seed/learners.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { createTestApp, createTestDatabase, useTestApp } from '../support/testApp.js';

const HEADER = 'id,lastName,firstName,kanaLastName,kanaFirstName,email,nameId';

interface WireUser {
  id: number;
  last_name: string;
  first_name: string;
  kana_last_name: string;
  kana_first_name: string;
  email: string;
  name_id: string;
  name_id_type: string | null;
}

/** A multipart/form-data body with one file part. */
function multipart(content: string | Buffer, field = 'csv'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----usersTestBoundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('The learners of an organisation (SPEC 2.15 Users, §7 Users)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', USERS_CSV_MAX_BYTES: '4096', USERS_BULK_UPDATE_MAX_BYTES: '8000' } });
  let manager: string;

  before(async () => {
    manager = await accessToken(ctx.app, { sub: '1' });
  });

  const list = async (token = manager, orgId = 1): Promise<WireUser[]> => {
    const response = await ctx.app.inject({ url: `/api/v2/organizations/${orgId}/users`, headers: bearer(token) });
    expect(response.statusCode, response.body).to.equal(200);
    return response.json().users;
  };
  const csv = async (): Promise<string> => {
    const response = await ctx.app.inject({ url: '/api/v2/organizations/1/users/csv', headers: bearer(manager) });
    expect(response.statusCode).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/csv/);
    return response.body;
  };
  const preview = (content: string | Buffer, field = 'csv', orgId = 1, token = manager) => {
    const { payload, headers } = multipart(content, field);
    return ctx.app.inject({ method: 'POST', url: `/api/v2/organizations/${orgId}/users/preview`, payload, headers: { ...headers, ...bearer(token) } });
  };
  const bulkUpdate = (users: unknown[], orgId = 1, token = manager) =>
    ctx.app.inject({ method: 'POST', url: `/api/v2/organizations/${orgId}/users/bulk_update`, payload: { users }, headers: bearer(token) });
  /** The downloaded CSV with line `lineNo` (1 = header) changed. */
  const editLine = (text: string, lineNo: number, edit: (cells: string[]) => string[]) =>
    text
      .split('\r\n')
      .map((line, index) => (index === lineNo - 1 ? edit(line.split(',')).join(',') : line))
      .join('\r\n');

  it("lists the organisation's twelve demo learners by id, with nameId and nameIdType", async () => {
    const users = await list();
    expect(users).to.have.length(12);
    expect(users[0]).to.deep.include({ last_name: '青木', first_name: '健太', email: 'aoki.kenta@example.com', name_id: 'EMP0001', name_id_type: 'nameId' });
    expect(users.map((user) => user.id)).to.deep.equal([...users.map((user) => user.id)].sort((a, b) => a - b));
  });

  it('pages the list by id with per_page and after (issue 27): every learner once, next_after null on the last page', async () => {
    const all = await list();
    const pages: WireUser[][] = [];
    for (let after: number | null = 0; after !== null; ) {
      const response = await ctx.app.inject({ url: `/api/v2/organizations/1/users?per_page=5&after=${after}`, headers: bearer(manager) });
      expect(response.statusCode, response.body).to.equal(200);
      const page = response.json() as { users: WireUser[]; next_after: number | null };
      pages.push(page.users);
      after = page.next_after;
    }
    expect(pages.map((page) => page.length)).to.deep.equal([5, 5, 2]);
    expect(pages.flat()).to.deep.equal(all);
  });

  it('answers a page of exactly the last learners with next_after null, and refuses unbounded or garbage paging (422)', async () => {
    const twelve = await ctx.app.inject({ url: '/api/v2/organizations/1/users?per_page=12', headers: bearer(manager) });
    expect(twelve.json().next_after).to.equal(null);
    expect(twelve.json().users).to.have.length(12);
    for (const query of ['per_page=0', 'per_page=1001', 'per_page=x', 'per_page=5&after=-1', 'per_page=5&after=1e99']) {
      const response = await ctx.app.inject({ url: `/api/v2/organizations/1/users?${query}`, headers: bearer(manager) });
      expect(response.statusCode, query).to.equal(422);
    }
  });

  it('downloads the list as CSV: the header, then one row per learner', async () => {
    const lines = (await csv()).trimEnd().split('\r\n');
    expect(lines[0]).to.equal(HEADER);
    expect(lines).to.have.length(13);
    expect(lines[1]).to.match(/^\d+,青木,健太,あおき,けんた,aoki\.kenta@example\.com,EMP0001$/);
  });

  it('previews the downloaded CSV unchanged (with a byte-order mark) as the same users, writing nothing', async () => {
    const response = await preview(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(await csv())]));
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().users).to.deep.equal(await list());
  });

  it('guards cells a spreadsheet would run as formulas with a single quote, and reads the downloaded file back unchanged (issue 15 finding 10)', async () => {
    const users = await list();
    const [, first, second, third] = users;
    const formulas = [
      { id: first!.id, lastName: '=HYPERLINK("http://evil.example","x")', firstName: '+1', kanaLastName: '-2', kanaFirstName: '@SUM(A1)', email: '-x@example.com' },
      { id: second!.id, lastName: '\tタブ', firstName: '\r改行', kanaLastName: 'あ', kanaFirstName: 'い', email: second!.email },
      // a stored value with quotes of its own keeps them
      { id: third!.id, lastName: "'=quoted", firstName: "''@twice", kanaLastName: "'plain", kanaFirstName: 'う', email: third!.email },
    ];
    const update = (user: { id: number; lastName: string; firstName: string; kanaLastName: string; kanaFirstName: string; email: string }) =>
      ctx.db.updateTable('organizationUsers').set({ lastName: user.lastName, firstName: user.firstName, kanaLastName: user.kanaLastName, kanaFirstName: user.kanaFirstName, email: user.email }).where('id', '=', user.id).execute();
    const originals = [first!, second!, third!].map((user) => ({ id: user.id, lastName: user.last_name, firstName: user.first_name, kanaLastName: user.kana_last_name, kanaFirstName: user.kana_first_name, email: user.email }));
    try {
      for (const user of formulas) await update(user);
      const text = await csv();
      const { parse } = await import('csv-parse/sync');
      const cells = (parse(text) as string[][]).slice(1).flat();
      expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).to.deep.equal([]);
      const rows = parse(text) as string[][];
      expect(rows[2]!.slice(1, 6)).to.deep.equal(["'=HYPERLINK(\"http://evil.example\",\"x\")", "'+1", "'-2", "'@SUM(A1)", "'-x@example.com"]);
      expect(rows[3]!.slice(1, 3)).to.deep.equal(["'\tタブ", "'\r改行"]);
      expect(rows[4]!.slice(1, 4)).to.deep.equal(["''=quoted", "'''@twice", "'plain"]);
      const response = await preview(text);
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().users).to.deep.equal(await list());
    } finally {
      for (const user of originals) await update(user);
    }
  });

  it("writes a stored value holding the separators the database joins a batch's cells with as it is (issue 47)", async () => {
    const [first] = await list();
    try {
      await ctx.db.updateTable('organizationUsers').set({ lastName: '青\x1f木', firstName: '健\x1e太' }).where('id', '=', first!.id).execute();
      const lines = (await csv()).trimEnd().split('\r\n');
      expect(lines).to.have.length(13);
      expect(lines[1]).to.equal(`${first!.id},青\x1f木,健\x1e太,あおき,けんた,aoki.kenta@example.com,EMP0001`);
      expect(lines[2]).to.match(/^\d+,[^\x1e\x1f]+$/);
    } finally {
      await ctx.db.updateTable('organizationUsers').set({ lastName: first!.last_name, firstName: first!.first_name }).where('id', '=', first!.id).execute();
    }
  });

  describe('the files Japanese Excel saves (issue 19)', () => {
    /** Sets learners' stored names for one test, and puts the old ones back. */
    const withNames = async (names: Array<{ index: number; lastName: string; firstName?: string }>, test: () => Promise<void>) => {
      const users = await list();
      const set = (id: number, lastName: string, firstName: string) => ctx.db.updateTable('organizationUsers').set({ lastName, firstName }).where('id', '=', id).execute();
      try {
        for (const name of names) await set(users[name.index]!.id, name.lastName, name.firstName ?? users[name.index]!.first_name);
        await test();
      } finally {
        for (const name of names) await set(users[name.index]!.id, users[name.index]!.last_name, users[name.index]!.first_name);
      }
    };

    it('reads UTF-8 without a byte-order mark and CP932 ("CSV (カンマ区切り)") alike: only the edited cell differs', async () => {
      const edited = editLine(await csv(), 3, (cells) => [...cells.slice(0, 6), 'SJIS01']);
      for (const file of [Buffer.from(edited), iconv.encode(edited, 'cp932')]) {
        const response = await preview(file);
        expect(response.statusCode, response.body).to.equal(200);
        const expected = (await list()).map((user, index) => (index === 1 ? { ...user, name_id: 'SJIS01' } : user));
        expect(response.json().users).to.deep.equal(expected);
      }
    });

    it('quotes cells holding a comma, a quote or a line break, and reads them back unchanged in both encodings', async () => {
      await withNames([{ index: 0, lastName: '青木, "株"', firstName: '健\r\n太' }], async () => {
        const text = await csv();
        expect(text.split('\r\n')[1]).to.match(/^\d+,"青木, ""株""","健$/);
        for (const file of [Buffer.from(text), iconv.encode(text, 'cp932')]) {
          const response = await preview(file);
          expect(response.statusCode, response.body).to.equal(200);
          expect(response.json().users).to.deep.equal(await list());
        }
      });
    });

    it("names a row whose character CP932 could not keep ('?' for 𠮷) as lostCharacter, not as a changed name", async () => {
      await withNames([{ index: 2, lastName: '𠮷田' }], async () => {
        const response = await preview(iconv.encode(await csv(), 'cp932')); // Excel writes '?' for what CP932 has not
        expect(response.statusCode, response.body).to.equal(422);
        expect(response.json().errors).to.deep.equal([{ field: 'last_name', code: 'lostCharacter', meta: { row_no: 4 } }]);
        expect(response.json().users[2].last_name).to.equal('?田');
        // a real edit to '?田' of a name CP932 can hold stays an edit
        const edited = editLine(await csv(), 2, (cells) => [cells[0]!, '?木', ...cells.slice(2)]);
        expect((await preview(iconv.encode(edited, 'cp932'))).json().errors[0]).to.deep.equal({ field: 'last_name', code: 'cannotBeChanged', meta: { row_no: 2 } });
      });
    });

    it('names a row holding U+FFFD (a character a converting tool lost) as lostCharacter', async () => {
      const text = editLine(await csv(), 5, (cells) => [cells[0]!, `${cells[1]!.slice(0, 1)}\uFFFD`, ...cells.slice(2, 6), 'A\uFFFD']);
      const response = await preview(text);
      expect(response.statusCode, response.body).to.equal(422);
      expect(response.json().errors).to.deep.equal([
        { field: 'last_name', code: 'lostCharacter', meta: { row_no: 5 } },
        { field: 'name_id', code: 'lostCharacter', meta: { row_no: 5 } },
      ]);
    });
  });

  it('answers 413 to a bulk-update body over USERS_BULK_UPDATE_MAX_BYTES (8000 here), and takes one under it', async () => {
    const users = await list();
    expect((await bulkUpdate(users)).statusCode).to.equal(200);
    const padded = users.map((user) => ({ ...user, name_id: 'x'.repeat(1000) }));
    expect((await bulkUpdate(padded)).statusCode).to.equal(413);
  });

  describe('the bulk update body read as it arrives (issue 27: api/streamedJsonBody.ts)', () => {
    const send = (payload: string | Readable, headers: Record<string, string> = {}) =>
      ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload, headers: { ...bearer(manager), 'content-type': 'application/json', ...headers } });

    it('takes the body in small pieces without a length (chunked), converted and trimmed like any body', async () => {
      const users = await list();
      const text = JSON.stringify({ users: users.map((user, index) => (index === 0 ? { ...user, name_id: ' STREAM1 ' } : user)) });
      const pieces = Readable.from(Array.from({ length: Math.ceil(text.length / 7) }, (_, index) => Buffer.from(text.slice(index * 7, index * 7 + 7))));
      const response = await send(pieces);
      expect(response.statusCode, response.body).to.equal(200);
      expect((await list())[0]!.name_id).to.equal('STREAM1');
      const now = await list();
      expect((await send(JSON.stringify({ users: now.map((user, index) => (index === 0 ? { ...user, name_id: users[0]!.name_id } : user)) }))).statusCode).to.equal(200); // and back
    });

    it('answers 413 past the body limit even without a length, and the generic parser’s answers to the rest', async () => {
      const users = await list();
      const big = JSON.stringify({ users: users.map((user) => ({ ...user, name_id: 'x'.repeat(1000) })) });
      expect((await send(Readable.from([Buffer.from(big)]))).statusCode).to.equal(413);
      const refused = async (payload: string) => {
        const response = await send(payload);
        return [response.statusCode, response.json()];
      };
      const row = JSON.stringify(users[0]).slice(0, -1);
      expect(await refused('{"users": [')).to.deep.equal([400, { error: 'bad_request' }]); // cut short
      expect(await refused('{"users": [} ')).to.deep.equal([400, { error: 'bad_request' }]); // not JSON
      expect(await refused(`{"users": [${row}, "nested": {"a": 1}}]}`)).to.deep.equal([400, { error: 'bad_request' }]);
      expect(await refused(`{"users": [${row}, "last_name": "a\u0000b"}]}`)).to.deep.equal([400, { error: 'bad_request' }]);
      expect(await refused(`{"__proto__": {"users": []}, "users": []}`)).to.deep.equal([400, { error: 'bad_request' }]);
      expect(await refused(`{"users": [${row}, ${Array.from({ length: 40 }, (_, index) => `"k${index}": 1`).join(', ')}}]}`)).to.deep.equal([413, { error: 'bad_request' }]);
      expect(await refused('{"users": 5}')).to.deep.equal([422, { errors: [{ field: 'users.0', code: 'invalid', meta: {} }] }]); // as the schema coerces it: [5]
      expect(await refused('{"rows": []}')).to.deep.equal([422, { errors: [{ field: 'users', code: 'blank', meta: {} }] }]);
      expect(await refused('[]')).to.deep.include(422);
      expect((await list()).map((user) => user.name_id)).to.deep.equal(users.map((user) => user.name_id)); // nothing written
    });

    it('gives the parser the list alone: another member of the body, dropped by the schema, is counted but never built (issue 44 finding 7)', async () => {
      const users = await list();
      const given = async (payload: string) => {
        const write = TokenParser.prototype.write;
        let tokens = 0;
        TokenParser.prototype.write = function (this: TokenParser, ...token: Parameters<TokenParser['write']>) {
          tokens += 1;
          return write.apply(this, token);
        };
        try {
          const response = await send(payload);
          expect(response.statusCode, response.body).to.equal(200);
        } finally {
          TokenParser.prototype.write = write;
        }
        return tokens;
      };
      const alone = await given(JSON.stringify({ users }));
      const others = `"other": [${'0, '.repeat(1000)}0], "more": {"a": [1, 2], "b": {}}`;
      // each other member given as a key, a colon, a null and a comma: 8 tokens, not its 2,000 and more
      expect(await given(`{${others}, "users": ${JSON.stringify(users)}}`)).to.equal(alone + 8);
    });

    it('refuses an object of more keys than the route takes (413) at its first key over the bound, before the object is read to its end (issue 44 finding 7)', async () => {
      // the bound: the row schema's 9 properties plus KEY_ALLOWANCE; each body is cut by a byte no JSON has after that key
      const keys = (count: number) => Array.from({ length: count }, (_, index) => `"k${index}": 1, `).join('');
      const bound = 9 + KEY_ALLOWANCE;
      const refused = async (payload: string) => {
        const response = await send(payload);
        return [response.statusCode, response.json()];
      };
      expect(await refused(`{"users": [{${keys(bound - 1)}"k${bound - 1}"@`)).to.deep.equal([400, { error: 'bad_request' }]); // at the bound: read on, to the stray byte
      expect(await refused(`{"users": [{${keys(bound)}"k${bound}"@`)).to.deep.equal([413, { error: 'bad_request' }]); // one more: refused at that key
      expect(await refused(`{"other": {${keys(bound)}"k${bound}"@`)).to.deep.equal([413, { error: 'bad_request' }]); // any object of the body
      expect(await refused(`{"users": [], ${keys(bound - 1)}"k${bound}"@`)).to.deep.equal([413, { error: 'bad_request' }]); // the body's own
    });
  });

  it('answers a changed nameId in the preview without storing it', async () => {
    const response = await preview(editLine(await csv(), 2, (cells) => [...cells.slice(0, 6), 'NEW0001']));
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().users[0].name_id).to.equal('NEW0001');
    expect((await list())[0]!.name_id).to.equal('EMP0001');
  });

  it('answers row errors (422) with the rows read: a changed name or e-mail, a nameId that is not alphanumeric or breaks its type rule', async () => {
    let text = await csv();
    text = editLine(text, 2, (cells) => [cells[0]!, '青山', ...cells.slice(2, 6), 'EMP-1']); // name changed, nameId format
    text = editLine(text, 5, (cells) => [...cells.slice(0, 5), 'other@example.com', 'ABC']); // e-mail changed; email type must be blank
    text = editLine(text, 3, (cells) => [...cells.slice(0, 6), '']); // nameId type: must be present
    const response = await preview(text);
    expect(response.statusCode, response.body).to.equal(422);
    expect(response.json().errors).to.deep.equal([
      { field: 'last_name', code: 'cannotBeChanged', meta: { row_no: 2 } },
      { field: 'name_id', code: 'invalid_format', meta: { row_no: 2 } },
      { field: 'name_id', code: 'nameIdMustBePresentWhenNameIdTypeIsNameId', meta: { row_no: 3 } },
      { field: 'email', code: 'cannotBeChanged', meta: { row_no: 5 } },
      { field: 'name_id', code: 'nameIdMustBeBlankWhenNameIdTypeIsEmail', meta: { row_no: 5 } },
    ]);
    expect(response.json().users).to.have.length(12);
    expect(response.json().users[0]).to.include({ last_name: '青山', name_id: 'EMP-1' });
  });

  it('refuses a nameId for a learner whose identity provider is not specified', async () => {
    const users = await list();
    const line = users.findIndex((user) => user.name_id_type === null) + 2;
    const response = await preview(editLine(await csv(), line, (cells) => [...cells.slice(0, 6), 'ABC']));
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors).to.deep.equal([{ field: 'name_id', code: 'nameIdMustBeBlankWhenIdpNotSpecified', meta: { row_no: line } }]);
  });

  it('answers format errors (400) by their SPEC codes', async () => {
    const text = await csv();
    const cases: Array<[string, string | Buffer, string?]> = [
      ['invalidHeader', text.replace('nameId', 'name_id')],
      ['invalidHeader', text.replace(HEADER, `${HEADER},extra`).replace(/\r\n/g, ',x\r\n').replace(`${HEADER},extra,x`, `${HEADER},extra`)],
      ['malformedCsv', `${text}1,"unclosed\r\n`],
      ['malformedCsv', editLine(text, 3, (cells) => cells.slice(0, 6))], // a column deleted on one row
      ['invalidCsvFormat', text.split('\r\n').filter((_, index) => index !== 4).join('\r\n')], // a row deleted
      ['invalidCsvFormat', `${text}999999,新,人,しん,じん,new@example.com,\r\n`], // a row added
      ['invalidCsvFormat', Buffer.from([0x81, 0x20, 0x0d, 0x0a])], // neither UTF-8 nor CP932
      ['invalidCsvFormat', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), iconv.encode(text, 'cp932')])], // a UTF-8 byte-order mark, then CP932
      ['fileNotFound', ''],
      ['fileNotFound', text, 'file'], // another field than csv
      ['exceedMaxSize', 'x'.repeat(5000)],
    ];
    for (const [code, content, field] of cases) {
      const response = await preview(content, field);
      expect(response.statusCode, `${code}: ${response.body}`).to.equal(400);
      expect(response.json(), code).to.deep.equal({ error: code });
    }
    const broken = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/organizations/1/users/preview',
      payload: '"__proto__"',
      headers: { 'content-type': 'multipart/form-data; boundary=x', ...bearer(manager) },
    });
    expect(broken.statusCode).to.equal(400);
    expect(broken.json()).to.deep.equal({ error: 'fileNotFound' });
    const notMultipart = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/preview', payload: {}, headers: bearer(manager) });
    expect(notMultipart.json()).to.deep.equal({ error: 'fileNotFound' });
  });

  it('bulk-updates the previewed users: every changed nameId written, the list answered', async () => {
    const previewed = (await preview(editLine(await csv(), 2, (cells) => [...cells.slice(0, 6), 'BULK01']))).json().users;
    const response = await bulkUpdate(previewed);
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().users[0].name_id).to.equal('BULK01');
    expect((await list())[0]!.name_id).to.equal('BULK01');
  });

  it('checks the bulk update again and writes nothing when one row is refused (422 with the rows)', async () => {
    const users = await list();
    const changed = users.map((user, index) => (index === 0 ? { ...user, name_id: 'CHANGED1' } : index === 3 ? { ...user, first_name: 'x' } : user));
    const response = await bulkUpdate(changed);
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors).to.deep.equal([{ field: 'first_name', code: 'cannotBeChanged', meta: { row_no: 5 } }]);
    expect(await list()).to.deep.equal(users);
  });

  it('writes the bulk update in one transaction: a failure on a later row undoes the earlier ones', async () => {
    const last = (await list()).at(-1)!;
    // the last learner takes a nameId, so that its row is written too
    await ctx.db.updateTable('organizationUsers').set({ nameIdType: 'nameId', nameId: 'BEFORE' }).where('id', '=', last.id).execute();
    const users = await list();
    // a database failure on the last row's update, after the first row was written
    await sql
      .raw(`create function users_test_fail() returns trigger language plpgsql as $$ begin if new.id = ${last.id} then raise exception 'users test failure'; end if; return new; end $$`)
      .execute(ctx.db);
    await sql.raw('create trigger users_test_fail before update on organization_users for each row execute function users_test_fail()').execute(ctx.db);
    try {
      const changed = users.map((user, index) => (index === 0 ? { ...user, name_id: 'TXN1' } : user.id === last.id ? { ...user, name_id: 'TXN2' } : user));
      const response = await bulkUpdate(changed);
      expect(response.statusCode).to.equal(500);
      expect(await list()).to.deep.equal(users);
    } finally {
      await sql.raw('drop trigger users_test_fail on organization_users').execute(ctx.db);
      await sql.raw('drop function users_test_fail()').execute(ctx.db);
    }
  });

  it("changes one learner's nameId (PATCH), and refuses a changed name, a bad nameId and an unknown learner", async () => {
    const [user] = await list();
    const body = { last_name: user!.last_name, first_name: user!.first_name, kana_last_name: user!.kana_last_name, kana_first_name: user!.kana_first_name, email: user!.email };
    const patch = (userId: number, payload: Record<string, unknown>, orgId = 1, token = manager) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/${orgId}/users/${userId}`, payload, headers: bearer(token) });
    const ok = await patch(user!.id, { ...body, name_id: 'ONE01' });
    expect(ok.statusCode, ok.body).to.equal(200);
    expect(ok.json().user).to.include({ id: user!.id, name_id: 'ONE01' });
    expect((await list())[0]!.name_id).to.equal('ONE01');

    const refused = await patch(user!.id, { ...body, email: 'else@example.com', name_id: '' });
    expect(refused.statusCode).to.equal(422);
    expect(refused.json().errors).to.deep.equal([
      { field: 'email', code: 'cannotBeChanged', meta: {} },
      { field: 'name_id', code: 'nameIdMustBePresentWhenNameIdTypeIsNameId', meta: {} },
    ]);
    const format = await patch(user!.id, { ...body, name_id: 'ａｂｃ' });
    expect(format.statusCode).to.equal(422);
    expect(format.json().errors[0]).to.include({ field: 'name_id' });
    expect((await patch(999999, { ...body, name_id: 'X1' })).statusCode).to.equal(404);
  });

  describe('cross-organisation isolation', () => {
    let otherSession: string;
    before(async () => {
      // admin 1 also manages G0000002 (id 2), in a session signed in for it
      await ctx.db.updateTable('affiliations').set({ role: 'manager' }).where('adminId', '=', 1).where('organizationId', '=', 2).execute();
      otherSession = await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' });
    });

    it("lists only the session's organisation's learners, and refuses another organisation's", async () => {
      const users = await list(otherSession, 2);
      expect(users.map((user) => user.email)).to.deep.equal(['noguchi.hiroshi@example.com', 'matsumoto.megumi@example.com']);
      const refused = await ctx.app.inject({ url: '/api/v2/organizations/1/users', headers: bearer(otherSession) });
      expect(refused.statusCode).to.equal(403);
      const refusedPage = await ctx.app.inject({ url: '/api/v2/organizations/1/users?per_page=5', headers: bearer(otherSession) });
      expect(refusedPage.statusCode).to.equal(403);
    });

    it("cannot read, edit or bulk-update another organisation's learners through its own", async () => {
      const ours = await list();
      const theirs = await list(otherSession, 2);
      const patch = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v2/organizations/2/users/${ours[0]!.id}`,
        payload: { last_name: ours[0]!.last_name, first_name: ours[0]!.first_name, kana_last_name: ours[0]!.kana_last_name, kana_first_name: ours[0]!.kana_first_name, email: ours[0]!.email, name_id: 'HIJACK' },
        headers: bearer(otherSession),
      });
      expect(patch.statusCode).to.equal(404);
      // G0000001's first two learners sent as G0000002's rows: not its learners
      const response = await bulkUpdate([{ ...ours[0]!, name_id: 'HIJACK' }, ours[1]!], 2, otherSession);
      expect(response.statusCode).to.equal(422);
      expect(response.json().errors.map((error: { field: string; code: string }) => `${error.field}:${error.code}`)).to.deep.equal(['id:notFound', 'id:notFound']);
      expect(await list()).to.deep.equal(ours);
      expect(await list(otherSession, 2)).to.deep.equal(theirs);
    });
  });
});

describe('The learners of a large organisation: 10,000 (issue 19)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
  let manager: string;

  before(async () => {
    manager = await accessToken(ctx.app, { sub: '1' });
    await addLearners(ctx.db, 1, 10_000);
  });

  it('downloads, previews (default USERS_CSV_MAX_BYTES) and bulk-updates 10,012 rows with 1,000 changed, all in one answer each, the last the list as it now is', async () => {
    const headers = bearer(manager);
    const download = await ctx.app.inject({ url: '/api/v2/organizations/1/users/csv', headers });
    expect(download.statusCode).to.equal(200);
    const lines = download.body.trimEnd().split('\r\n');
    expect(lines).to.have.length(10_013);
    // 1,000 learners of nameIdType nameId get a new nameId; the file travels as CP932
    // the last 1,000 rows are added learners (nameIdType nameId): each gets a new nameId
    const edited = lines.map((line, index) => (index >= lines.length - 1000 ? line.replace(/,N(\d+)$/, ',M$1') : line)).join('\r\n');
    const { payload, headers: multipartHeaders } = multipart(iconv.encode(edited, 'cp932'));
    const previewed = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/preview', payload, headers: { ...multipartHeaders, ...headers } });
    expect(previewed.statusCode, previewed.body.slice(0, 200)).to.equal(200);
    const users = previewed.json().users as WireUser[];
    expect(users).to.have.length(10_012);
    const body = JSON.stringify({ users });
    expect(body.length).to.be.above(1024 * 1024); // over Fastify's default body limit
    const updated = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload: body, headers: { ...headers, 'content-type': 'application/json' } });
    expect(updated.statusCode, updated.body.slice(0, 200)).to.equal(200);
    // the answer is the list as it is now, as GET users answers it (PostgreSQL writes both)
    expect(updated.json()).to.deep.equal((await ctx.app.inject({ url: '/api/v2/organizations/1/users', headers })).json());
    const stored = await ctx.db.selectFrom('organizationUsers').select(ctx.db.fn.countAll<string>().as('count')).where('organizationId', '=', 1).where('nameId', 'like', 'M%').executeTakeFirstOrThrow();
    expect(Number(stored.count)).to.equal(1000);
  });

  it('answers the whole list streamed a batch at a time: every learner once, by id, with the wire fields (issue 27)', async () => {
    const response = await ctx.app.inject({ url: '/api/v2/organizations/1/users', headers: bearer(manager) });
    expect(response.statusCode).to.equal(200);
    expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
    const users = response.json().users as WireUser[];
    const stored = await ctx.db.selectFrom('organizationUsers').select(['id', 'nameIdType']).where('organizationId', '=', 1).orderBy('id').execute();
    expect(users.map((user) => user.id)).to.deep.equal(stored.map((user) => user.id));
    expect(Object.keys(users[0]!)).to.deep.equal(['id', 'last_name', 'first_name', 'kana_last_name', 'kana_first_name', 'email', 'name_id', 'name_id_type', 'etag']);
    expect(users.map((user) => (user as WireUser & { name_id_type: unknown }).name_id_type)).to.deep.equal(stored.map((user) => user.nameIdType));
    // PostgreSQL writes the streamed list's JSON, the route's schema the pages': the same learners, field for field
    const paged: unknown[] = [];
    for (let after = 0; ; ) {
      const page = (await ctx.app.inject({ url: `/api/v2/organizations/1/users?per_page=1000&after=${after}`, headers: bearer(manager) })).json() as { users: WireUser[]; next_after: number | null };
      paged.push(...page.users);
      if (page.next_after === null) break;
      after = page.next_after;
    }
    expect(users).to.deep.equal(paged);
  });

  describe('bounds met while the body is read, before any value past them is built (issue 44 finding 7)', () => {
    const send = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload, headers: { ...bearer(manager), 'content-type': 'application/json' } });
    const refused = async (payload: string) => {
      const response = await send(payload);
      return [response.statusCode, response.json()];
    };

    it(`refuses a string or a number of more than MAX_TOKEN_BYTES (${MAX_TOKEN_BYTES}) bytes with 413 before its end, and reads one of that length to its end`, async () => {
      // each body is cut by a byte no JSON has there: answered 400 when it is read, so a 413 came before it
      const long = 'x'.repeat(MAX_TOKEN_BYTES);
      expect(await refused(`{"users": [{"note": "${long}"@`)).to.deep.equal([400, { error: 'bad_request' }]); // at the bound: read to the stray byte
      expect(await refused(`{"users": [{"note": "${long}x\u0001`)).to.deep.equal([413, { error: 'bad_request' }]); // a value: refused inside it
      expect(await refused(`{"users": [{"${long}x\u0001`)).to.deep.equal([413, { error: 'bad_request' }]); // a key
      expect(await refused(`{"users": [{"id": ${'1'.repeat(MAX_TOKEN_BYTES + 1)}@`)).to.deep.equal([413, { error: 'bad_request' }]); // a number
      expect(await refused(`{"users": [{"last_name": "${'青'.repeat(Math.ceil(MAX_TOKEN_BYTES / 3) + 1)}"}]}`)).to.deep.equal([413, { error: 'bad_request' }]); // bytes as sent
      // past the row schema's longest string, 1,000 characters (nameId), even sent as escaped surrogate pairs: the schema's to refuse
      const names = { last_name: 'a', first_name: 'a', kana_last_name: 'a', kana_first_name: 'a', email: 'a' };
      const escaped = await send(`{"users": [{"id": 1, ${JSON.stringify(names).slice(1, -1)}, "name_id": "${'\\ud83d\\ude00'.repeat(1001)}"}]}`);
      expect(escaped.statusCode).to.equal(422);
      expect(escaped.json()).to.deep.equal({ errors: [{ field: 'users.0.name_id', code: 'tooLong', meta: { length: 1000 } }] });
    });

    it('refuses a list of more items than the schema\'s longest (422 on that list) at its first item over, before the list is read to its end', async () => {
      const items = Array.from({ length: MAX_BULK_UPDATE_ROWS }, () => '0, ').join('');
      expect(await refused(`{"other": [${items}@`)).to.deep.equal([400, { error: 'bad_request' }]);
      expect(await refused(`{"other": [${items}0@`)).to.deep.equal([422, { errors: [{ field: 'other', code: 'invalid', meta: {} }] }]);
      expect(await refused(`{"users": [${items.replaceAll('0', '{}')}{@`)).to.deep.equal([422, { errors: [{ field: 'users', code: 'invalid', meta: {} }] }]);
    });
  });

  it('refuses a bulk update of more than 100,000 rows (the schema\'s maxItems: 422 on users)', async () => {
    const row = { id: 1, last_name: '', first_name: '', kana_last_name: '', kana_first_name: '', email: '', name_id: '' };
    const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload: { users: Array.from({ length: 100_001 }, () => row) }, headers: bearer(manager) });
    expect(response.statusCode).to.equal(422);
    expect(response.json()).to.deep.equal({ errors: [{ field: 'users', code: 'invalid', meta: {} }] });
  });
});

describe('The demo learners', () => {
  it('are added in demo mode also to a database seeded before they existed, once', async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({ testDatabase: database, env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
      await first.db.deleteFrom('organizationUsers').execute();
      await first.close();
      for (let start = 0; start < 2; start += 1) {
        const again = await createTestApp({ testDatabase: database, env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
        await again.close();
      }
      const rows = await database.db.selectFrom('organizationUsers').select('email').execute();
      expect(rows).to.have.length(14);
    } finally {
      await database.destroy();
    }
  });
});
