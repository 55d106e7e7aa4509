/**
 * The Activity log's filters at a large provider's size (issue 27 item 1): each filter the API offers reads its own
 * index range in the page's order — newest first, (occurred_at, id) as the cursor — instead of walking the whole
 * organisation's trail (the page index, 0087) or every organisation's (a sequential scan of millions of rows).
 * The period alone is the page index's range. A target's history: target_id first, since its filter asks for one id
 * of a type or, for the types shown by public id, one of a few (domain/audit.ts), each a range of this index.
 *
 * `if not exists`: an operator with a large trail creates them beforehand with `create index concurrently` and the same
 * names (docs/operations.md), without blocking writes; the migration then has nothing to do.
 */
import { sql, type Kysely } from 'kysely';

const AUDIT_FILTER_INDEXES: ReadonlyArray<readonly [name: string, columns: string]> = [
  ['audit_events_organization_action', 'organization_id, action, occurred_at desc, id desc'],
  ['audit_events_organization_target_type', 'organization_id, target_type, occurred_at desc, id desc'],
  ['audit_events_organization_target', 'organization_id, target_id, occurred_at desc, id desc'],
  ['audit_events_organization_actor', 'organization_id, actor_admin_id, occurred_at desc, id desc'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of AUDIT_FILTER_INDEXES) await sql.raw(`create index if not exists ${name} on audit_events (${columns})`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [name] of AUDIT_FILTER_INDEXES) await sql.raw(`drop index if exists ${name}`).execute(db);
}
