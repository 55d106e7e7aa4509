/**
 * Contacts and billing contacts API (SPEC §7 'Contacts', §3 Contact and Billing contact, §5 validation): the five
 * calls of each, managers only, on the demo data: G0000001 (id 1) has contacts 1 and 2 and billing contact 1 (stored
 * ids; the API shows their public ids, domain/publicIds.ts); manager@ (1) manages it and is a member of G0000002 (id 2),
 * member@ (2) is its member.
 */
import { expect } from 'chai';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

const CONTACT = {
  corporation_name: '株式会社テスト',
  department_name: '総務部',
  postal_code: '150-0001',
  address: '東京都渋谷区神宮前1-2-3',
  last_name: '高橋',
  first_name: '三郎',
  kana_last_name: 'たかはし',
  kana_first_name: 'さぶろう',
  phone_number: '03-9876-5432',
  email: 'soumu@example.com',
};

const BILLING_CONTACT = {
  corporation_name: '株式会社テスト',
  department_name: '経理部',
  last_name: '伊藤',
  first_name: '四郎',
  kana_last_name: 'いとう',
  kana_first_name: 'しろう',
  phone_number: '0312345678',
  email: 'keiri@example.com',
  cc_email: 'keiri-cc@example.com',
  addressee: '経理部 御中',
};

