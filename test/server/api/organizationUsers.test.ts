import { expect } from 'chai';
import { sql } from 'kysely';
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
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', USERS_CSV_MAX_BYTES: '4096' } });
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
      ['invalidCsvFormat', Buffer.from([0x82, 0xa0, 0x0d, 0x0a])], // not UTF-8
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
