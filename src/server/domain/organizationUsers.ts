/**
 * The organisation's learners (SPEC §3 Organisation user, 2.15 Users, §5 CSV upload, §7 Users): the list, its CSV,
 * the check of an edited CSV (preview), the bulk update and the edit of one learner. Knows nothing of HTTP.
 *
 * The CSV is the list as downloaded: a header and one row per learner, in the order of the list. Editing rules (SPEC
 * 2.15): the header, the columns and the rows cannot be added or deleted, the names and the e-mail cannot change, and
 * nameId must be single-byte alphanumerics (and blank or present by the learner's nameIdType, SPEC §5). Rows are
 * matched to learners by id. A file that is no such table is a format error (400); a table whose rows break a rule
 * answers row errors (422) with the rows as read, so the page can show them.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import iconv from 'iconv-lite';
import { sql } from 'kysely';
import type { OrganizationUser, UserRowError } from '../../common/api/answers.js';
import { API_ERROR, USER_ROW_ERROR, type CsvFormatError, type UserRowErrorCode } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import type { AuditEntry, AuditTrail } from './audit.js';
import { CSV_BATCH_ROWS, csvStream, unguardCsvCell } from './csv.js';

/** The CSV's header, in order (the fields of SPEC §3 Organisation user the page shows, and the id that matches rows). */
export const USERS_CSV_HEADER = ['id', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email', 'nameId'] as const;

/** The fields that cannot change through the portal (SPEC 2.15: names and e-mail). */
const FIXED_FIELDS = ['lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email'] as const;

const NAME_ID_MAX_LENGTH = 255;
const NAME_ID_PATTERN = /^[A-Za-z0-9]*$/;

/** What a learner's editable part looks like as the page sends it (PATCH body, bulk update rows). */
export interface UserInput {
  id?: number;
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
  email: string;
  nameId?: string;
}

/** A file that is not the learner table (400 {error}). */
export class CsvFormatProblem extends Error {
  constructor(readonly code: CsvFormatError) {
    super(`learner CSV: ${code}`);
    this.name = 'CsvFormatProblem';
  }
}

const snake = (field: string): string => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function usersQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('organizationUsers')
    .select(['id', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email', 'nameId', 'nameIdType'])
    .where('organizationId', '=', organizationId)
    .orderBy('id');
}

/** The organisation's learners, in the order of the list and of the CSV (by id). */
function listUsers(db: Db, organizationId: number): Promise<OrganizationUser[]> {
  return usersQuery(db, organizationId).execute();
}

/** The list as CSV (no byte-order mark: the page adds it when it saves the file, SPEC §9), formula cells guarded, read a batch at a time. */
export function usersCsv(db: Db, organizationId: number, maxRows: number): Readable {
  return csvStream(
    { columns: USERS_CSV_HEADER, bom: false, maxRows },
    mapBatches(userBatches(db, organizationId), (user) => USERS_CSV_HEADER.map((column) => String(user[column]))),
  );
}

async function* mapBatches<T, U>(batches: AsyncIterable<T[]>, map: (item: T) => U): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}

/** The learners by id, CSV_BATCH_ROWS at a time (each batch after the last id of the one before; index (organization_id, id)). */
export async function* userBatches(db: Db, organizationId: number): AsyncGenerator<OrganizationUser[]> {
  for (let after = 0; ; ) {
    const users = await usersQuery(db, organizationId).where('id', '>', after).limit(CSV_BATCH_ROWS).execute();
    yield users;
    if (users.length < CSV_BATCH_ROWS) return;
    after = users.at(-1)!.id;
  }
}

/** The most learners one page of the list holds (GET users?per_page=). */
export const USERS_PAGE_MAX = 1000;

/** The learners after the id `after` by id, at most `perPage`, and the next page's cursor (null on the last). */
export async function userPage(db: Db, organizationId: number, page: { after: number; perPage: number }): Promise<{ users: OrganizationUser[]; nextAfter: number | null }> {
  // one row past the page says whether another follows
  const users = await usersQuery(db, organizationId).where('id', '>', page.after).limit(page.perPage + 1).execute();
  if (users.length <= page.perPage) return { users, nextAfter: null };
  users.length = page.perPage;
  return { users, nextAfter: users.at(-1)!.id };
}

/** The encodings an uploaded CSV may come in: what Japanese Excel saves ("CSV UTF-8", "CSV (カンマ区切り)" = CP932). */
export type CsvEncoding = 'utf-8' | 'cp932';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What a decoder puts for bytes it cannot read, or a converting tool for a character it could not keep. */
const REPLACEMENT = '\uFFFD';

/**
 * The text of an uploaded CSV and its encoding: a UTF-8 byte-order mark, else strict UTF-8, else CP932 (issue 19).
 * Bytes that are neither (CP932 cannot read them either) are a format problem, not characters silently replaced.
 */
export function decodeCsv(file: Buffer): { text: string; encoding: CsvEncoding } {
  if (file.subarray(0, 3).equals(UTF8_BOM)) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(file.subarray(3)), encoding: 'utf-8' };
    } catch {
      throw new CsvFormatProblem(API_ERROR.invalidCsvFormat); // a BOM, then bytes that are not UTF-8
    }
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(file), encoding: 'utf-8' };
  } catch {
    const text = iconv.decode(file, 'cp932');
    if (text.includes(REPLACEMENT)) throw new CsvFormatProblem(API_ERROR.invalidCsvFormat);
    return { text, encoding: 'cp932' };
  }
}

