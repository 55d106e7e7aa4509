/**
 * No lost update on contacts and billing contacts (issue 28, RFC 9110 §13.1.1): every answer carries the record's
 * version (ETag, and `etag` in lists); a change with If-Match is made only on that version, else 412 with who changed
 * it and when, and nothing changes. On the demo data: manager@ (1) and manager2@ both manage G0000001 (id 1).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { expectConditionalAnswer, ifMatchValues } from '../support/ifMatch.js';
import { bearer } from '../support/oidc.js';
import { accessToken, demoManagers } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

describe('Versions of contacts and billing contacts: ETag, If-Match, 412 (issue 28)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let as: Awaited<ReturnType<typeof demoManagers>>;

  before(async () => {
    as = await demoManagers(ctx.app, ctx.db);
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/organizations/1/${path}`, headers, ...(payload ? { payload } : {}) });
  /** The contact's fields as the modal sends them: every field of the record. */
  const fieldsOf = ({ id: _id, organization_id: _org, etag: _etag, ...fields }: Json) => fields;
  /** A new contact of G0000001, as manager@ adds it. */
  async function newContact(): Promise<Json> {
    const created = await call('POST', 'contacts', as.manager, {
      corporation_name: '株式会社テスト', department_name: '総務部', postal_code: '150-0001', address: '東京都渋谷区神宮前1-2-3',
      last_name: '高橋', first_name: '三郎', kana_last_name: 'たかはし', kana_first_name: 'さぶろう', phone_number: '03-9876-5432', email: 'soumu@example.com',
    });
    expect(created.statusCode, created.body).to.equal(201);
    return created.json().contact;
  }

  it('answers a strong ETag on GET, the same as the etag of the list row and of the write that made it', async () => {
    const contact = await newContact();
    expect(contact.etag).to.match(/^"[^"]+"$/);
    const read = await call('GET', `contacts/${contact.id}`, as.manager);
    expect(read.headers.etag).to.equal(contact.etag);
    const listed = (await call('GET', 'contacts', as.manager)).json().contacts.find((row: Json) => row.id === contact.id);
    expect(listed.etag).to.equal(contact.etag);
  });

  it("refuses a change made on a version another manager has changed since (412, who and when), and keeps that manager's change", async () => {
    const seen = await newContact(); // A and B both read this version
    const byB = await call('PATCH', `contacts/${seen.id}`, { ...as.manager2, 'if-match': seen.etag }, { ...fieldsOf(seen), phone_number: '03-1111-2222' });
    expect(byB.statusCode, byB.body).to.equal(200);
    expect(byB.headers.etag).to.not.equal(seen.etag);
    expect(byB.json().contact.etag).to.equal(byB.headers.etag);

    const byA = await call('PATCH', `contacts/${seen.id}`, { ...as.manager, 'if-match': seen.etag, 'accept-language': 'en' }, { ...fieldsOf(seen), department_name: '人事部' });
    expect(byA.statusCode).to.equal(412);
    const refusal = byA.json();
    // in English the given name first
    expect(refusal).to.deep.include({ error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' } });
    expect(Date.now() - Date.parse(refusal.changed_at)).to.be.within(0, 60_000);

    const now = (await call('GET', `contacts/${seen.id}`, as.manager)).json().contact;
    expect(now).to.include({ phone_number: '03-1111-2222', department_name: '総務部', etag: byB.headers.etag });
    // on the latest version, A's change is made
    const again = await call('PATCH', `contacts/${seen.id}`, { ...as.manager, 'if-match': now.etag }, { ...fieldsOf(now), department_name: '人事部' });
    expect(again.statusCode, again.body).to.equal(200);
    expect(again.json().contact).to.include({ phone_number: '03-1111-2222', department_name: '人事部' });
  });

  it('reads If-Match as RFC 9110 does: * and a list holding the version match, a weak tag never does, garbage is a bad request', async () => {
    const contact = await newContact();
    const patch = (ifMatch: string) => call('PATCH', `contacts/${contact.id}`, { ...as.manager, 'if-match': ifMatch }, fieldsOf(contact));
    expect((await patch(`W/${contact.etag}`)).statusCode, 'weak').to.equal(412);
    expect((await patch('"0", "1"')).statusCode, 'a list without it').to.equal(412);
    const listed = await patch(`"0", ${contact.etag}`);
    expect(listed.statusCode, 'a list with it').to.equal(200);
    expect((await patch('*')).statusCode, 'any').to.equal(200);
    for (const garbage of ['abc', '"open', '"a"b"', 'W/', `${contact.etag},`, Array.from({ length: 17 }, (_, index) => `"${index}"`).join(', '), `"${'x'.repeat(2000)}"`]) {
      const response = await patch(garbage);
      expect(response.statusCode, garbage.slice(0, 40)).to.equal(400);
      expect(response.json()).to.deep.equal({ error: 'bad_request' });
    }
    expect((await call('PATCH', `contacts/${contact.id}`, as.manager, fieldsOf(contact))).statusCode, 'no If-Match: as SPEC clients send').to.equal(200);
  });

  it('answers 200, 400 or 412 with its envelope to 300 generated If-Match values (tags, weak tags, *, lists, garbage), never a 5xx', async () => {
    const contact = await newContact();
    await fc.assert(
      fc.asyncProperty(ifMatchValues(contact.etag), async (ifMatch) => {
        const now = (await call('GET', `contacts/${contact.id}`, as.manager)).json().contact;
        await expectConditionalAnswer(ifMatch, () => call('PATCH', `contacts/${contact.id}`, { ...as.manager, 'if-match': ifMatch }, fieldsOf(now)), 200);
      }),
      { numRuns: 300 },
    );
    expect(fieldsOf((await call('GET', `contacts/${contact.id}`, as.manager)).json().contact)).to.deep.equal(fieldsOf(contact));
  });

  it('deletes only the version named; after a delete the old version is not found', async () => {
    const contact = await newContact();
    const changed = await call('PATCH', `contacts/${contact.id}`, as.manager2, { ...fieldsOf(contact), address: '東京都港区芝公園4-2-8' });
    const stale = await call('DELETE', `contacts/${contact.id}`, { ...as.manager, 'if-match': contact.etag });
    expect(stale.statusCode).to.equal(412);
    expect(stale.json().changed_by.email).to.equal('manager2@example.com');
    expect((await call('GET', `contacts/${contact.id}`, as.manager)).statusCode).to.equal(200);
    expect((await call('DELETE', `contacts/${contact.id}`, { ...as.manager, 'if-match': changed.headers.etag as string })).statusCode).to.equal(204);
    expect((await call('PATCH', `contacts/${contact.id}`, { ...as.manager, 'if-match': changed.headers.etag as string }, fieldsOf(contact))).statusCode).to.equal(404);
    expect((await call('DELETE', `contacts/${contact.id}`, { ...as.manager, 'if-match': '*' })).statusCode).to.equal(404);
  });

  it('versions billing contacts alike', async () => {
    const [billingContact] = (await call('GET', 'billing_contacts', as.manager)).json().billing_contacts as Json[];
    const fields = { ...fieldsOf(billingContact!), addressee: '経理部 御中' };
    const fresh = await call('PATCH', `billing_contacts/${billingContact!.id}`, { ...as.manager2, 'if-match': billingContact!.etag }, fields);
    expect(fresh.statusCode, fresh.body).to.equal(200);
    const stale = await call('PATCH', `billing_contacts/${billingContact!.id}`, { ...as.manager, 'if-match': billingContact!.etag }, { ...fields, addressee: '' });
    expect(stale.statusCode).to.equal(412);
    expect((await call('GET', `billing_contacts/${billingContact!.id}`, as.manager)).json().billing_contact.addressee).to.equal('経理部 御中');
  });
});

