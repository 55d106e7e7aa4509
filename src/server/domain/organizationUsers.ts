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
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { sql } from 'kysely';
import Papa from 'papaparse';
import type { OrganizationUser, UserRowError } from '../../common/api/answers.js';
import { API_ERROR, USER_ROW_ERROR, type CsvFormatError, type UserRowErrorCode } from '../../common/errorCodes.js';
import type { Db } from '../db/index.js';
import { anyInt } from '../db/lists.js';
import { batchesAfterId } from '../db/batchesAfterId.js';
import { readAhead, runsElsewhere } from '../db/readAhead.js';
import type { AuditEntry, AuditTrail } from './audit.js';
import { CSV_BATCH_ROWS, csvLine, csvStream, unguardCsvCell } from './csv.js';
import { readSyncPage, type SyncPage, type SyncStart } from './sync.js';
import { etagColumn, etagKey, lastChange, lastChangeOf, satisfies, trailEntriesWithActor, type LastChange, type Precondition } from './versions.js';
import { recordWebhookEvent } from './webhookOutbox.js';
import type { Language } from '../../common/languages.js';

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

/** The learners with their versions as entity tags under `key` (etagKey). */
function usersQuery(db: Db, organizationId: number, key: string) {
  return db
    .selectFrom('organizationUsers')
    .select(['id', 'lastName', 'firstName', 'kanaLastName', 'kanaFirstName', 'email', 'nameId', 'nameIdType', etagColumn(key, 'organizationUsers').as('etag')])
    .where('organizationId', '=', organizationId)
    .orderBy('id');
}

/** The list as CSV (no byte-order mark: the page adds it when it saves the file, SPEC §9), formula cells guarded, read a batch at a time. */
export function usersCsv(db: Db, organizationId: number, maxRows: number): Readable {
  return csvStream({ columns: USERS_CSV_HEADER, bom: false, maxRows }, mapBatches(batchesById(db, (after) => csvBatch(db, organizationId, after)), (row) => csvLine(row.cells)));
}

/** ASCII's unit and record separators, which PostgreSQL joins a batch's cells with: no learner's field admits them. */
const UNIT = '\x1f';
const RECORD = '\x1e';

/**
 * The file's cells of CSV_BATCH_ROWS learners after `after`, without versions (the list's digest a learner, which the
 * file never showed). PostgreSQL joins them into one text (issue 47): read field by field, 100,000 learners cost
 * ~1.0 s on PGlite (its protocol's glue on the portal's thread, ~0.85 µs a field) and ~0.55 s on PostgreSQL (pg's
 * rows); as one text a batch ~0.35 s on both. A stored value holding a separator (no form lets one in) makes the
 * split disagree with the batch's count, and that batch is read field by field.
 */
async function csvBatch(db: Db, organizationId: number, after: number): Promise<Array<{ id: number; cells: string[] }>> {
  const batch = db.selectFrom('organizationUsers').select(USERS_CSV_HEADER).where('organizationId', '=', organizationId).where('id', '>', after).orderBy('id').limit(CSV_BATCH_ROWS);
  const cells = sql.join(USERS_CSV_HEADER.map((column) => sql.ref(`learner.${column}`)));
  const { count, text } = await db
    .selectFrom(batch.as('learner'))
    .select([sql<number>`count(*)::int`.as('count'), sql<string | null>`string_agg(concat_ws(${UNIT}, ${cells}), ${RECORD} order by learner.id)`.as('text')])
    .executeTakeFirstOrThrow();
  const rows = text === null ? [] : text.split(RECORD).map((line) => line.split(UNIT));
  if (rows.length === count && rows.every((row) => row.length === USERS_CSV_HEADER.length)) return rows.map((row) => ({ id: Number(row[0]), cells: row }));
  return (await batch.execute()).map((user) => ({ id: user.id, cells: USERS_CSV_HEADER.map((column) => String(user[column])) }));
}

async function* mapBatches<T, U>(batches: AsyncIterable<T[]>, map: (item: T) => U): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(map);
}

/**
 * Rows by id, `size` at a time (CSV_BATCH_ROWS unless said): each batch read after the last id of the one before
 * (index (organization_id, id)), until a batch comes back short; the next batch read while this one is used.
 */
