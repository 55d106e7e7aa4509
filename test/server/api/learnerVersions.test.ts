/**
 * No lost update on learners (issue 28): a learner's nameId edit honours If-Match; the Users preview answers each row
 * with the version it read (`etag`), and a bulk update whose rows changed since answers 412 naming their lines and
 * who changed them, writing nothing. On the demo data: manager@ (1) and manager2@ both manage G0000001 (id 1).
 */
import { expect } from 'chai';
import { demoManagers } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

describe('Versions of learners: If-Match on an edit, previewed versions in a bulk update (issue 28)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let as: Awaited<ReturnType<typeof demoManagers>>;

  before(async () => {
    as = await demoManagers(ctx.app, ctx.db);
  });

  const users = async (): Promise<Json[]> => (await ctx.app.inject({ url: '/api/v2/organizations/1/users', headers: as.manager })).json().users;
  const patch = (user: Json, nameId: string, headers: Record<string, string>) =>
    ctx.app.inject({
      method: 'PATCH',
      url: `/api/v2/organizations/1/users/${user.id}`,
      headers,
      payload: { last_name: user.last_name, first_name: user.first_name, kana_last_name: user.kana_last_name, kana_first_name: user.kana_first_name, email: user.email, name_id: nameId },
    });
  /** The preview of the list as downloaded, with learner `index`'s nameId changed: its rows and their versions. */
  async function previewWith(index: number, nameId: string): Promise<Json[]> {
    const csv = (await ctx.app.inject({ url: '/api/v2/organizations/1/users/csv', headers: as.manager })).body;
    const lines = csv.split('\r\n').map((line, lineIndex) => (lineIndex === index + 1 ? line.replace(/,[^,]*$/, `,${nameId}`) : line));
    const boundary = '----versions';
    const payload = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="csv"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n${lines.join('\r\n')}\r\n--${boundary}--\r\n`);
    const preview = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/preview', payload, headers: { ...as.manager, 'content-type': `multipart/form-data; boundary=${boundary}` } });
    expect(preview.statusCode, preview.body).to.equal(200);
    return preview.json().users;
  }
  const bulkUpdate = (rows: Json[], headers = as.manager) => ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload: { users: rows }, headers });

  it("edits a learner's nameId only on the version named: the answer's ETag is the list row's next etag; a stale one answers 412 with who and when", async () => {
    const [learner] = await users();
    expect(learner!.etag).to.match(/^"[^"]+"$/);
    const byTwo = await patch(learner!, 'EMPV0001', { ...as.manager2, 'if-match': learner!.etag });
    expect(byTwo.statusCode, byTwo.body).to.equal(200);
    expect(byTwo.headers.etag).to.equal(byTwo.json().user.etag).and.not.equal(learner!.etag);
    expect((await users())[0]!.etag).to.equal(byTwo.headers.etag);
    const byOne = await patch(learner!, 'EMPV0002', { ...as.manager, 'if-match': learner!.etag, 'accept-language': 'ja' });
    expect(byOne.statusCode).to.equal(412);
    expect(byOne.json()).to.deep.include({ error: 'precondition_failed', changed_by: { name: '高橋 美咲', email: 'manager2@example.com' } });
    expect((await users())[0]!.name_id).to.equal('EMPV0001');
    // the latest, as the edit's 'Show the latest' reads it
    const latest = await ctx.app.inject({ url: `/api/v2/organizations/1/users/${learner!.id}`, headers: as.manager });
    expect(latest.headers.etag).to.equal(byTwo.headers.etag);
    expect(latest.json().user).to.include({ id: learner!.id, name_id: 'EMPV0001', etag: byTwo.headers.etag });
    expect((await ctx.app.inject({ url: '/api/v2/organizations/1/users/99999999', headers: as.manager })).statusCode, 'no such learner').to.equal(404);
  });

  it('refuses a bulk update whose previewed learners changed meanwhile (412: their CSV lines, who and when) and writes none of its rows', async () => {
    const before = await users();
    const previewed = await previewWith(0, 'BULK0001');
    expect(previewed.map((row) => row.etag)).to.deep.equal(before.map((user) => user.etag));
    expect((await patch(before[2]!, 'EMPV0003', as.manager2)).statusCode).to.equal(200); // line 4 of the CSV, meanwhile

    const refused = await bulkUpdate(previewed);
    expect(refused.statusCode).to.equal(412);
    const answer = refused.json();
    expect(answer.error).to.equal('precondition_failed');
    expect(answer.rows).to.have.length(1);
    expect(answer.rows[0]).to.deep.include({ row_no: 4, changed_by: { name: '高橋 美咲', email: 'manager2@example.com' } }); // no language asked: Japanese order
    const now = await users();
    expect(now[0]!.name_id, 'the previewed change is not written either').to.equal(before[0]!.name_id);
    expect(now[2]!.name_id).to.equal('EMPV0003');

    // previewed again, on the present versions: written
    const again = await previewWith(0, 'BULK0001');
    expect((await bulkUpdate(again)).statusCode).to.equal(200);
    expect((await users())[0]!.name_id).to.equal('BULK0001');
  });

  it("names in a learner's 412 the admin whose change made its present version, not a later bulk update that left the learner alone (issue 44 finding 11)", async () => {
    const before = await users();
    const [learner, other] = [before[5]!, before[8]!];
    const touching = await bulkUpdate(before.map((user) => (user.id === learner.id ? { ...user, name_id: 'TOUCH001' } : user)), as.manager2);
    expect(touching.statusCode, touching.body).to.equal(200);
    const untouched = await bulkUpdate((await users()).map((user) => (user.id === other.id ? { ...user, name_id: 'ELSE0001' } : user)));
    expect(untouched.statusCode, untouched.body).to.equal(200);

    const stale = await patch(learner, 'STALE001', { ...as.manager, 'if-match': learner.etag });
    expect(stale.statusCode).to.equal(412);
    expect(stale.json().changed_by, "manager2's bulk update changed the learner; manager's later one did not").to.deep.equal({ name: '高橋 美咲', email: 'manager2@example.com' });
  });

  it('writes rows without versions as before (SPEC clients send none)', async () => {
    const rows = (await users()).map(({ etag: _etag, ...user }, index) => (index === 0 ? { ...user, name_id: 'NOVER001' } : user));
    const response = await bulkUpdate(rows);
    expect(response.statusCode, response.body).to.equal(200);
    expect((await users())[0]!.name_id).to.equal('NOVER001');
  });
});

describe('IF_MATCH_REQUIRED=on: a bulk update row that changes its learner must carry its etag (issue 44 finding 6)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo', IF_MATCH_REQUIRED: 'on' } });

  it('answers 428 naming the rows that change a learner without their etag, and writes none of the rows; with the etags, writes them', async () => {
    const { manager } = await demoManagers(ctx.app, ctx.db);
    const users = async (): Promise<Json[]> => (await ctx.app.inject({ url: '/api/v2/organizations/1/users', headers: manager })).json().users;
    const bulkUpdate = (rows: Json[]) => ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/bulk_update', payload: { users: rows }, headers: manager });
    const before = await users();
    const changed = { [before[0]!.id]: 'REQ00001', [before[1]!.id]: 'REQ00002' };
    const edited = before.map((user) => (changed[user.id] ? { ...user, name_id: changed[user.id] } : user));
    // line 2 changes its learner without a version, line 3 with one, line 4 changes nothing without one
    const rows = edited.map(({ etag, ...row }, index) => (index === 0 || index === 2 ? row : { ...row, etag }));

    const refused = await bulkUpdate(rows);
    expect(refused.statusCode, refused.body).to.equal(428);
    expect(refused.json()).to.deep.equal({ error: 'precondition_required', rows: [{ row_no: 2, id: before[0]!.id }] });
    expect((await users()).map((user) => user.name_id), 'nothing written').to.deep.equal(before.map((user) => user.name_id));

    const written = await bulkUpdate(edited);
    expect(written.statusCode, written.body).to.equal(200);
    expect((await users()).slice(0, 2).map((user) => user.name_id)).to.deep.equal(['REQ00001', 'REQ00002']);
  });
});
