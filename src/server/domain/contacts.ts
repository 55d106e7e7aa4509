/**
 * Contacts and billing contacts of an organisation (SPEC §3 Contact, Billing contact; §7 'Contacts'). Every read and
 * write names the organisation: another organisation's id reads as unknown (undefined / false), so the API answers 404
 * and nothing tells whether the id exists elsewhere. The caller has checked the session's access to the organisation.
 * The two tables differ only in their columns, so one set of functions serves both, given the table's descriptor.
 */
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { BillingContact, Contact } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import type { Db } from '../db/index.js';
import { anyInt } from '../db/lists.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { readSyncPage, type SyncPage, type SyncStart } from './sync.js';
import { etagColumn, etagKey, satisfies, type Precondition } from './versions.js';
import type { BillingContactsTable, ContactsTable } from '../db/types.js';

export type ContactFields = Forms['contact'];
export type BillingContactFields = Forms['billing-contact'];

/**
 * Either table as the queries below see it: the columns they filter on or set, and the descriptor's columns, which
 * type the record (Kysely cannot check a query whose table is a type parameter).
 */
interface ContactRow {
  id: Generated<number>;
  organizationId: number;
  updatedAt: ColumnType<Date, Date | undefined, Date>;
  [column: string]: unknown;
}

type TableName = 'contacts' | 'billingContacts';

function contactDb(db: Db): Kysely<{ [name in TableName]: ContactRow }> {
  return db as unknown as Kysely<{ [name in TableName]: ContactRow }>;
}

/**
 * A contact table: its name, the answer's columns (a record is exactly these; `satisfies` checks them against the
 * table), and a form body's record fields.
 */
export interface ContactTable<Fields, Record> {
  name: TableName;
  /** The audit trail's target type, and the prefix of its actions (contact.created, …). */
  auditType: 'contact' | 'billingContact';
  columns: readonly (keyof Record & string)[];
  /** The record fields of a form body: only those (the body has been validated; unknown keys are gone). */
  values(fields: Fields): Omit<Record, 'id' | 'organizationId'>;
}

export const CONTACTS: ContactTable<ContactFields, Contact> = {
  name: 'contacts',
  auditType: 'contact',
  columns: [
    'id', 'organizationId', 'corporationName', 'departmentName', 'postalCode', 'address',
    'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'phoneNumber', 'email',
  ] satisfies (keyof ContactsTable)[],
  values: (fields) => {
    const { corporationName, departmentName, postalCode, address, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email } = fields;
    return { corporationName, departmentName, postalCode, address, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email };
  },
};

export const BILLING_CONTACTS: ContactTable<BillingContactFields, BillingContact> = {
  name: 'billingContacts',
  auditType: 'billingContact',
  columns: [
    'id', 'organizationId', 'corporationName', 'departmentName', 'firstName', 'lastName',
    'kanaFirstName', 'kanaLastName', 'phoneNumber', 'email', 'ccEmail', 'addressee',
  ] satisfies (keyof BillingContactsTable)[],
  values: (fields) => {
    const { corporationName, departmentName, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email } = fields;
    return { corporationName, departmentName, firstName, lastName, kanaFirstName, kanaLastName, phoneNumber, email, ccEmail: fields.ccEmail ?? '', addressee: fields.addressee ?? '' };
  },
};

/** A record with its version as an entity tag (domain/versions.ts): what a change made on it names in its condition. */
export type Versioned<Record> = Record & { etag: string };


/** The table's answer columns and the row's version as an entity tag (under the tags' key, etagKey). */
function recordColumns(table: { name: TableName; columns: readonly string[] }, key: string) {
  return [...table.columns, etagColumn(key, table.name).as('etag')] as const;
}

/** The organisation's records, oldest first (SPEC §4: the wizards' default is the last contact). */
export async function listContacts<Fields, Record>(db: Db, table: ContactTable<Fields, Record>, organizationId: number): Promise<Versioned<Record>[]> {
  const rows = await contactDb(db).selectFrom(table.name).select(recordColumns(table, await etagKey(db))).where('organizationId', '=', organizationId).orderBy('id').execute();
  return rows as unknown as Versioned<Record>[];
}

export async function findContact<Fields, Record>(db: Db, table: ContactTable<Fields, Record>, organizationId: number, id: number): Promise<Versioned<Record> | undefined> {
  const row = await contactDb(db).selectFrom(table.name).select(recordColumns(table, await etagKey(db))).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row as unknown as Versioned<Record> | undefined;
}

/** The record alone, where it is part of another (an application's contacts): no version of its own there. */
export async function findContactRecord<Fields, Record>(db: Db, table: ContactTable<Fields, Record>, organizationId: number, id: number): Promise<Record | undefined> {
  const row = await contactDb(db).selectFrom(table.name).select(table.columns).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row as unknown as Record | undefined;
}

/** A contact as the audit trail names it: the corporation and the department, not the person (personal data stays out of the trail). */
function contactLabel(table: ContactTable<unknown, unknown>, row: { [column: string]: unknown }) {
  return { type: table.auditType, label: [row.corporationName, row.departmentName].filter(Boolean).join(' ') };
}