function batchesById<Row extends { id: number }>(db: Db, read: (after: number) => Promise<Row[]>, size = CSV_BATCH_ROWS): AsyncGenerator<Row[]> {
  return readAhead(db, batchesAfterId(read, size));
}

/**
 * The learners as JSON, CSV_BATCH_ROWS at a time: each learner's object written by PostgreSQL (keys: the columns'
 * snake_case names, the wire's). Parsing 50,000 rows into objects to write them out again made about 17 times the
 * answer's size in garbage (issue 27).
 */
export function userJsonBatches(db: Db, organizationId: number): AsyncGenerator<string[]> {
  const rows = batchesById(db, async (after) => {
    const page = usersQuery(db, organizationId, await etagKey(db)).where('id', '>', after).limit(CSV_BATCH_ROWS).as('learner');
    return db.selectFrom(page).select(['learner.id', sql<string>`row_to_json(learner)::text`.as('json')]).orderBy('learner.id').execute();
  });
  return mapBatches(rows, (row) => row.json);
}

/**
 * How many learners one statement of a check reads: on PostgreSQL 1,000, whose rows are parsed as they arrive (100,000
 * learners read in 0.92 s rather than 1.10 in batches of 500; 5,000 took 0.78 s but held the event loop 68 ms a batch,
 * 1,000 26 ms); on PGlite CSV_BATCH_ROWS, each statement being a turn of the portal's own thread. `db`: the database,
 * also when the read is in its transaction.
 */
const storedBatchRows = (db: Db): number => (runsElsewhere(db) ? 1000 : CSV_BATCH_ROWS);

/** How learners are read in the caller's transaction `trx`: each batch locked (`forUpdate`), the tags under the key read before it. */
interface InTransaction {
  trx: Db;
  key: string;
  forUpdate: boolean;
}

/** The learners by id, read a batch at a time (in the caller's transaction with `inTransaction`). */
async function storedLearners(db: Db, organizationId: number, inTransaction?: InTransaction): Promise<Map<number, OrganizationUser>> {
  const reader = inTransaction?.trx ?? db;
  const key = inTransaction?.key ?? (await etagKey(db));
  const size = storedBatchRows(db);
  const batches = batchesById(
    reader,
    (after) => {
      const query = usersQuery(reader, organizationId, key).where('id', '>', after).limit(size);
      return (inTransaction?.forUpdate ? query.forUpdate() : query).execute();
    },
    size,
  );
  const stored = new Map<number, OrganizationUser>();
  for await (const batch of batches) for (const user of batch) stored.set(user.id, user);
  return stored;
}

/** A turn of the event loop for others between two batches of a long check (issue 27: no request holds it long). */
const otherRequestsFirst = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The most learners one page of the list holds (GET users?per_page=). */
export const USERS_PAGE_MAX = 1000;

/** The learners after the id `after` by id, at most `perPage`, and the next page's cursor (null on the last). */
export async function userPage(db: Db, organizationId: number, page: { after: number; perPage: number }): Promise<{ users: OrganizationUser[]; nextAfter: number | null }> {
  // one row past the page says whether another follows
  const users = await usersQuery(db, organizationId, await etagKey(db)).where('id', '>', page.after).limit(page.perPage + 1).execute();
  if (users.length <= page.perPage) return { users, nextAfter: null };
  users.length = page.perPage;
  return { users, nextAfter: users.at(-1)!.id };
}

/** One learner of the organisation with its version; undefined when the organisation has none with this id. */
export async function findUser(db: Db, organizationId: number, userId: number): Promise<OrganizationUser | undefined> {
  return usersQuery(db, organizationId, await etagKey(db)).where('id', '=', userId).executeTakeFirst();
}

/** The encodings an uploaded CSV may come in: what Japanese Excel saves ("CSV UTF-8", "CSV (カンマ区切り)" = CP932). */
export type CsvEncoding = 'utf-8' | 'cp932';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** What a decoder puts for bytes it cannot read, or a converting tool for a character it could not keep. */
const REPLACEMENT = '\uFFFD';
/**
 * The bytes decoded or the characters parsed in one turn of the event loop: 64 K characters are about 1,000 learners,
 * then checked CSV_BATCH_ROWS a turn (128 KB parsed and checked at once held it up to 91 ms on a slow day, 64 KB up to
 * 59; issue 27 allows 50).
 */
const CHUNK_SIZE = 64 * 1024;