/** A stored value as it comes back after a trip through the encoding: CP932 writes '?' for what it cannot hold. */
function throughEncoding(value: string, encoding: CsvEncoding): string {
  return encoding === 'cp932' ? iconv.decode(iconv.encode(value, 'cp932'), 'cp932') : value;
}

export type UsersCsvRow = Record<(typeof USERS_CSV_HEADER)[number], string>;

/** The rows of an uploaded CSV (the export's formula guard removed) and its encoding, or a format problem: the header must be USERS_CSV_HEADER and every row as wide. */
export function parseUsersCsv(file: Buffer): { rows: UsersCsvRow[]; encoding: CsvEncoding } {
  const { text, encoding } = decodeCsv(file);
  if (text.trim() === '') throw new CsvFormatProblem(API_ERROR.fileNotFound);
  let records: string[][];
  try {
    records = parse(text, { skip_empty_lines: true, relax_column_count: false });
  } catch {
    throw new CsvFormatProblem(API_ERROR.malformedCsv); // unbalanced quotes, rows of another width
  }
  const [header, ...rows] = records;
  if (!header || header.length !== USERS_CSV_HEADER.length || header.some((name, index) => name.trim() !== USERS_CSV_HEADER[index])) {
    throw new CsvFormatProblem(API_ERROR.invalidHeader);
  }
  return { rows: rows.map((row) => Object.fromEntries(USERS_CSV_HEADER.map((column, index) => [column, unguardCsvCell(row[index]!)])) as UsersCsvRow), encoding };
}

/** The nameId rules (SPEC §5 CSV upload) for a learner of this nameIdType: the code of the first broken one. */
export function nameIdProblem(nameId: string, nameIdType: OrganizationUser['nameIdType']): UserRowErrorCode | undefined {
  if (nameId.length > NAME_ID_MAX_LENGTH) return USER_ROW_ERROR.tooLong;
  if (!NAME_ID_PATTERN.test(nameId)) return USER_ROW_ERROR.invalidFormat;
  if (nameIdType === null && nameId !== '') return USER_ROW_ERROR.nameIdMustBeBlankWhenIdpNotSpecified;
  if (nameIdType === 'email' && nameId !== '') return USER_ROW_ERROR.nameIdMustBeBlankWhenNameIdTypeIsEmail;
  if (nameIdType === 'nameId' && nameId === '') return USER_ROW_ERROR.nameIdMustBePresentWhenNameIdTypeIsNameId;
  return undefined;
}