describe('IF_MATCH_REQUIRED=on: a change without If-Match answers 428 (issue 28)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo', IF_MATCH_REQUIRED: 'on' } });

  it('refuses a change or a delete naming no version, and takes one that does', async () => {
    const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    const [contact] = (await ctx.app.inject({ url: '/api/v2/organizations/1/contacts', headers: manager })).json().contacts as Json[];
    const { id, organization_id: _org, etag, ...fields } = contact!;
    const url = `/api/v2/organizations/1/contacts/${id}`;
    const unconditional = await ctx.app.inject({ method: 'PATCH', url, headers: manager, payload: fields });
    expect(unconditional.statusCode).to.equal(428);
    expect(unconditional.json()).to.deep.equal({ error: 'precondition_required' });
    expect((await ctx.app.inject({ method: 'DELETE', url, headers: manager })).statusCode).to.equal(428);
    expect((await ctx.app.inject({ method: 'PATCH', url, headers: { ...manager, 'if-match': etag }, payload: fields })).statusCode).to.equal(200);
  });

  it("refuses an application's change or cancel and a role change or removal naming no version", async () => {
    const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    const application = '/api/v2/organizations/1/corporate_subscriptions/A000000101';
    const role = '/api/v2/organizations/1/affiliations/admins/2';
    const stored = (await ctx.app.inject({ url: application, headers: manager })).json().corporate_subscription;
    const form = { service_ids: stored.services.map((service: Json) => service.id), admin_ids: [1], users: stored.users, starts_on: stored.starts_on[0], billing_note: stored.billing_note, project_class_id: 0 };
    for (const [method, url, payload] of [['PATCH', `${application}?dryrun=true`, form], ['DELETE', application], ['PATCH', role, { role: 'manager' }], ['DELETE', role]] as const) {
      const response = await ctx.app.inject({ method, url, headers: manager, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${url}`).to.equal(428);
    }
  });
});