/**
 * An uploaded CSV as text, and the encoding it came in: a UTF-8 byte-order mark (dropped), else strict UTF-8, else
 * CP932 (issue 19), decoded a chunk at a time. Bytes that are neither (CP932 cannot read them either) are a format
 * problem, not characters silently replaced.
 */
export async function decodedCsv(file: Buffer): Promise<{ text: string; encoding: CsvEncoding }> {
  const bom = file.subarray(0, 3).equals(UTF8_BOM);
  const content = bom ? file.subarray(3) : file;
  const encoding: CsvEncoding = isUtf8(content) ? 'utf-8' : 'cp932';
  if (bom && encoding === 'cp932') throw new CsvFormatProblem(API_ERROR.invalidCsvFormat); // a BOM, then bytes that are not UTF-8
  const decoder = iconv.getDecoder(encoding);
  const parts: string[] = [];
  for (let start = 0; start < content.length; start += CHUNK_SIZE) {
    parts.push(decoder.write(content.subarray(start, start + CHUNK_SIZE)));
    await otherRequestsFirst();
  }
  parts.push(decoder.end() ?? '');
  // U+FFFD in UTF-8 is a character the file holds (a row error, lostCharacter); from CP932 it is bytes it cannot read
  if (encoding === 'cp932' && parts.some((part) => part.includes(REPLACEMENT))) throw new CsvFormatProblem(API_ERROR.invalidCsvFormat);
  return { text: parts.join(''), encoding };
}

/** A stored value as it comes back after a trip through the encoding: CP932 writes '?' for what it cannot hold. */
function throughEncoding(value: string, encoding: CsvEncoding): string {
  return encoding === 'cp932' ? iconv.decode(iconv.encode(value, 'cp932'), 'cp932') : value;
}

export type UsersCsvRow = Record<(typeof USERS_CSV_HEADER)[number], string>;

/**
 * Papa Parse's records of `text` CHUNK_SIZE at a time (a string is parsed synchronously: the parser is paused after
 * each chunk and resumed for the next, so the reader decides when). Papa Parse rather than csv-parse: it reads a line
 * without quotes by splitting it, csv-parse byte by byte (100,000 learners: ~0.22 s against ~0.73 s).
 */
function* csvChunks(text: string): Generator<Papa.ParseResult<string[]>> {
  let next: { result: Papa.ParseResult<string[]>; parser: Papa.Parser } | undefined;
  Papa.parse<string[]>(text, {
    delimiter: ',',
    skipEmptyLines: true,
    chunkSize: CHUNK_SIZE,
    chunk: (result: Papa.ParseResult<string[]>, parser: Papa.Parser) => {
      parser.pause();
      next = { result, parser };
    },
    complete: () => undefined, // every record came by `chunk` (the types ask for one or the other)
  });
  for (let chunk = next; chunk; chunk = next) {
    next = undefined;
    yield chunk.result;
    chunk.parser.resume(); // the next chunk's `chunk` call, or none after the last
  }
}

/**
 * The rows of an uploaded CSV (as text) CSV_BATCH_ROWS at a time, the export's formula guard removed, parsed a chunk
 * at a time, a turn of the event loop after each chunk and batch; a format problem when the header is not
 * USERS_CSV_HEADER or a row is not as wide, or the quotes do not close.
 */
export async function* usersCsvRows(text: string): AsyncGenerator<UsersCsvRow[]> {
  if (/^[ \t\r\n]*$/.test(text)) throw new CsvFormatProblem(API_ERROR.fileNotFound);
  let header: string[] | undefined;
  for (const { data: records, errors } of csvChunks(text)) {
    // unbalanced quotes, or rows of another width than the first
    if (errors.length > 0 || records.some((record) => record.length !== (header ?? records[0])!.length)) throw new CsvFormatProblem(API_ERROR.malformedCsv);
    if (!header && records.length > 0) {
      header = records.shift()!;
      if (header.length !== USERS_CSV_HEADER.length || header.some((name, index) => name.trim() !== USERS_CSV_HEADER[index])) throw new CsvFormatProblem(API_ERROR.invalidHeader);
    }
    for (let at = 0; at < records.length; at += CSV_BATCH_ROWS) {
      yield records.slice(at, at + CSV_BATCH_ROWS).map((record) => rowOf(record));
      await otherRequestsFirst(); // what the reader does with a batch is a turn of its own, apart from the next chunk's parsing
    }
    await otherRequestsFirst();
  }
  if (!header) throw new CsvFormatProblem(API_ERROR.invalidHeader);
}

