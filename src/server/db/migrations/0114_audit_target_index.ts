/**
 * One target's history reads only that target's entries (issue 47 item 5): the Activity log's link "this target's
 * history" asks for a type and an id, and ids repeat across types (admin 7, contact 7, learner 7). Keyed by
 * (organisation, target id) alone, the index walked every type's entries of that id to fill a page of one type; with
 * the type as its third key a page of one type is one range in the page's order, and a target id alone (the API's
 * filter without a type) is still a range of its first two keys. It replaces 0089's target index.
 *
 * `if not exists`: on a large trail, create it beforehand `concurrently` with this name (docs/operations.md).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'create index if not exists audit_events_organization_target_of_type on audit_events (organization_id, target_id, target_type, occurred_at desc, id desc)',
  'drop index if exists audit_events_organization_target',
];

const downStatements = [
  'create index if not exists audit_events_organization_target on audit_events (organization_id, target_id, occurred_at desc, id desc)',
  'drop index if exists audit_events_organization_target_of_type',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
