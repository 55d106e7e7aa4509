/** Many learners for one organisation in one statement (the Users page at a large customer's size: DEMO_LEARNERS, tests, bench). */
import { sql } from 'kysely';
import type { Db } from '../index.js';

/**
 * Adds `count` learners with Japanese names to the organisation, each of nameIdType nameId with nameId N<n>, then
 * analyzes the table as a bulk load should be: the planner knows its size before the first list is read (on PGlite no
 * autovacuum would tell it; db/upkeep.ts's first run comes a minute later).
 */
export async function addLearners(db: Db, organizationId: number, count: number): Promise<void> {
  await sql`insert into organization_users (organization_id, last_name, first_name, kana_last_name, kana_first_name, email, name_id, name_id_type)
    select ${organizationId}, '学習' || n, '太郎', 'がくしゅう', 'たろう', 'learner' || n || '@example.com', 'N' || n, 'nameId'
    from generate_series(1, ${count}::int) as n`.execute(db);
  await sql`analyze organization_users`.execute(db);
}

/** DEMO_LEARNERS: this many more learners of the demo's G0000001, when the demo data is first seeded. */
export async function addDemoLearners(db: Db, count: number): Promise<void> {
  const organization = await db.selectFrom('organizations').select('id').where('gloplaId', '=', 'G0000001').executeTakeFirstOrThrow();
  await addLearners(db, organization.id, count);
}