export interface CheckedRows {
  /** The rows as given, with the stored nameIdType of the learner they name. */
  users: OrganizationUser[];
  errors: UserRowError[];
}

/**
 * Checks rows (of a CSV, or of a bulk update's body) against the stored learners. The number of rows must equal the
 * number of learners (rows cannot be added or deleted: otherwise a format problem); each row must name a learner of
 * the organisation once, keep its names and e-mail, and carry a valid nameId. Row numbers count the header as line 1.
 */
export function checkRows(rows: readonly Record<string, string | number | undefined>[], stored: readonly OrganizationUser[], encoding: CsvEncoding = 'utf-8'): CheckedRows {
  if (rows.length !== stored.length) throw new CsvFormatProblem(API_ERROR.invalidCsvFormat);
  const byId = new Map(stored.map((user) => [user.id, user]));
  const seen = new Set<number>();
  const errors: UserRowError[] = [];
  const users = rows.map((row, index): OrganizationUser => {
    const rowNo = index + 2;
    const fail = (field: string, code: UserRowErrorCode) => errors.push({ field: snake(field), code, meta: { rowNo } });
    const text = (field: string) => String(row[field] ?? '');
    const id = /^\d{1,9}$/.test(String(row.id ?? '').trim()) ? Number(String(row.id).trim()) : 0;
    const user = byId.get(id);
    const nameId = text('nameId').trim();
    const given = { id, lastName: text('lastName'), firstName: text('firstName'), kanaLastName: text('kanaLastName'), kanaFirstName: text('kanaFirstName'), email: text('email'), nameId };
    if (!user) {
      fail('id', USER_ROW_ERROR.notFound);
      return { ...given, nameIdType: null };
    }
    if (seen.has(id)) fail('id', USER_ROW_ERROR.duplicated);
    seen.add(id);
    for (const field of FIXED_FIELDS) if (given[field] !== user[field]) fail(field, lost(given[field], user[field], encoding) ? USER_ROW_ERROR.lostCharacter : USER_ROW_ERROR.cannotBeChanged);
    const problem = text('nameId').includes(REPLACEMENT) ? USER_ROW_ERROR.lostCharacter : nameIdProblem(nameId, user.nameIdType);
    if (problem) fail('nameId', problem);
    return { ...given, nameIdType: user.nameIdType };
  });
  return { users, errors };
}

/** A changed value that is the stored one with characters lost on the way (U+FFFD, or CP932's '?'): named as such, not as an edit. */
function lost(given: string, stored: string, encoding: CsvEncoding): boolean {
  return given.includes(REPLACEMENT) || (encoding === 'cp932' && given === throughEncoding(stored, encoding));
}

/** Reads an uploaded CSV and checks it against the organisation's learners (the preview; nothing is written). */
export async function previewUsersCsv(db: Db, organizationId: number, file: Buffer): Promise<CheckedRows> {
  const { rows, encoding } = parseUsersCsv(file);
  return checkRows(rows, await listUsers(db, organizationId), encoding);
}

/** How many learners' changes one bulk update's trail entry lists (its label counts them all): an entry stays small. */
export const AUDIT_BULK_CHANGES = 100;

/**
 * The trail entry of a bulk update: which learners' nameId changed, the first AUDIT_BULK_CHANGES of them (the trail
 * keeps no nameId values: audit.ts). A learner is named by #id, the id of the API's users/{userId}, rather than the
 * e-mail (personal data) or a keyed hash of it: the id already tells learners apart within the organisation, needs no
 * key to keep, and says nothing once the learner is gone.
 */
