/**
 * Contacts and billing contacts of an organisation (SPEC §3 Contact, Billing contact; §7 'Contacts'). Every read and
 * write names the organisation: another organisation's id reads as unknown (undefined / false), so the API answers 404
 * and nothing tells whether the id exists elsewhere. The caller has checked the session's access to the organisation.
 */
import type { BillingContact, Contact } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import type { Db } from '../db/index.js';

export type ContactFields = Forms['contact'];
export type BillingContactFields = Forms['billing-contact'];

const CONTACT_COLUMNS = [
  'id',
  'organizationId',
  'corporationName',
  'departmentName',
  'postalCode',
  'address',
  'firstName',
  'lastName',
  'kanaFirstName',
  'kanaLastName',
  'phoneNumber',
  'email',
] as const;

const BILLING_CONTACT_COLUMNS = [
  'id',
  'organizationId',
  'corporationName',
  'departmentName',
  'firstName',
  'lastName',
  'kanaFirstName',
  'kanaLastName',
  'phoneNumber',
  'email',
  'ccEmail',
  'addressee',
] as const;

/** The record fields of a form body: only those (the body has been validated; unknown keys are gone). */
function contactValues(fields: ContactFields) {
  const { corporationName, departmentName, postalCode, address, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email } = fields;
  return { corporationName, departmentName, postalCode, address, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email };
}

function billingContactValues(fields: BillingContactFields) {
  const { corporationName, departmentName, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email } = fields;
  return { corporationName, departmentName, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email, ccEmail: fields.ccEmail ?? '', addressee: fields.addressee ?? '' };
}

/** The organisation's contacts, oldest first (SPEC §4: the wizards' default is the last one). */
export function listContacts(db: Db, organizationId: number): Promise<Contact[]> {
  return db.selectFrom('contacts').select(CONTACT_COLUMNS).where('organizationId', '=', organizationId).orderBy('id').execute();
}

export function findContact(db: Db, organizationId: number, id: number): Promise<Contact | undefined> {
  return db.selectFrom('contacts').select(CONTACT_COLUMNS).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function createContact(db: Db, organizationId: number, fields: ContactFields): Promise<Contact> {
  return db
    .insertInto('contacts')
    .values({ ...contactValues(fields), organizationId })
    .returning(CONTACT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The changed contact; undefined when the organisation has no contact with this id. */
export function updateContact(db: Db, organizationId: number, id: number, fields: ContactFields): Promise<Contact | undefined> {
  return db
    .updateTable('contacts')
    .set({ ...contactValues(fields), updatedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returning(CONTACT_COLUMNS)
    .executeTakeFirst();
}

/** True when the organisation's contact was there and is gone. */
export async function deleteContact(db: Db, organizationId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('contacts').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The organisation's billing contacts, oldest first. */
export function listBillingContacts(db: Db, organizationId: number): Promise<BillingContact[]> {
  return db.selectFrom('billingContacts').select(BILLING_CONTACT_COLUMNS).where('organizationId', '=', organizationId).orderBy('id').execute();
}

export function findBillingContact(db: Db, organizationId: number, id: number): Promise<BillingContact | undefined> {
  return db.selectFrom('billingContacts').select(BILLING_CONTACT_COLUMNS).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

export function createBillingContact(db: Db, organizationId: number, fields: BillingContactFields): Promise<BillingContact> {
  return db
    .insertInto('billingContacts')
    .values({ ...billingContactValues(fields), organizationId })
    .returning(BILLING_CONTACT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The changed billing contact; undefined when the organisation has none with this id. */
export function updateBillingContact(db: Db, organizationId: number, id: number, fields: BillingContactFields): Promise<BillingContact | undefined> {
  return db
    .updateTable('billingContacts')
    .set({ ...billingContactValues(fields), updatedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returning(BILLING_CONTACT_COLUMNS)
    .executeTakeFirst();
}

/** True when the organisation's billing contact was there and is gone. */
export async function deleteBillingContact(db: Db, organizationId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('billingContacts').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
