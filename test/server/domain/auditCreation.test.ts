/**
 * A single-row write and its trail entry in one statement (issue 47: trail.recordWrite, data-modifying CTEs): contacts
 * and billing contacts are added, or changed in their locked transaction, with their entry or not at all, the entry
 * naming the row's id, its label and its changes as a transaction's `trail.record` would have; a change that changes
 * nothing writes no entry; an undeclared action is refused before anything is written.
 * On the demo data: admin 1 (manager@) in G0000001 (id 1).
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { sql } from 'kysely';
import { seedDemoData } from '../../../src/server/db/seed/index.js';
import { auditTrail, changesBetween } from '../../../src/server/domain/audit.js';
import { BILLING_CONTACTS, CONTACTS, createContact, updateContact, type BillingContactFields, type ContactFields } from '../../../src/server/domain/contacts.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

const PERSON = { corporationName: '株式会社デモ', departmentName: '総務部', lastName: '鈴木', firstName: '一郎', kanaLastName: 'すずき', kanaFirstName: 'いちろう', phoneNumber: '03-1234-5678', email: 'soumu@example.com' };
const CONTACT: ContactFields = { ...PERSON, postalCode: '100-0005', address: '東京都千代田区丸の内1-1-1' };
const BILLING_CONTACT: BillingContactFields = { ...PERSON, departmentName: '', ccEmail: 'cc@example.com', addressee: '' };
const PERSONAL = ['postalCode', 'address', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'phoneNumber', 'email', 'ccEmail', 'addressee'];

describe('A single-row write and its trail entry in one statement (issue 47)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
  });
  after(async () => database?.destroy());

  const count = async (table: 'contacts' | 'auditEvents') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const countEntries = () => count('auditEvents');
  const lastEntry = () => database.db.selectFrom('auditEvents').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  /** What trail.record was given in a transaction before: the row's changes, personal fields without their values. */
  const expectedChanges = (row: object, fields: readonly string[], before?: object) =>
    Object.fromEntries(Object.entries(changesBetween(before, row, fields)).map(([field, change]) => [field, PERSONAL.includes(field) ? { before: null, after: null } : change]));

  it("records a contact's entry with the new row's id, its label and its changes, personal fields without values", async () => {
    const entries = await count('auditEvents');
    const row = await createContact(database.db, CONTACTS, 1, CONTACT, auditTrail({ adminId: 1, organizationId: 1 }, ['contact.created']));
    expect(await count('auditEvents')).to.equal(entries + 1);
    const entry = await lastEntry();
    expect(entry).to.include({ organizationId: 1, actorAdminId: 1, actorEmail: 'manager@example.com', action: 'contact.created', targetType: 'contact', targetId: String(row.id), targetLabel: '株式会社デモ 総務部' });
    const fields = CONTACTS.columns.filter((column) => column !== 'id' && column !== 'organizationId');
    expect(entry.changes).to.deep.equal(expectedChanges(row, fields));
    expect(entry.changes).to.deep.include({ corporationName: { before: null, after: '株式会社デモ' }, email: { before: null, after: null } });
    expect(row.etag, 'the row as RETURNING answered it').to.match(/^"[\w-]{22}"$/);
    const stored = await database.db.selectFrom('contacts').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(stored).to.include({ organizationId: 1, ...CONTACT });
  });

  it("records a billing contact's entry by an API client, its label without an empty department", async () => {
    const client = { id: randomUUID(), name: '基幹システム' };
    const row = await createContact(database.db, BILLING_CONTACTS, 1, BILLING_CONTACT, auditTrail({ adminId: null, organizationId: 1, apiClient: client }, ['billingContact.created']));
    const entry = await lastEntry();
    expect(entry).to.include({ organizationId: 1, actorAdminId: null, actorEmail: '', actorApiClientId: client.id, actorApiClientName: client.name, action: 'billingContact.created', targetType: 'billingContact', targetId: String(row.id), targetLabel: '株式会社デモ' });
    const fields = BILLING_CONTACTS.columns.filter((column) => column !== 'id' && column !== 'organizationId');
    expect(entry.changes).to.deep.equal(expectedChanges(row, fields));
    expect(entry.changes, 'an empty addressee is a value, as before').to.deep.include({ addressee: { before: null, after: null } });
  });

  it('adds no contact when its entry fails (one statement: both rows or neither)', async () => {
    const [contacts, entries] = [await count('contacts'), await count('auditEvents')];
    await sql`create function audit_events_refuse() returns trigger language plpgsql as $$ begin raise exception 'entry refused'; end $$`.execute(database.db);
    await sql`create trigger audit_events_refuse before insert on audit_events for each row execute function audit_events_refuse()`.execute(database.db);
    try {
      const failure = await createContact(database.db, CONTACTS, 1, CONTACT, auditTrail({ adminId: 1, organizationId: 1 }, ['contact.created'])).catch((error: Error) => error);
      expect(String(failure)).to.match(/entry refused/);
    } finally {
      await sql`drop trigger audit_events_refuse on audit_events`.execute(database.db);
      await sql`drop function audit_events_refuse()`.execute(database.db);
    }
    expect([await count('contacts'), await count('auditEvents')]).to.deep.equal([contacts, entries]);
  });

  it('refuses an action the route did not declare, writing nothing', async () => {
    const [contacts, entries] = [await count('contacts'), await count('auditEvents')];
    const failure = await createContact(database.db, CONTACTS, 1, CONTACT, auditTrail({ adminId: 1, organizationId: 1 }, ['contact.updated'])).catch((error: Error) => error);
    expect(String(failure)).to.match(/contact.created is not declared/);
    expect([await count('contacts'), await count('auditEvents')]).to.deep.equal([contacts, entries]);
  });
  describe('a change: the update and its entry in one statement, after the locked read', () => {
    const contactTrail = (declared: Parameters<typeof auditTrail>[1] = ['contact.updated']) => auditTrail({ adminId: 1, organizationId: 1 }, declared);
    const stored = (table: 'contacts' | 'billingContacts', id: number) => database.db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const fields = (table: { columns: readonly string[] }) => table.columns.filter((column) => column !== 'id' && column !== 'organizationId');

    it("records a contact's entry: its id, its new label and the changes from the locked row, personal fields without values", async () => {
      const created = await createContact(database.db, CONTACTS, 1, CONTACT, contactTrail(['contact.created']));
      const entries = await countEntries();
      const next = { ...CONTACT, departmentName: '経理部', email: 'keiri@example.com' };
      const change = await updateContact(database.db, CONTACTS, 1, created.id, { fields: next, precondition: [created.etag] }, contactTrail());
      if (change.outcome !== 'done') throw new Error(`not done: ${change.outcome}`);
      expect(await countEntries()).to.equal(entries + 1);
      const entry = await lastEntry();
      expect(entry).to.include({ organizationId: 1, actorAdminId: 1, actorEmail: 'manager@example.com', action: 'contact.updated', targetType: 'contact', targetId: String(created.id), targetLabel: '株式会社デモ 経理部' });
      expect(entry.changes).to.deep.equal({ departmentName: { before: '総務部', after: '経理部' }, email: { before: null, after: null } });
      expect(entry.changes, 'as changesBetween the locked row and the row after').to.deep.equal(expectedChanges(change.result, fields(CONTACTS), created));
      expect(change.result, 'the row as RETURNING answered it').to.include({ id: created.id, ...next });
      expect(change.result.etag, 'a new version').to.match(/^"[\w-]{22}"$/).and.not.equal(created.etag);
      expect(await stored('contacts', created.id)).to.include({ organizationId: 1, ...next });
    });

    it("records a billing contact's entry by an API client, its label without an empty department", async () => {
      const client = { id: randomUUID(), name: '基幹システム' };
      const clientTrail = (action: 'billingContact.created' | 'billingContact.updated') => auditTrail({ adminId: null, organizationId: 1, apiClient: client }, [action]);
      const created = await createContact(database.db, BILLING_CONTACTS, 1, BILLING_CONTACT, clientTrail('billingContact.created'));
      const next = { ...BILLING_CONTACT, corporationName: '株式会社デモ商事', addressee: '経理部御中' };
      const change = await updateContact(database.db, BILLING_CONTACTS, 1, created.id, { fields: next }, clientTrail('billingContact.updated'));
      expect(change.outcome).to.equal('done');
      const entry = await lastEntry();
      expect(entry).to.include({ organizationId: 1, actorAdminId: null, actorEmail: '', actorApiClientId: client.id, actorApiClientName: client.name, action: 'billingContact.updated', targetType: 'billingContact', targetId: String(created.id), targetLabel: '株式会社デモ商事' });
      expect(entry.changes).to.deep.equal({ corporationName: { before: '株式会社デモ', after: '株式会社デモ商事' }, addressee: { before: null, after: null } });
    });

    it('writes no entry when nothing changed, the update made as before', async () => {
      const created = await createContact(database.db, CONTACTS, 1, CONTACT, contactTrail(['contact.created']));
      const entries = await countEntries();
      const change = await updateContact(database.db, CONTACTS, 1, created.id, { fields: { ...CONTACT }, precondition: [created.etag] }, contactTrail());
      if (change.outcome !== 'done') throw new Error(`not done: ${change.outcome}`);
      expect(change.result).to.include({ id: created.id, ...CONTACT });
      expect(await countEntries()).to.equal(entries);
    });

    it('leaves the update undone when its entry fails (one statement in the transaction)', async () => {
      const created = await createContact(database.db, CONTACTS, 1, CONTACT, contactTrail(['contact.created']));
      const entries = await countEntries();
      await sql`create function audit_events_refuse() returns trigger language plpgsql as $$ begin raise exception 'entry refused'; end $$`.execute(database.db);
      await sql`create trigger audit_events_refuse before insert on audit_events for each row execute function audit_events_refuse()`.execute(database.db);
      try {
        const failure = await updateContact(database.db, CONTACTS, 1, created.id, { fields: { ...CONTACT, departmentName: '経理部' } }, contactTrail()).catch((error: Error) => error);
        expect(String(failure)).to.match(/entry refused/);
      } finally {
        await sql`drop trigger audit_events_refuse on audit_events`.execute(database.db);
        await sql`drop function audit_events_refuse()`.execute(database.db);
      }
      expect(await stored('contacts', created.id)).to.include({ departmentName: '総務部' });
      expect(await countEntries()).to.equal(entries);
    });

    it('refuses an action the route did not declare, changing nothing', async () => {
      const created = await createContact(database.db, CONTACTS, 1, CONTACT, contactTrail(['contact.created']));
      const entries = await countEntries();
      const failure = await updateContact(database.db, CONTACTS, 1, created.id, { fields: { ...CONTACT, departmentName: '経理部' } }, contactTrail(['contact.created'])).catch((error: Error) => error);
      expect(String(failure)).to.match(/contact.updated is not declared/);
      expect(await stored('contacts', created.id)).to.include({ departmentName: '総務部' });
      expect(await countEntries()).to.equal(entries);
    });
  });
});
