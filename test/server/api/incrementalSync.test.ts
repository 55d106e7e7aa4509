/**
 * Incremental sync (issue 46 item 4): `updated_since` and `cursor` on the lists an integration reads — learners,
 * contacts, billing contacts, applications, the audit trail. On the demo data (G0000001, id 1, managed by admin 1) with
 * learners added; on PGlite, or on PostgreSQL with TEST_DATABASE_URL (the open-transaction case needs PostgreSQL's
 * second connection).
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import pg from 'pg';
import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { addLearners } from '../../../src/server/db/seed/learners.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

interface SyncAnswer {
  next_cursor: string;
  has_more: boolean;
  deleted?: Array<{ id: number; deleted_at: string; request_code?: string }>;
  [list: string]: unknown;
}

type Item = { id: number; updated_at: string; [field: string]: any };

describe('Incremental sync of the lists (issue 46 item 4)', function () {
  this.timeout(60_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let manager: Record<string, string>;

  before(async () => {
    manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    await addLearners(ctx.db, 1, 200);
    // another organisation's learners, changed as often as the first's
    await sql`insert into organization_users (organization_id, last_name, first_name, email, name_id, name_id_type)
      select 2, '他社' || n, '花子', 'other' || n || '@example.com', '', null from generate_series(1, 20) as n`.execute(ctx.db);
  });

  const get = (url: string) => ctx.app.inject({ url: `/api/v2/organizations/1/${url}`, headers: manager });
  const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    ctx.app.inject({ method, url: `/api/v2/organizations/1/${url}`, headers: manager, ...(payload ? { payload } : {}) });

  async function syncPage(url: string): Promise<SyncAnswer> {
    const response = await get(url);
    expect(response.statusCode, response.body).to.equal(200);
    return response.json() as SyncAnswer;
  }

  /** Every page from `start` until has_more is false: the items, the removals, the last cursor. */
  async function syncAll(path: string, listKey: string, start: string, perPage: string) {
    const items: Item[] = [];
    const deleted: NonNullable<SyncAnswer['deleted']> = [];
    let page = await syncPage(`${path}?${start}&${perPage}`);
    for (let pages = 1; ; pages += 1) {
      items.push(...(page[listKey] as Item[]));
      deleted.push(...(page.deleted ?? []));
      if (!page.has_more) return { items, deleted, cursor: page.next_cursor, pages };
      page = await syncPage(`${path}?cursor=${page.next_cursor}&${perPage}`);
    }
  }

  /** The database's clock now (what updated_since compares with). */
  const databaseNow = async () => (await sql<{ now: string }>`select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as now`.execute(ctx.db)).rows[0]!.now;

  const changeNameId = (id: number, nameId: string) => ctx.db.updateTable('organizationUsers').set({ nameId }).where('id', '=', id).execute();

  describe('learners', () => {
    it('answers exactly as before without updated_since or cursor (the Users page relies on it)', async () => {
      const all = (await get('users')).json();
      expect(all).to.have.all.keys('users');
      expect(all.users[0]).to.not.have.property('updated_at');
      const page = (await get('users?per_page=5')).json();
      expect(page).to.have.all.keys('users', 'next_after');
    });

    it('reads every learner once from the start, by (updated_at, id), the organisation’s only', async () => {
      const all = (await get('users')).json().users as Item[];
      const { items, deleted, pages } = await syncAll('users', 'users', 'updated_since=1970-01-01T00:00:00Z', 'per_page=50');
      expect(pages).to.be.greaterThan(4);
      expect(deleted).to.deep.equal([]);
      expect(items.map((user) => user.id).sort((a, b) => a - b)).to.deep.equal(all.map((user) => user.id));
      expect(items.map((user) => user.email).filter((email) => String(email).startsWith('other'))).to.deep.equal([]);
      const order = items.map((user) => [user.updated_at, user.id] as const);
      expect(order).to.deep.equal([...order].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1])));
      expect(items[0]).to.include.keys('id', 'last_name', 'email', 'name_id', 'etag', 'updated_at');
      // another organisation's list is refused as it always was (the token is G0000001's)
      const other = await ctx.app.inject({ url: '/api/v2/organizations/2/users?updated_since=1970-01-01T00:00:00Z', headers: manager });
      expect(other.statusCode).to.equal(403);
    });

    it('reads only what changed since a time: one learner changed among 212, nothing of another organisation', async () => {
      const since = await databaseNow();
      const [one] = await ctx.db.selectFrom('organizationUsers').select('id').where('organizationId', '=', 1).orderBy('id').offset(100).limit(1).execute();
      await changeNameId(one!.id, 'CHANGED1');
      await sql`update organization_users set name_id = '' where organization_id = 2`.execute(ctx.db);
      const page = await syncPage(`users?updated_since=${since}`);
      expect((page.users as Item[]).map((user) => [user.id, user.name_id])).to.deep.equal([[one!.id, 'CHANGED1']]);
      expect(page.has_more).to.equal(false);
      expect((page.users as Item[])[0]!.updated_at >= since).to.equal(true);
    });

    it('visits every row exactly once by cursor when rows share an updated_at (one bulk statement)', async () => {
      const since = await databaseNow();
      await sql`update organization_users set name_id = 'BULK' || id where organization_id = 1 and id % 3 = 0`.execute(ctx.db);
      const changed = await ctx.db.selectFrom('organizationUsers').select('id').where('organizationId', '=', 1).where(sql<boolean>`id % 3 = 0`).orderBy('id').execute();
      const { items, pages } = await syncAll('users', 'users', `updated_since=${since}`, 'per_page=7');
      expect(new Set(items.map((user) => user.updated_at)).size).to.equal(1);
      expect(items.map((user) => user.id)).to.deep.equal(changed.map((user) => user.id));
      expect(pages).to.equal(Math.ceil(changed.length / 7));
    });

    it('sees a change made while paging in a later page or the next sync, losing none', async () => {
      const since = await databaseNow();
      await sql`update organization_users set name_id = 'ROUND' || id where organization_id = 1 and id % 10 = 1`.execute(ctx.db);
      const first = await syncPage(`users?updated_since=${since}&per_page=5`);
      const firstIds = (first.users as Item[]).map((user) => user.id);
      // one learner already read, and one not yet read, change during the sync
      const unread = await ctx.db.selectFrom('organizationUsers').select('id').where('organizationId', '=', 1).where(sql<boolean>`id % 10 = 1`).orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
      await changeNameId(firstIds[0]!, 'AGAIN');
      await changeNameId(unread.id, 'MOVED');
      const rest = await syncAll('users', 'users', `cursor=${first.next_cursor}`, 'per_page=5');
      const seen = [...(first.users as Item[]), ...rest.items];
      const expected = await ctx.db.selectFrom('organizationUsers').select('id').where('organizationId', '=', 1).where(sql<boolean>`id % 10 = 1`).execute();
      expect(new Set(seen.map((user) => user.id))).to.deep.equal(new Set(expected.map((user) => user.id)));
      // the changed ones last, as they are now
      expect(rest.items.slice(-2).map((user) => [user.id, user.name_id])).to.deep.equal([
        [firstIds[0], 'AGAIN'],
        [unread.id, 'MOVED'],
      ]);
      // and the next sync from the last cursor has nothing until something changes
      const next = await syncPage(`users?cursor=${rest.cursor}`);
      expect(next.users).to.deep.equal([]);
      await changeNameId(unread.id, 'LATER');
      expect(((await syncPage(`users?cursor=${next.next_cursor}`)).users as Item[]).map((user) => user.name_id)).to.deep.equal(['LATER']);
    });

    it('never goes past a change whose transaction is still open: it is read once committed (PostgreSQL)', async function () {
      // PGlite has one connection: no transaction is open beside a read
      if (!ctx.testDatabase.url) this.skip();
      const since = await databaseNow();
      const [open, committed] = await ctx.db.selectFrom('organizationUsers').select('id').where('organizationId', '=', 1).orderBy('id').offset(150).limit(2).execute();
      const client = new pg.Client({ connectionString: ctx.testDatabase.url });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(`update organization_users set name_id = 'OPEN' where id = $1`, [open!.id]);
        // a later transaction commits first: its time is after the open one's start
        await changeNameId(committed!.id, 'COMMITTED');
        const during = await syncAll('users', 'users', `updated_since=${since}`, 'per_page=50');
        expect(during.items).to.deep.equal([]);
        await client.query('commit');
        const after = await syncAll('users', 'users', `cursor=${during.cursor}`, 'per_page=50');
        expect(after.items.map((user) => [user.id, user.name_id])).to.deep.equal([
          [open!.id, 'OPEN'],
          [committed!.id, 'COMMITTED'],
        ]);
      } finally {
        await client.query('rollback');
        await client.end();
      }
    });

    it('shows a removed learner in deleted, once, and not again from a later cursor', async () => {
      const since = await databaseNow();
      const removed = await ctx.db.deleteFrom('organizationUsers').where('organizationId', '=', 1).where('nameId', '=', 'LATER').returning('id').executeTakeFirstOrThrow();
      await sql`delete from organization_users where organization_id = 2 and email = 'other1@example.com'`.execute(ctx.db);
      const page = await syncPage(`users?updated_since=${since}`);
      expect(page.users).to.deep.equal([]);
      expect(page.deleted!.map((gone) => gone.id)).to.deep.equal([removed.id]);
      expect(page.deleted![0]!.deleted_at >= since).to.equal(true);
      expect((await syncPage(`users?cursor=${page.next_cursor}`)).deleted).to.deep.equal([]);
    });

    it('refuses a malformed updated_since (422 invalid) and a cursor it did not make (400 bad_request), never 500', async () => {
      for (const since of ['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-11-28T25:00:00Z', '2026-11-28T10:00:00', '']) {
        const response = await get(`users?updated_since=${encodeURIComponent(since)}`);
        expect(response.statusCode, since).to.equal(422);
        expect(response.json(), since).to.deep.equal({ errors: [{ field: 'updated_since', code: 'invalid', meta: {} }] });
      }
      const good = (await syncPage('users?updated_since=2026-01-01T00:00:00%2B09:00')).next_cursor;
      const decoded = JSON.parse(Buffer.from(good, 'base64url').toString());
      const tampered = (change: object) => Buffer.from(JSON.stringify({ ...decoded, ...change })).toString('base64url');
      for (const cursor of [
        'garbage',
        good.slice(0, -3),
        tampered({ t: '2026-02-30T00:00:00.000000Z' }),
        tampered({ i: '2026-11-28' }),
        tampered({ t: "2026-01-01'; drop table organization_users; --" }),
        tampered({ k: '-1' }),
        tampered({ k: '99999999999' }),
        tampered({ l: 'contacts' }),
        tampered({ v: 2 }),
        Buffer.from('[1,2]').toString('base64url'),
      ]) {
        const response = await get(`users?cursor=${encodeURIComponent(cursor)}`);
        expect(response.statusCode, cursor).to.equal(400);
        expect(response.json(), cursor).to.deep.equal({ error: 'bad_request' });
      }
      const paged = await get(`users?cursor=${good}&after=5`);
      expect(paged.statusCode).to.equal(422);
      expect(paged.json()).to.deep.equal({ errors: [{ field: 'after', code: 'invalid', meta: {} }] });
    });

    it('refuses a cursor issued longer ago than removals are kept (422 cursor outOfRange): the integration starts again', async () => {
      const good = (await syncPage('users?updated_since=2026-01-01T00:00:00Z')).next_cursor;
      const decoded = JSON.parse(Buffer.from(good, 'base64url').toString());
      const old = Buffer.from(JSON.stringify({ ...decoded, i: '2020-01-01T00:00:00.000000Z' })).toString('base64url');
      const response = await get(`users?cursor=${old}`);
      expect(response.statusCode).to.equal(422);
      expect(response.json()).to.deep.equal({ errors: [{ field: 'cursor', code: 'outOfRange', meta: {} }] });
    });
  });

  describe('applications', () => {
    const learner = (index: number) => ({ last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう', email: `synced${index}@example.com` });
    /** A newhodaiplus application of G0000001 with these learners, as the wizard sends it. */
    const application = (users: object[]) => ({
      service_group_id: 9, service_ids: [9], admin_ids: [1], users, starts_on: addDays(businessCalendar().earliestStartsOn(tokyoToday()), 40),
      billing_contact_id: ctx.app.publicIds.billingContact.toPublic(1), contact_id: ctx.app.publicIds.contact.toPublic(1), billing_note: 'PO-1', project_class_id: 0,
    });

    it('answers exactly as before without updated_since or cursor', async () => {
      const answer = (await get('corporate_subscriptions')).json();
      expect(answer).to.have.all.keys('corporate_subscriptions', 'next_page');
      expect(answer.corporate_subscriptions[0]).to.not.have.property('updated_at');
    });

    it('reads every application of the organisation from the start, then what was applied, changed and cancelled since', async () => {
      const listed = (await get('corporate_subscriptions')).json().corporate_subscriptions as Item[];
      const full = await syncAll('corporate_subscriptions', 'corporate_subscriptions', 'updated_since=1970-01-01T00:00:00Z', 'per_page=2');
      expect(full.items.map((item) => item.request_code).sort()).to.deep.equal(listed.map((item) => item.request_code).sort());
      expect(full.items[0]).to.include.keys('id', 'request_code', 'etag', 'services', 'user_count', 'updated_at');

      const applied = await write('POST', 'corporate_subscriptions', application([learner(1)]));
      expect(applied.statusCode, applied.body).to.equal(201);
      const created = applied.json().corporate_subscription;
      const first = await syncPage(`corporate_subscriptions?cursor=${full.cursor}`);
      expect((first.corporate_subscriptions as Item[]).map((item) => [item.id, item.request_code, item.user_count])).to.deep.equal([[created.id, created.request_code, 1]]);

      // a change of its learners only (the form as sent again) bumps its time
      const form = { ...application([learner(1), learner(2)]), service_group_id: undefined };
      const changed = await write('PATCH', `corporate_subscriptions/${created.request_code}`, form);
      expect(changed.statusCode, changed.body).to.equal(200);
      const second = await syncPage(`corporate_subscriptions?cursor=${first.next_cursor}`);
      expect((second.corporate_subscriptions as Item[]).map((item) => [item.request_code, item.user_count, item.etag])).to.deep.equal([[created.request_code, 2, changed.headers.etag]]);

      expect((await write('DELETE', `corporate_subscriptions/${created.request_code}`)).statusCode).to.equal(204);
      const third = await syncPage(`corporate_subscriptions?cursor=${second.next_cursor}`);
      expect(third.corporate_subscriptions).to.deep.equal([]);
      expect(third.deleted!.map((gone) => [gone.id, gone.request_code])).to.deep.equal([[created.id, created.request_code]]);
    });

    it("shows none of another organisation's applications, and refuses a filter or page the sync's order has not", async () => {
      const other = await ctx.db.selectFrom('corporateSubscriptions').select('requestCode').where('organizationId', '=', 2).execute();
      expect(other).to.not.deep.equal([]);
      const { items } = await syncAll('corporate_subscriptions', 'corporate_subscriptions', 'updated_since=1970-01-01T00:00:00Z', 'per_page=50');
      expect(items.map((item) => item.request_code)).to.not.include.members(other.map((row) => row.requestCode));
      for (const [query, field] of [['service_group_id=9', 'service_group_id'], ['page=2', 'page']]) {
        const response = await get(`corporate_subscriptions?updated_since=2026-01-01T00:00:00Z&${query}`);
        expect(response.statusCode, query).to.equal(422);
        expect(response.json()).to.deep.equal({ errors: [{ field, code: 'invalid', meta: {} }] });
      }
      expect((await get('corporate_subscriptions?cursor=bm90IGEgY3Vyc29y')).statusCode).to.equal(400);
    });
  });

  describe('contacts and billing contacts', () => {
    const CONTACT = {
      corporation_name: '株式会社同期', department_name: '総務部', postal_code: '150-0001', address: '東京都渋谷区神宮前1-2-3',
      last_name: '高橋', first_name: '三郎', kana_last_name: 'たかはし', kana_first_name: 'さぶろう', phone_number: '03-9876-5432', email: 'soumu@example.com',
    };

    it('answers exactly as before without updated_since or cursor, and refuses per_page alone (it pages only a sync)', async () => {
      const answer = (await get('contacts')).json();
      expect(answer).to.have.all.keys('contacts');
      expect(answer.contacts[0]).to.not.have.property('updated_at');
      const paged = await get('contacts?per_page=5');
      expect(paged.statusCode).to.equal(422);
      expect(paged.json()).to.deep.equal({ errors: [{ field: 'per_page', code: 'invalid', meta: {} }] });
    });

    it('reads the contacts created and changed since, by public id, and the deleted ones', async () => {
      const start = await syncAll('contacts', 'contacts', 'updated_since=1970-01-01T00:00:00Z', 'per_page=1');
      expect(start.items.map((item) => item.id).sort()).to.deep.equal(((await get('contacts')).json().contacts as Item[]).map((item) => item.id).sort());
      const created = (await write('POST', 'contacts', CONTACT)).json().contact;
      const removed = (await write('POST', 'contacts', { ...CONTACT, department_name: '人事部' })).json().contact;
      expect((await write('PATCH', `contacts/${created.id}`, { ...CONTACT, department_name: '経営企画部' })).statusCode).to.equal(200);
      expect((await write('DELETE', `contacts/${removed.id}`)).statusCode).to.equal(204);
      // another organisation's contact, written and removed meanwhile, is none of this list's
      const foreign = await ctx.db
        .insertInto('contacts')
        .values({ organizationId: 2, corporationName: 'a', departmentName: 'b', postalCode: '1', address: 'c', firstName: 'd', lastName: 'e', kanaFirstName: 'f', kanaLastName: 'g', phoneNumber: '1', email: 'h@example.com' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db.deleteFrom('contacts').where('id', '=', foreign.id).execute();
      const since = await syncAll('contacts', 'contacts', `cursor=${start.cursor}`, 'per_page=1');
      expect(since.items.map((item) => [item.id, item.department_name])).to.deep.equal([[created.id, '経営企画部']]);
      expect(since.deleted.map((gone) => gone.id)).to.deep.equal([removed.id]);
      expect(ctx.app.publicIds.contact.toStored(created.id)).to.be.a('number');
    });

    it('reads the billing contacts on their own cursor: a contacts cursor is refused there (400)', async () => {
      const contacts = await syncPage('contacts?updated_since=2026-01-01T00:00:00Z');
      expect((await get(`billing_contacts?cursor=${contacts.next_cursor}`)).statusCode).to.equal(400);
      const billing = await syncPage('billing_contacts?updated_since=1970-01-01T00:00:00Z');
      expect((billing.billing_contacts as Item[]).map((item) => item.id)).to.deep.equal(((await get('billing_contacts')).json().billing_contacts as Item[]).map((item) => item.id));
      expect(billing.deleted).to.deep.equal([]);
    });
  });

  describe('the contract', () => {
    it('documents updated_since and cursor on each synced list, and the sync answer beside the list’s own (OpenAPI)', async () => {
      const document = (await ctx.app.inject({ url: '/api/docs/json' })).json();
      for (const [path, listKey, removals] of [
        ['users', 'users', true],
        ['contacts', 'contacts', true],
        ['billing_contacts', 'billing_contacts', true],
        ['corporate_subscriptions', 'corporate_subscriptions', true],
        ['audit_events', 'audit_events', false],
      ] as const) {
        const operation = document.paths[`/api/v2/organizations/{orgId}/${path}`].get;
        const parameters = operation.parameters.filter((parameter: { in: string }) => parameter.in === 'query').map((parameter: { name: string }) => parameter.name);
        expect(parameters, path).to.include.members(['updated_since', 'cursor']);
        const since = operation.parameters.find((parameter: { name: string }) => parameter.name === 'updated_since');
        expect(since.schema.format, path).to.equal('date-time');
        const answer = operation.responses['200'].content['application/json'].schema;
        expect(answer.properties, path).to.include.keys(listKey, 'next_cursor', 'has_more');
        expect(answer.properties[listKey].items.properties, path).to.have.property('updated_at');
        expect(Object.keys(answer.properties).includes('deleted'), path).to.equal(removals);
      }
    });
  });

  describe('the audit trail', () => {
    it('answers its pages as before, and with updated_since the entries written since, oldest first, each once', async () => {
      const paged = (await get('audit_events?limit=2')).json();
      expect(paged).to.have.all.keys('audit_events', 'next_cursor');
      const since = await databaseNow();
      for (const department of ['一課', '二課', '三課']) expect((await write('POST', 'contacts', { ...CONTACT_FOR_AUDIT, department_name: department })).statusCode).to.equal(201);
      const { items, pages } = await syncAll('audit_events', 'audit_events', `updated_since=${since}`, 'limit=1');
      expect(pages).to.equal(3);
      expect(items.map((event) => [event.action, event.target.label])).to.deep.equal([
        ['contact.created', '株式会社監査 一課'],
        ['contact.created', '株式会社監査 二課'],
        ['contact.created', '株式会社監査 三課'],
      ]);
      expect(items[0]).to.not.have.property('deleted');
      // the page cursor still pages the list newest first
      const next = (await get(`audit_events?limit=2&cursor=${paged.next_cursor}`)).json();
      expect(next).to.have.all.keys('audit_events', 'next_cursor');
    });

    it("refuses a filter with a sync (422), and another list's cursor (400)", async () => {
      const response = await get('audit_events?updated_since=2026-01-01T00:00:00Z&action=contact.created');
      expect(response.statusCode).to.equal(422);
      expect(response.json()).to.deep.equal({ errors: [{ field: 'action', code: 'invalid', meta: {} }] });
      const learners = await syncPage('users?updated_since=2026-01-01T00:00:00Z');
      expect((await get(`audit_events?cursor=${learners.next_cursor}`)).statusCode).to.equal(400);
    });
  });
});

const CONTACT_FOR_AUDIT = {
  corporation_name: '株式会社監査', department_name: '一課', postal_code: '150-0001', address: '東京都渋谷区神宮前1-2-3',
  last_name: '高橋', first_name: '三郎', kana_last_name: 'たかはし', kana_first_name: 'さぶろう', phone_number: '03-9876-5432', email: 'kansa@example.com',
};