function bulkUpdateEntry(organizationId: number, changed: Array<{ id: number; before: string; after: string }>): AuditEntry {
  const changes = Object.fromEntries(changed.slice(0, AUDIT_BULK_CHANGES).map((user) => [`nameId ${learnerLabel(user.id)}`, { before: user.before, after: user.after }]));
  return { action: 'users.bulkUpdated', target: { type: 'users', id: organizationId, label: String(changed.length) }, changes };
}

/** A learner as the trail names them: by id, not by e-mail (personal data stays out of the trail). */
const learnerLabel = (id: number) => `#${id}`;

export type BulkUpdateResult = { ok: true; users: OrganizationUser[] } | { ok: false; errors: UserRowError[]; users: OrganizationUser[] };

/**
 * The bulk update (SPEC §7 POST …/users/bulk_update): the previewed rows are checked again against the learners as
 * they are now (locked for the transaction) and every changed nameId written, in ONE transaction: all rows or none.
 */
export async function bulkUpdateUsers(db: Db, organizationId: number, rows: readonly UserInput[], trail: AuditTrail): Promise<BulkUpdateResult> {
  return db.transaction().execute(async (trx) => {
    const stored = await usersQuery(trx, organizationId).forUpdate().execute();
    const checked = checkRows(rows as unknown as Record<string, string | number | undefined>[], stored);
    if (checked.errors.length > 0) return { ok: false, errors: checked.errors, users: checked.users };
    const byId = new Map(stored.map((user) => [user.id, user]));
    const changed = checked.users.filter((user) => byId.get(user.id)!.nameId !== user.nameId);
    // one statement with one array per column, whatever the number of rows (db/lists.ts)
    if (changed.length > 0) {
      await sql`update organization_users as learner set name_id = given.name_id, updated_at = ${new Date()}
        from unnest(${changed.map((user) => user.id)}::int[], ${changed.map((user) => user.nameId)}::text[]) as given(id, name_id)
        where learner.organization_id = ${organizationId} and learner.id = given.id`.execute(trx);
      await trail.record(trx, bulkUpdateEntry(organizationId, changed.map((user) => ({ id: user.id, before: byId.get(user.id)!.nameId, after: user.nameId }))));
    }
    return { ok: true, users: await usersQuery(trx, organizationId).execute() };
  });
}

export type UpdateUserResult = { ok: true; user: OrganizationUser } | { ok: false; reason: 'not_found' } | { ok: false; reason: 'invalid'; errors: Array<{ field: string; code: UserRowErrorCode }> };

/** One learner's edit (SPEC 2.15 Edit, PATCH …/users/{userId}): only nameId changes; the names and e-mail must be the stored ones. */
export async function updateUser(db: Db, organizationId: number, userId: number, input: UserInput, trail: AuditTrail): Promise<UpdateUserResult> {
  return db.transaction().execute(async (trx): Promise<UpdateUserResult> => {
    const user = await usersQuery(trx, organizationId).where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return { ok: false, reason: 'not_found' };
    const nameId = (input.nameId ?? '').trim();
    const errors: Array<{ field: string; code: UserRowErrorCode }> = [];
    for (const field of FIXED_FIELDS) if (input[field] !== user[field]) errors.push({ field: snake(field), code: USER_ROW_ERROR.cannotBeChanged });
    const problem = nameIdProblem(nameId, user.nameIdType);
    if (problem) errors.push({ field: 'name_id', code: problem });
    if (errors.length > 0) return { ok: false, reason: 'invalid', errors };
    await trx.updateTable('organizationUsers').set({ nameId, updatedAt: new Date() }).where('id', '=', userId).execute();
    if (nameId !== user.nameId) {
      await trail.record(trx, { action: 'user.nameIdChanged', target: { type: 'user', id: userId, label: learnerLabel(userId) }, changes: { nameId: { before: user.nameId, after: nameId } } });
    }
    return { ok: true, user: { ...user, nameId } };
  });
}