function contactTarget(table: ContactTable<unknown, unknown>, row: { id?: unknown; [column: string]: unknown }) {
  return { ...contactLabel(table, row), id: Number(row.id) };
}

/** The fields a trail entry compares (the id and the organisation are the target, not changes); personal ones are recorded without their values (audit.ts). */
function auditedFields(table: ContactTable<unknown, unknown>): string[] {
  return table.columns.filter((column) => column !== 'id' && column !== 'organizationId');
}

/**
 * Adds the record and its trail entry in one statement (trail.recordWrite): no transaction to open and commit. The
 * entry is worked out from the values inserted, which are the row's: every column is given (none left to a default)
 * and text is stored as given; the row's id is the database's.
 */
export async function createContact<Fields, Record>(db: Db, table: ContactTable<Fields, Record>, organizationId: number, fields: Fields, trail: AuditTrail): Promise<Versioned<Record>> {
  const key = await etagKey(db);
  const kind = table as ContactTable<unknown, unknown>;
  const values = { ...table.values(fields), organizationId } as { organizationId: number; [column: string]: unknown };
  const insert = contactDb(db).insertInto(table.name).values(values).returning(recordColumns(kind, key));
  const row = await trail.recordWrite(db, insert, { action: `${table.auditType}.created`, target: contactLabel(kind, values), changes: changesBetween(undefined, values, auditedFields(kind)) });
  return row as unknown as Versioned<Record>;
}

/** A change of a record: made, or not, as the organisation has no such record or it is no longer the version asked for. */
export type ContactChange<Result> = { outcome: 'done'; result: Result } | { outcome: 'not_found' } | { outcome: 'stale' };

/** The record, locked for the change, if the organisation has it. */
function lockedRecord(trx: Db, key: string, table: ContactTable<unknown, unknown>, organizationId: number, id: number) {
  return contactDb(trx).selectFrom(table.name).select(recordColumns(table, key)).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Changes the record to `fields` if it is still the version the precondition asks for (issue 28): the locked read, then
 * the update and its trail entry in one statement (trail.recordWrite, issue 47). The entry's changes are worked out
 * from the locked row and the values set, which are the row's after the update (every record column is set, text as
 * given). Nothing changed: the update alone, no entry, as before.
 */
export async function updateContact<Fields, Record>(
  db: Db,
  table: ContactTable<Fields, Record>,
  organizationId: number,
  id: number,
  change: { fields: Fields; precondition?: Precondition },
  trail: AuditTrail,
): Promise<ContactChange<Versioned<Record>>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<ContactChange<Versioned<Record>>> => {
    const kind = table as ContactTable<unknown, unknown>;
    const before = await lockedRecord(trx, key, kind, organizationId, id);
    if (!before) return { outcome: 'not_found' };
    if (!satisfies(before.etag as string, change.precondition)) return { outcome: 'stale' };
    const values = table.values(change.fields) as { [column: string]: unknown };
    const update = contactDb(trx)
      .updateTable(table.name)
      .set({ ...values, updatedAt: new Date() })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .returning(recordColumns(kind, key));
    const changes = changesBetween(before, values, auditedFields(kind));
    const row = Object.keys(changes).length > 0
      ? await trail.recordWrite(trx, update, { action: `${table.auditType}.updated`, target: contactLabel(kind, values), changes })
      : await update.executeTakeFirstOrThrow();
    return { outcome: 'done', result: row as unknown as Versioned<Record> };
  });
}

/** Deletes the record if it is still the version the precondition asks for. */
export async function deleteContact<Fields, Record>(
  db: Db,
  table: ContactTable<Fields, Record>,
  organizationId: number,
  id: number,
  precondition: Precondition | undefined,
  trail: AuditTrail,
): Promise<ContactChange<true>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<ContactChange<true>> => {
    const kind = table as ContactTable<unknown, unknown>;
    const row = await lockedRecord(trx, key, kind, organizationId, id);
    if (!row) return { outcome: 'not_found' };
    if (!satisfies(row.etag as string, precondition)) return { outcome: 'stale' };
    await contactDb(trx).deleteFrom(table.name).where('organizationId', '=', organizationId).where('id', '=', id).execute();
    await trail.record(trx, { action: `${table.auditType}.deleted`, target: contactTarget(kind, row), changes: changesBetween(row, undefined, auditedFields(kind)) });
    return { outcome: 'done', result: true };
  });
}

/** The organisation's records changed since the position and those removed, a page at a time (incremental sync, issue 46: domain/sync.ts). */
export async function contactChanges<Fields, Record>(
  db: Db,
  table: ContactTable<Fields, Record>,
  organizationId: number,
  page: SyncStart & { limit: number },
): Promise<SyncPage<Versioned<Record>>> {
  const key = await etagKey(db);
  return readSyncPage(db, table.name, organizationId, page, async (trx, ids) => {
    const rows = await contactDb(trx).selectFrom(table.name).select(recordColumns(table, key)).where('organizationId', '=', organizationId).where('id', '=', anyInt(ids)).execute();
    return new Map(rows.map((row) => [row.id as number, row as unknown as Versioned<Record>]));
  });
}
