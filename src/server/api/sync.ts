/**
 * The sync mode of the lists an integration reads (issue 46 item 4), the same on each: `updated_since` (RFC 3339) or
 * `cursor` (a previous sync answer's next_cursor) turns a list into its changes in (updated_at, id) order, a page at a
 * time, answered as `{<list>: [...], deleted: [...], next_cursor, has_more}` (domain/sync.ts). Without them the list
 * answers as it always did.
 *
 * Refusals, in the error catalogue's shapes: a malformed updated_since 422 (the query schema, like every parameter); a
 * cursor this API did not make for this list 400 bad_request (as the audit trail's page cursor); a cursor older than the
 * removals kept 422 `cursor outOfRange` (sync again from the start); a list parameter that has no meaning in the sync's
 * order (a page number, a filter) 422 invalid.
 */
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { decodeSyncCursor, encodeSyncCursor, positionSince, SyncCursorExpired, type Removal, type SyncList, type SyncPage, type SyncStart } from '../domain/sync.js';
import type { IdCodec } from '../domain/publicIds.js';
import { ApiError } from './errors.js';
import { FormValidationError } from './validation.js';

/** A sync page's size where the list has no page size of its own to take it from. */
export const SYNC_PAGE_DEFAULT = 100;

/** The two parameters, for a list's querystring schema (the OpenAPI document shows them from there). */
export const syncQueryProperties = {
  updated_since: {
    type: 'string',
    format: 'date-time',
    maxLength: 40,
    description: 'RFC 3339: only what changed at or after this time, and what was removed since (30 days at most), oldest change first; the answer has next_cursor',
  },
  cursor: {
    type: 'string',
    maxLength: 400,
    description: "a sync answer's next_cursor: go on from there (opaque; updated_since is then not needed)",
  },
} as const;

export interface SyncQuery {
  updated_since?: string;
  cursor?: string;
}

/** Where the sync asked for starts; undefined when the query asks for no sync (the list's own answer). */
export function syncStartOf(query: SyncQuery, list: SyncList, ids?: IdCodec): SyncStart | undefined {
  if (query.cursor !== undefined) {
    const cursor = decodeSyncCursor(query.cursor, list, ids);
    if (!cursor) throw new ApiError(400, API_ERROR.badRequest);
    return cursor;
  }
  if (query.updated_since === undefined) return undefined;
  const position = positionSince(query.updated_since);
  if (!position) throw new FormValidationError([{ field: 'updated_since', code: FIELD_ERROR.invalid, meta: {} }]);
  return { position };
}

/** Refuses the list's parameters that mean nothing to a sync (its order is (updated_at, id), its filter the time). */
export function refuseInSync(given: Record<string, unknown>): void {
  const fields = Object.entries(given).flatMap(([field, value]) => (value === undefined ? [] : [field]));
  if (fields.length > 0) throw new FormValidationError(fields.map((field) => ({ field, code: FIELD_ERROR.invalid, meta: {} })));
}

/** A sync page's read, a cursor too old to show every removal since answered 422 `cursor outOfRange`. */
export async function syncRead<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof SyncCursorExpired) throw new FormValidationError([{ field: 'cursor', code: FIELD_ERROR.outOfRange, meta: {} }]);
    throw error;
  }
}

/** A sync page's answer: `{<list>: [...], deleted?: [...], nextCursor, hasMore}`. */
export type SyncAnswer = Record<string, unknown>;

/**
 * The answer of a sync page (before the wire's snake_case): the items as the list shows them (`show`: with public ids),
 * each with its time; the removals as `removal` shows them (lists that keep them); the cursor, its ids through `ids`.
 */
export function syncAnswer<Item extends object>(
  listKey: string,
  list: SyncList,
  page: SyncPage<Item>,
  options: { ids?: IdCodec; show?: (item: Item) => object; removal?: (removal: Removal) => object } = {},
): SyncAnswer {
  const show = options.show ?? ((item: Item) => item);
  return {
    [listKey]: page.items.map(({ item, updatedAt }) => ({ ...show(item), updatedAt })),
    ...(options.removal && { deleted: page.deleted.map(options.removal) }),
    nextCursor: encodeSyncCursor(list, page.next, options.ids),
    hasMore: page.hasMore,
  };
}