const rowOf = (record: string[]): UsersCsvRow => ({
  id: unguardCsvCell(record[0]!),
  lastName: unguardCsvCell(record[1]!),
  firstName: unguardCsvCell(record[2]!),
  kanaLastName: unguardCsvCell(record[3]!),
  kanaFirstName: unguardCsvCell(record[4]!),
  email: unguardCsvCell(record[5]!),
  nameId: unguardCsvCell(record[6]!),
});

/** The nameId rules (SPEC §5 CSV upload) for a learner of this nameIdType: the code of the first broken one. */
export function nameIdProblem(nameId: string, nameIdType: OrganizationUser['nameIdType']): UserRowErrorCode | undefined {
  if (nameId.length > NAME_ID_MAX_LENGTH) return USER_ROW_ERROR.tooLong;
  if (!NAME_ID_PATTERN.test(nameId)) return USER_ROW_ERROR.invalidFormat;
  if (nameIdType === null && nameId !== '') return USER_ROW_ERROR.nameIdMustBeBlankWhenIdpNotSpecified;
  if (nameIdType === 'email' && nameId !== '') return USER_ROW_ERROR.nameIdMustBeBlankWhenNameIdTypeIsEmail;
  if (nameIdType === 'nameId' && nameId === '') return USER_ROW_ERROR.nameIdMustBePresentWhenNameIdTypeIsNameId;
  return undefined;
}

/** A row as given: of a CSV, or of a bulk update's body. */
type GivenRow = Readonly<Record<string, string | number | undefined>>;

/**
 * Checks rows (of a CSV, or of a bulk update's body) against the stored learners, a batch at a time. The number of rows
 * must equal the number of learners (rows cannot be added or deleted: otherwise a format problem, said by `finish`);
 * each row must name a learner of the organisation once, keep its names and e-mail, and carry a valid nameId. Row
 * numbers count the header as line 1.
 */
export class RowCheck {
  readonly errors: UserRowError[] = [];
  /** Rows carrying a version (`etag`, as previewed) of a learner that has changed since (issue 28). */
  readonly stale: StaleRow[] = [];
  private readonly seen = new Set<number>();
  private rows = 0;

  constructor(
    private readonly stored: ReadonlyMap<number, OrganizationUser>,
    private readonly encoding: CsvEncoding = 'utf-8',
  ) {}

  /** The rows as given, each with the stored nameIdType of the learner it names; what is wrong is kept in `errors`. */
  check(rows: readonly GivenRow[]): OrganizationUser[] {
    return rows.map((row) => this.checkRow(row, (this.rows += 1) + 1));
  }

  /** Whether the rows were one per learner: a format problem otherwise. */
  finish(): void {
    if (this.rows !== this.stored.size) throw new CsvFormatProblem(API_ERROR.invalidCsvFormat);
  }

  private checkRow(row: GivenRow, rowNo: number): OrganizationUser {
    const idText = String(row.id ?? '').trim();
    const id = /^\d{1,9}$/.test(idText) ? Number(idText) : 0;
    const rawNameId = String(row.nameId ?? '');
    const user = this.stored.get(id);
    // one literal, not the given fields spread into another: a spread copied 100,000 rows in ~0.4 s
    const given: OrganizationUser = { id, lastName: text(row.lastName), firstName: text(row.firstName), kanaLastName: text(row.kanaLastName), kanaFirstName: text(row.kanaFirstName), email: text(row.email), nameId: rawNameId.trim(), nameIdType: user?.nameIdType ?? null, etag: user?.etag ?? '' };
    if (!user) {
      this.fail('id', USER_ROW_ERROR.notFound, rowNo);
      return given;
    }
    if (typeof row.etag === 'string' && row.etag !== '' && row.etag !== user.etag) this.stale.push({ rowNo, id });
    if (this.seen.has(id)) this.fail('id', USER_ROW_ERROR.duplicated, rowNo);
    this.seen.add(id);
    for (const field of FIXED_FIELDS) {
      if (given[field] !== user[field]) this.fail(field, lost(given[field], user[field], this.encoding) ? USER_ROW_ERROR.lostCharacter : USER_ROW_ERROR.cannotBeChanged, rowNo);
    }
    const problem = rawNameId.includes(REPLACEMENT) ? USER_ROW_ERROR.lostCharacter : nameIdProblem(given.nameId, user.nameIdType);
    if (problem) this.fail('nameId', problem, rowNo);
    return given;
  }

