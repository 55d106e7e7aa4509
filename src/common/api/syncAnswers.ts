/**
 * The answers of the lists' sync mode (issue 46 item 4: `updated_since` or `cursor`): the list's own answer, its items
 * with the time of their last change, the removals (tombstones) since, and where the next read starts. Without those
 * parameters the lists answer exactly as before, so the answer schema adds only optional properties.
 */
import type { JSONSchema } from 'json-schema-to-ts';
import { objectOf, PUBLIC_ID } from './answers.js';

const SYNC_TIME = { type: 'string', format: 'date-time', description: 'UTC, microseconds: the time of the last change' } as const;

/** A removed record: its id as the list showed it, when it went. */
export const removalSchema = objectOf({ id: { type: 'integer' }, deletedAt: SYNC_TIME });
/** A removed record shown by a public id. */
export const publicRemovalSchema = objectOf({ id: { type: 'integer', description: PUBLIC_ID }, deletedAt: SYNC_TIME });
/** A cancelled application: its public id and requestCode. */
export const subscriptionRemovalSchema = objectOf({ id: { type: 'integer', description: PUBLIC_ID }, requestCode: { type: 'string' }, deletedAt: SYNC_TIME });

interface ListAnswer {
  type: 'object';
  properties: Record<string, JSONSchema>;
  required: readonly string[];
}

/**
 * The list's answer with the sync mode's properties: `listKey`'s items gain `updatedAt`; `deleted` (when the list's
 * removals are kept), `nextCursor` and `hasMore` are added. Only the list itself stays required: a page of the list
 * carries its own paging fields, a sync page these.
 */
export function withSyncProperties(listAnswer: object, listKey: string, removal?: JSONSchema): JSONSchema {
  const answer = listAnswer as ListAnswer;
  const list = answer.properties[listKey] as { items: { properties: Record<string, JSONSchema> } };
  // the audit trail's page cursor is null on its last page; a sync's never is
  const nextCursorType = answer.properties.nextCursor ? ['string', 'null'] : 'string';
  return {
    ...answer,
    properties: {
      ...answer.properties,
      [listKey]: { ...list, items: { ...list.items, properties: { ...list.items.properties, updatedAt: { ...SYNC_TIME, description: 'with updated_since or cursor: the time of its last change' } } } },
      ...(removal && {
        deleted: {
          type: 'array',
          items: removal,
          description: 'with updated_since or cursor: the records removed since, in the same order (removals are kept 30 days)',
        },
      }),
      nextCursor: {
        type: nextCursorType,
        description: "with updated_since or cursor: where the next read starts — pass it back as `cursor` (opaque); kept while has_more is false, it is the next sync's start",
      },
      hasMore: { type: 'boolean', description: 'with updated_since or cursor: true while more changes are there now (read on at once with next_cursor)' },
    },
    required: [listKey],
  } as JSONSchema;
}