describe('Contacts API (SPEC §7 Contacts)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  const as = {} as Record<'manager' | 'member' | 'managerInTwo' | 'otherManager', Record<string, string>>;

  before(async () => {
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.managerInTwo = bearer(await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url: `/api/v2/${path}`, headers, ...(payload ? { payload } : {}) });

  describe('contacts', () => {
    it("lists the organisation's contacts, oldest first, with the record fields in snake_case", async () => {
      const response = await call('GET', 'organizations/1/contacts', as.manager);
      expect(response.statusCode, response.body).to.equal(200);
      const contacts = response.json().contacts;
      expect(contacts.map((contact: { id: number }) => contact.id)).to.deep.equal([1, 2].map(ctx.app.publicIds.contact.toPublic));
      expect(contacts[0]).to.have.all.keys(
        'id', 'organization_id', 'corporation_name', 'department_name', 'postal_code', 'address', 'first_name', 'last_name', 'kana_first_name', 'kana_last_name', 'phone_number', 'email', 'etag',
      );
      expect(contacts[0]).to.include({ organization_id: 1, postal_code: '100-0005' });
    });

    it('creates (201, trimmed, with its id), reads, changes and deletes a contact', async () => {
      const created = await call('POST', 'organizations/1/contacts', as.manager, { ...CONTACT, corporation_name: '  株式会社テスト  ', id: 999, organization_id: 2 });
      expect(created.statusCode, created.body).to.equal(201);
      const contact = created.json().contact;
      expect(contact).to.deep.equal({ ...CONTACT, id: contact.id, organization_id: 1, etag: created.headers.etag });
      expect(contact.id).to.not.equal(999);

      const read = await call('GET', `organizations/1/contacts/${contact.id}`, as.manager);
      expect(read.json()).to.deep.equal({ contact });
      expect(read.headers.etag).to.equal(contact.etag);

      const changed = await call('PATCH', `organizations/1/contacts/${contact.id}`, as.manager, { ...CONTACT, address: '東京都港区芝公園4-2-8' });
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(changed.json().contact).to.include({ id: contact.id, address: '東京都港区芝公園4-2-8' });

      const deleted = await call('DELETE', `organizations/1/contacts/${contact.id}`, as.manager);
      expect(deleted.statusCode).to.equal(204);
      expect((await call('GET', `organizations/1/contacts/${contact.id}`, as.manager)).statusCode).to.equal(404);
      expect((await call('DELETE', `organizations/1/contacts/${contact.id}`, as.manager)).json()).to.deep.equal({ error: 'not_found' });
    });

    it('answers 422 with the field errors of SPEC §5: required, too long, wrong format', async () => {
      const response = await call('POST', 'organizations/1/contacts', as.manager, {
        ...CONTACT,
        corporation_name: '   ',
        department_name: 'x'.repeat(101),
        postal_code: '1500001123456',
        phone_number: '-0312345678',
        email: 'not-an-address',
        kana_last_name: '高橋',
      });
      expect(response.statusCode, response.body).to.equal(422);
      const errors = response.json().errors as Array<{ field: string; code: string; meta: Record<string, unknown> }>;
      const byField = Object.fromEntries(errors.map((error) => [error.field, error.code]));
      expect(byField).to.include({ corporation_name: 'blank', department_name: 'tooLong', phone_number: 'invalid', email: 'invalid', kana_last_name: 'invalid' });
      expect(byField).to.have.property('postal_code');
      expect(errors.find((error) => error.field === 'department_name')!.meta).to.include({ length: 100 });
      expect((await call('GET', 'organizations/1/contacts', as.manager)).json().contacts).to.have.length(2);
    });

    it('accepts the postal-code and phone forms of SPEC §5: full-width, long dash or space separators', async () => {
      for (const [postalCode, phoneNumber] of [['１５０　０００１', '03ー1234ー5678'], ['150 0001', '09012345678'], ['AB-CDE', '0-1']] as const) {
        const response = await call('POST', 'organizations/1/contacts', as.manager, { ...CONTACT, postal_code: postalCode, phone_number: phoneNumber });
        expect(response.statusCode, `${postalCode} ${phoneNumber}: ${response.body}`).to.equal(201);
        await call('DELETE', `organizations/1/contacts/${response.json().contact.id}`, as.manager);
      }
    });

    it("keeps organisations apart: another organisation's contact id answers 404 and stays unchanged", async () => {
      const theirs = (await call('POST', 'organizations/2/contacts', as.otherManager, CONTACT)).json().contact;
      expect(theirs.organization_id).to.equal(2);
      expect((await call('GET', `organizations/1/contacts/${theirs.id}`, as.manager)).statusCode).to.equal(404);
      expect((await call('PATCH', `organizations/1/contacts/${theirs.id}`, as.manager, { ...CONTACT, address: 'x' })).statusCode).to.equal(404);
      expect((await call('DELETE', `organizations/1/contacts/${theirs.id}`, as.manager)).statusCode).to.equal(404);
      expect((await call('GET', 'organizations/1/contacts', as.manager)).json().contacts.map((contact: { id: number }) => contact.id)).to.not.include(theirs.id);
      expect((await call('GET', `organizations/2/contacts/${theirs.id}`, as.otherManager)).json().contact).to.deep.equal(theirs);
      // nor can a manager of G0000001 reach G0000002's through its path
      expect((await call('GET', 'organizations/2/contacts', as.manager)).statusCode).to.equal(403);
    });

    it('refuses members (reading too) and sessions of another organisation: 403', async () => {
      expect((await call('GET', 'organizations/1/contacts', as.member)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/1/contacts/1', as.member)).statusCode).to.equal(403);
      expect((await call('POST', 'organizations/1/contacts', as.member, CONTACT)).statusCode).to.equal(403);
      expect((await call('PATCH', 'organizations/1/contacts/1', as.member, CONTACT)).statusCode).to.equal(403);
      expect((await call('DELETE', 'organizations/1/contacts/1', as.member)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/2/contacts', as.managerInTwo)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/1/contacts', as.managerInTwo)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/1/contacts', as.manager)).json().contacts).to.have.length(2);
    });
  });

  describe('billing contacts', () => {
    it('lists, creates, reads, changes and deletes, reading billing_contacts / billing_contact', async () => {
      const listed = await call('GET', 'organizations/1/billing_contacts', as.manager);
      expect(listed.statusCode, listed.body).to.equal(200);
      expect(listed.json().billing_contacts).to.have.length(1);
      expect(listed.json().billing_contacts[0]).to.include({ id: ctx.app.publicIds.billingContact.toPublic(1), organization_id: 1, addressee: '' });

      const created = await call('POST', 'organizations/1/billing_contacts', as.manager, BILLING_CONTACT);
      expect(created.statusCode, created.body).to.equal(201);
      const billingContact = created.json().billing_contact;
      expect(billingContact).to.deep.equal({ ...BILLING_CONTACT, id: billingContact.id, organization_id: 1, etag: created.headers.etag });
      expect((await call('GET', `organizations/1/billing_contacts/${billingContact.id}`, as.manager)).json()).to.deep.equal({ billing_contact: billingContact });

      // the optional fields may be left out or blank
      const { cc_email: _cc, addressee: _addressee, ...required } = BILLING_CONTACT;
      const changed = await call('PATCH', `organizations/1/billing_contacts/${billingContact.id}`, as.manager, { ...required, addressee: '' });
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(changed.json().billing_contact).to.include({ cc_email: '', addressee: '' });

      expect((await call('DELETE', `organizations/1/billing_contacts/${billingContact.id}`, as.manager)).statusCode).to.equal(204);
      expect((await call('GET', 'organizations/1/billing_contacts', as.manager)).json().billing_contacts).to.have.length(1);
    });

    it('answers 422 for a wrong CC address, a too long addressee and a missing To e-mail; the contact-only fields are dropped', async () => {
      const { email: _email, ...withoutEmail } = BILLING_CONTACT;
      const response = await call('POST', 'organizations/1/billing_contacts', as.manager, { ...withoutEmail, cc_email: 'cc@', addressee: 'x'.repeat(101) });
      expect(response.statusCode, response.body).to.equal(422);
      const byField = Object.fromEntries(response.json().errors.map((error: { field: string; code: string }) => [error.field, error.code]));
      expect(byField).to.include({ email: 'blank', cc_email: 'invalid', addressee: 'tooLong' });

      const created = await call('POST', 'organizations/1/billing_contacts', as.manager, { ...BILLING_CONTACT, postal_code: '150-0001', address: 'x' });
      expect(created.statusCode, created.body).to.equal(201);
      expect(created.json().billing_contact).to.not.have.any.keys('postal_code', 'address');
      await call('DELETE', `organizations/1/billing_contacts/${created.json().billing_contact.id}`, as.manager);
    });

    it("answers 404 for another organisation's billing contact and 403 for a member", async () => {
      const theirs = (await call('POST', 'organizations/2/billing_contacts', as.otherManager, BILLING_CONTACT)).json().billing_contact;
      expect((await call('GET', `organizations/1/billing_contacts/${theirs.id}`, as.manager)).statusCode).to.equal(404);
      expect((await call('PATCH', `organizations/1/billing_contacts/${theirs.id}`, as.manager, BILLING_CONTACT)).statusCode).to.equal(404);
      expect((await call('DELETE', `organizations/1/billing_contacts/${theirs.id}`, as.manager)).statusCode).to.equal(404);
      expect((await call('GET', `organizations/2/billing_contacts/${theirs.id}`, as.otherManager)).statusCode).to.equal(200);
      expect((await call('GET', 'organizations/1/billing_contacts', as.member)).statusCode).to.equal(403);
      expect((await call('POST', 'organizations/1/billing_contacts', as.member, BILLING_CONTACT)).statusCode).to.equal(403);
    });
  });

  describe('public ids (issue 25 finding 6)', () => {
    const KINDS = [
      { path: 'contacts', body: CONTACT, key: 'contact' },
      { path: 'billing_contacts', body: BILLING_CONTACT, key: 'billing_contact' },
    ] as const;

    for (const kind of KINDS) {
      it(`${kind.path}: two organisations adding in turn, the ids one sees do not tell how many the other added`, async () => {
        const ours: number[] = [];
        for (let turn = 0; turn < 4; turn += 1) {
          const mine = await call('POST', `organizations/1/${kind.path}`, as.manager, kind.body);
          expect(mine.statusCode, mine.body).to.equal(201);
          ours.push(mine.json()[kind.key].id);
          expect((await call('POST', `organizations/2/${kind.path}`, as.otherManager, kind.body)).statusCode).to.equal(201);
        }
        // stored ids would step by 2 (the other organisation's in between); public ids step by no rule
        const steps = ours.slice(1).map((id, index) => id - ours[index]!);
        expect(new Set(steps).size, `steps ${steps.join(', ')}`).to.be.greaterThan(1);
        for (const id of ours) expect(Number.isSafeInteger(id) && id >= 1 && id <= 2147483647, String(id)).to.equal(true);
        for (const id of ours) expect((await call('GET', `organizations/1/${kind.path}/${id}`, as.manager)).statusCode).to.equal(200);
        for (const id of ours) await call('DELETE', `organizations/1/${kind.path}/${id}`, as.manager);
      });

      it(`${kind.path}: the stored id, another organisation's id and any other number answer 404 like an unknown id`, async () => {
        const created = (await call('POST', `organizations/1/${kind.path}`, as.manager, kind.body)).json()[kind.key];
        const stored = await ctx.db.selectFrom(kind.path === 'contacts' ? 'contacts' : 'billingContacts').select('id').where('organizationId', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow();
        const theirs = (await call('POST', `organizations/2/${kind.path}`, as.otherManager, kind.body)).json()[kind.key];
        for (const id of [stored.id, theirs.id, 2147483647]) {
          expect(id, 'the stored id is not the public one').to.not.equal(created.id);
          for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
            const response = await call(method, `organizations/1/${kind.path}/${id}`, as.manager, method === 'PATCH' ? kind.body : undefined);
            expect(response.statusCode, `${method} ${id}`).to.equal(404);
            expect(response.json()).to.deep.equal({ error: 'not_found' });
          }
        }
        await call('DELETE', `organizations/1/${kind.path}/${created.id}`, as.manager);
      });
    }
  });
});