  private fail(field: string, code: UserRowErrorCode, rowNo: number): void {
    this.errors.push({ field: snake(field), code, meta: { rowNo } });
  }
}

const text = (value: string | number | undefined): string => String(value ?? '');

/** A changed value that is the stored one with characters lost on the way (U+FFFD, or CP932's '?'): named as such, not as an edit. */
function lost(given: string, stored: string, encoding: CsvEncoding): boolean {
  return given.includes(REPLACEMENT) || (encoding === 'cp932' && given === throughEncoding(stored, encoding));
}

/** What a check found: its row errors, and the rows as checked (each with its learner's stored nameIdType), a batch at a time as kept. */
export interface CheckedRows<Batch> {
  errors: UserRowError[];
  users: AsyncIterable<Batch>;
}

/** A row of a bulk update: its CSV line (the header is line 1) and its learner's id. */
export interface LearnerRow {
  rowNo: number;
  id: number;
}

/** A bulk update row made on a version of its learner that has changed since. */
export type StaleRow = LearnerRow;

/** The rows' batches checked again, for the answer (the errors were counted by the first pass). */
async function* checkedAgain(batches: AsyncIterable<readonly GivenRow[]>, stored: ReadonlyMap<number, OrganizationUser>, encoding: CsvEncoding): AsyncGenerator<OrganizationUser[]> {
  const check = new RowCheck(stored, encoding);
  for await (const rows of batches) {
    yield check.check(rows);
    await otherRequestsFirst();
  }
}

/** Batches already checked, a turn of the event loop after each as the answer is written. */
async function* heldBatches<T>(batches: readonly T[]): AsyncGenerator<T> {
  for (const batch of batches) {
    yield batch;
    await otherRequestsFirst();
  }
}

/**
 * Reads an uploaded CSV and checks it against the organisation's learners (the preview; nothing is written), a batch at
 * a time with a turn of the event loop for other requests between batches: the row errors, and the rows as checked.
 * A CsvFormatProblem when the file is no learner table. The checked rows are kept for the answer, which begins with
 * the errors, each batch as `keep` makes it (the API: the batch as written for the answer). Reading and checking the
 * file a second time instead cost a fifth of the preview's time (issue 27).
 */
export async function previewUsersCsv<Kept>(db: Db, organizationId: number, file: Buffer, keep: (users: OrganizationUser[]) => Kept): Promise<CheckedRows<Kept>> {
  // the learners read while the file is decoded (PostgreSQL reads them on the other core)
  const [{ text, encoding }, stored] = await Promise.all([decodedCsv(file), storedLearners(db, organizationId)]);
  const check = new RowCheck(stored, encoding);
  const checked: Kept[] = [];
  for await (const rows of usersCsvRows(text)) checked.push(keep(check.check(rows)));
  check.finish();
  return { errors: check.errors, users: heldBatches(checked) };
}

/** How many learners' changes one bulk update's trail entry lists (its label counts them all): an entry stays small. */
export const AUDIT_BULK_CHANGES = 100;

/**
 * The trail entry of a bulk update: which learners' nameId changed, the first AUDIT_BULK_CHANGES of them (the trail
 * keeps no nameId values: audit.ts). A learner is named by #id, the id of the API's users/{userId}, rather than the
 * e-mail (personal data) or a keyed hash of it: the id already tells learners apart within the organisation, needs no
 * key to keep, and says nothing once the learner is gone.
 */
function bulkUpdateEntry(organizationId: number, changed: ReadonlyArray<{ id: number; before: string; after: string }>): AuditEntry {
  const changes = Object.fromEntries(changed.slice(0, AUDIT_BULK_CHANGES).map((user) => [`nameId ${learnerLabel(user.id)}`, { before: user.before, after: user.after }]));
  return { action: 'users.bulkUpdated', target: { type: 'users', id: organizationId, label: String(changed.length) }, changes };
}

/** A learner as the trail names them: by id, not by e-mail (personal data stays out of the trail). */
const learnerLabel = (id: number) => `#${id}`;

