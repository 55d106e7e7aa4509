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
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { OrganizationUser, UserRowError } from '../../common/api/answers.js';
import { API_ERROR, USER_ROW_ERROR, type CsvFormatError, type UserRowErrorCode } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';

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
export function listUsers(db: Db, organizationId: number): Promise<OrganizationUser[]> {
  return usersQuery(db, organizationId).execute();
}

/** The list as CSV text (no byte-order mark: the page adds it when it saves the file, SPEC §9). */
export function usersCsv(users: readonly OrganizationUser[]): string {
  return stringify(
    users.map((user) => USERS_CSV_HEADER.map((column) => String(user[column]))),
    { header: true, columns: [...USERS_CSV_HEADER], record_delimiter: 'windows' },
  );
}

/** The rows of an uploaded CSV, or a format problem: the header must be USERS_CSV_HEADER and every row as wide. */
export function parseUsersCsv(file: Buffer): Record<(typeof USERS_CSV_HEADER)[number], string>[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    throw new CsvFormatProblem(API_ERROR.invalidCsvFormat); // not UTF-8 (e.g. saved as Shift_JIS)
  }
  if (text.replace(/^\uFEFF/, '').trim() === '') throw new CsvFormatProblem(API_ERROR.fileNotFound);
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: false });
  } catch {
    throw new CsvFormatProblem(API_ERROR.malformedCsv); // unbalanced quotes, rows of another width
  }
  const [header, ...rows] = records;
  if (!header || header.length !== USERS_CSV_HEADER.length || header.some((name, index) => name.trim() !== USERS_CSV_HEADER[index])) {
    throw new CsvFormatProblem(API_ERROR.invalidHeader);
  }
  return rows.map((row) => Object.fromEntries(USERS_CSV_HEADER.map((column, index) => [column, row[index]!])) as Record<(typeof USERS_CSV_HEADER)[number], string>);
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
export function checkRows(rows: readonly Record<string, string | number | undefined>[], stored: readonly OrganizationUser[]): CheckedRows {
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
    for (const field of FIXED_FIELDS) if (given[field] !== user[field]) fail(field, USER_ROW_ERROR.cannotBeChanged);
    const problem = nameIdProblem(nameId, user.nameIdType);
    if (problem) fail('nameId', problem);
    return { ...given, nameIdType: user.nameIdType };
  });
  return { users, errors };
}

/** Reads an uploaded CSV and checks it against the organisation's learners (the preview; nothing is written). */
export async function previewUsersCsv(db: Db, organizationId: number, file: Buffer): Promise<CheckedRows> {
  const rows = parseUsersCsv(file);
  return checkRows(rows, await listUsers(db, organizationId));
}

export type BulkUpdateResult = { ok: true; users: OrganizationUser[] } | { ok: false; errors: UserRowError[]; users: OrganizationUser[] };

/**
 * The bulk update (SPEC §7 POST …/users/bulk_update): the previewed rows are checked again against the learners as
 * they are now (locked for the transaction) and every changed nameId written, in ONE transaction: all rows or none.
 */
export async function bulkUpdateUsers(db: Db, organizationId: number, rows: readonly UserInput[]): Promise<BulkUpdateResult> {
  return db.transaction().execute(async (trx) => {
    const stored = await usersQuery(trx, organizationId).forUpdate().execute();
    const checked = checkRows(rows as unknown as Record<string, string | number | undefined>[], stored);
    if (checked.errors.length > 0) return { ok: false, errors: checked.errors, users: checked.users };
    const byId = new Map(stored.map((user) => [user.id, user]));
    const now = new Date();
    for (const user of checked.users) {
      if (byId.get(user.id)!.nameId === user.nameId) continue;
      await trx.updateTable('organizationUsers').set({ nameId: user.nameId, updatedAt: now }).where('id', '=', user.id).where('organizationId', '=', organizationId).execute();
    }
    return { ok: true, users: await usersQuery(trx, organizationId).execute() };
  });
}

export type UpdateUserResult = { ok: true; user: OrganizationUser } | { ok: false; reason: 'not_found' } | { ok: false; reason: 'invalid'; errors: Array<{ field: string; code: UserRowErrorCode }> };

/** One learner's edit (SPEC 2.15 Edit, PATCH …/users/{userId}): only nameId changes; the names and e-mail must be the stored ones. */
export async function updateUser(db: Db, organizationId: number, userId: number, input: UserInput): Promise<UpdateUserResult> {
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
    return { ok: true, user: { ...user, nameId } };
  });
}