/** The rows a batch at a time. */
async function* batchesOf<T>(rows: readonly T[]): AsyncGenerator<T[]> {
  for (let start = 0; start < rows.length; start += CSV_BATCH_ROWS) yield rows.slice(start, start + CSV_BATCH_ROWS);
}

/**
 * The bulk update (SPEC §7 POST …/users/bulk_update): the previewed rows are checked again against the learners as
 * they are now (locked for the transaction, a batch at a time) and every changed nameId written, in ONE transaction:
 * all rows or none. A row carrying its learner's version as previewed (`etag`) is written only on that version: rows
 * changed since are `stale` and nothing is written (issue 28). With `versionRequired` (IF_MATCH_REQUIRED), a row that
 * changes its learner must carry that version: rows without one are `unversioned` and nothing is written (issue 44).
 * Refused: the row errors, stale or unversioned rows and the rows as checked; written: none of them, and the learners
 * as they are, as JSON in wire form (userJsonBatches).
 */
export async function bulkUpdateUsers(
  db: Db,
  organizationId: number,
  rows: readonly UserInput[],
  trail: AuditTrail,
  versionRequired = false,
): Promise<{ stale: StaleRow[]; unversioned: LearnerRow[] } & ({ refused: true; errors: UserRowError[]; users: AsyncIterable<OrganizationUser[]> } | { refused: false; learners: AsyncIterable<string[]> })> {
  const given = rows as unknown as readonly GivenRow[];
  const key = await etagKey(db);
  const { errors, stale, unversioned, stored } = await db.transaction().execute(async (trx) => {
    const stored = await storedLearners(db, organizationId, { trx, key, forUpdate: true });
    const check = new RowCheck(stored);
    const changed: Array<{ id: number; before: string; after: string }> = [];
    const unversioned: LearnerRow[] = [];
    let rowNo = 1; // the header's line
    for await (const batch of batchesOf(given)) {
      for (const [index, user] of check.check(batch).entries()) {
        rowNo += 1;
        const before = stored.get(user.id)?.nameId;
        if (before === undefined || before === user.nameId) continue;
        changed.push({ id: user.id, before, after: user.nameId });
        if (versionRequired && !batch[index]!.etag) unversioned.push({ rowNo, id: user.id });
      }
      await otherRequestsFirst();
    }
    check.finish();
    // rows changed since they were previewed, or changing a learner on no version asked for: nothing is written (the API answers 412 or 428 naming them)
    if (check.stale.length === 0 && unversioned.length === 0 && check.errors.length === 0) await writeNameIds(trx, organizationId, changed, trail);
    return { errors: check.errors, stale: check.stale, unversioned, stored };
  });
  if (errors.length > 0 || stale.length > 0 || unversioned.length > 0) return { refused: true, errors, stale, unversioned, users: checkedAgain(batchesOf(given), stored, 'utf-8') };
  return { refused: false, stale, unversioned, learners: userJsonBatches(db, organizationId) };
}

/** The changed nameIds written by one statement: its two arrays stay bounded however many learners change. */
const UPDATE_CHUNK_ROWS = 5000;

/** Writes the changed nameIds, a chunk per statement with one array per column (db/lists.ts), and their trail entry. */
async function writeNameIds(trx: Db, organizationId: number, changed: ReadonlyArray<{ id: number; before: string; after: string }>, trail: AuditTrail): Promise<void> {
  if (changed.length === 0) return;
  for (let start = 0; start < changed.length; start += UPDATE_CHUNK_ROWS) {
    const chunk = changed.slice(start, start + UPDATE_CHUNK_ROWS);
    // now(): the transaction's time, which its trail entry's occurred_at is too (lastLearnerChange finds the entry by it)
    await sql`update organization_users as learner set name_id = given.name_id, updated_at = now()
      from unnest(${chunk.map((user) => user.id)}::int[], ${chunk.map((user) => user.after)}::text[]) as given(id, name_id)
      where learner.organization_id = ${organizationId} and learner.id = given.id`.execute(trx);
  }
  await trail.record(trx, bulkUpdateEntry(organizationId, changed));
  await recordWebhookEvent(trx, organizationId, 'learners.updated', learnersUpdated(changed.map((user) => user.id)));
}

/** The learners a webhook event names (issue 46): at most this many; an integration reads the rest by updated_since. */
const WEBHOOK_LEARNER_IDS = 100;

/** learners.updated's data: how many learners changed, and the first of them. */
const learnersUpdated = (ids: readonly number[]) => ({ count: ids.length, learnerIds: ids.slice(0, WEBHOOK_LEARNER_IDS) });

export type UpdateUserResult =
  | { ok: true; user: OrganizationUser }
  | { ok: false; reason: 'not_found' | 'stale' }
  | { ok: false; reason: 'invalid'; errors: Array<{ field: string; code: UserRowErrorCode }> };

/** One learner's edit (SPEC 2.15 Edit, PATCH …/users/{userId}): only nameId changes; the names and e-mail must be the stored ones. */
export async function updateUser(db: Db, organizationId: number, userId: number, input: UserInput, trail: AuditTrail, precondition?: Precondition): Promise<UpdateUserResult> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx): Promise<UpdateUserResult> => {
    const user = await usersQuery(trx, organizationId, key).where('id', '=', userId).forUpdate().executeTakeFirst();
    if (!user) return { ok: false, reason: 'not_found' };
    if (!satisfies(user.etag, precondition)) return { ok: false, reason: 'stale' };
    const nameId = (input.nameId ?? '').trim();
    const errors: Array<{ field: string; code: UserRowErrorCode }> = [];
    for (const field of FIXED_FIELDS) if (input[field] !== user[field]) errors.push({ field: snake(field), code: USER_ROW_ERROR.cannotBeChanged });
    const problem = nameIdProblem(nameId, user.nameIdType);
    if (problem) errors.push({ field: 'name_id', code: problem });
    if (errors.length > 0) return { ok: false, reason: 'invalid', errors };
    const { etag } = await trx
      .updateTable('organizationUsers')
      .set({ nameId, updatedAt: new Date() })
      .where('id', '=', userId)
      .returning(etagColumn(key, 'organizationUsers').as('etag'))
      .executeTakeFirstOrThrow();
    if (nameId !== user.nameId) {
      await trail.record(trx, { action: 'user.nameIdChanged', target: { type: 'user', id: userId, label: learnerLabel(userId) }, changes: { nameId: { before: user.nameId, after: nameId } } });
      await recordWebhookEvent(trx, organizationId, 'learners.updated', learnersUpdated([userId]));
    }
    return { ok: true, user: { ...user, nameId, etag } };
  });
}

/**
 * The bulk update that made the learner's present version, if one did: its trail entry is recorded once for all the
 * learners it changed (and names at most AUDIT_BULK_CHANGES of them), at the time it wrote their updated_at — both its
 * transaction's now(). A later bulk update that left the learner alone has another time (issue 44 finding 11).
 */
async function bulkChangeOf(db: Db, organizationId: number, id: number, language: Language): Promise<LastChange | undefined> {
  const entry = await trailEntriesWithActor(db, organizationId)
    .where('auditEvents.targetId', '=', String(organizationId))
    .where('auditEvents.targetType', '=', 'users')
    .where('auditEvents.occurredAt', '=', (eb) => eb.selectFrom('organizationUsers').select('updatedAt').where('organizationId', '=', organizationId).where('id', '=', id))
    .orderBy('auditEvents.id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return lastChangeOf(entry, language);
}

/**
 * Who last changed a learner and when: an edit of the learner, or the bulk update that made its present version,
 * whichever is later.
 */
export async function lastLearnerChange(db: Db, organizationId: number, id: number, language: Language): Promise<LastChange | undefined> {
  const [own, bulk] = await Promise.all([lastChange(db, organizationId, { type: 'user', id }, language), bulkChangeOf(db, organizationId, id, language)]);
  if (!own || !bulk) return own ?? bulk;
  return own.at >= bulk.at ? own : bulk;
}

/** The learners changed since the position and those removed, a page at a time (incremental sync, issue 46: domain/sync.ts). */
export async function learnerChanges(db: Db, organizationId: number, page: SyncStart & { limit: number }): Promise<SyncPage<OrganizationUser>> {
  const key = await etagKey(db);
  return readSyncPage(db, 'learners', organizationId, page, async (trx, ids) => {
    const users = await usersQuery(trx, organizationId, key).where('id', '=', anyInt(ids)).execute();
    return new Map(users.map((user) => [user.id, user]));
  });
}
