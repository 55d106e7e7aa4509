/**
 * Migration 0111 (issue 47): an application's learner count is stored on it and kept by triggers, whoever inserts
 * or deletes its learners and however many applications one statement touches; the first count changes no
 * application's updated_at (an incremental sync does not see them all again). On PGlite, or on PostgreSQL with
 * TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql, type Kysely } from 'kysely';
import * as applicationLearnerCount from '../../../../src/server/db/migrations/0111_application_learner_count.js';
import { seedDemoData, seedDemoOrganizationUsers, seedDemoSubscriptionsOnce } from '../../../../src/server/db/seed/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('server/db migration 0111: the learner count stored on each application (issue 47)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
    await seedDemoOrganizationUsers(database.db);
    await seedDemoSubscriptionsOnce(database.db);
  });
  after(async () => database.destroy());

  /** Applications whose stored count is not the number of their learners. */
  const miscounted = async () =>
    (
      await sql<{ id: number }>`select s.id from corporate_subscriptions as s
        where s.learner_count <> (select count(*) from subscription_learners as l where l.subscription_id = s.id)`.execute(database.db)
    ).rows;
  const twoApplications = async () =>
    (await sql<{ id: number; learnerCount: number }>`select id, learner_count from corporate_subscriptions order by id limit 2`.execute(database.db)).rows;

  it('counts the seeded learners of every application', async () => {
    const counted = await sql<{ learners: number }>`select sum(learner_count)::int as learners from corporate_subscriptions`.execute(database.db);
    expect(counted.rows[0]!.learners).to.be.greaterThan(0);
    expect(await miscounted()).to.deep.equal([]);
  });

  it('follows an insert and a delete of learners of two applications in one statement each', async () => {
    const [first, second] = await twoApplications();
    await sql`insert into subscription_learners (subscription_id, first_name, last_name, kana_first_name, kana_last_name, email)
      select s.id, '太郎', '山田', 'たろう', 'やまだ', 'counted' || n || '.' || s.id || '@example.com'
      from (values (${first!.id}::int), (${second!.id}::int)) as s(id), generate_series(1, 3) as n`.execute(database.db);
    expect((await twoApplications()).map((row) => row.learnerCount)).to.deep.equal([first!.learnerCount + 3, second!.learnerCount + 3]);
    await sql`delete from subscription_learners where email like 'counted%'`.execute(database.db);
    expect((await twoApplications()).map((row) => row.learnerCount)).to.deep.equal([first!.learnerCount, second!.learnerCount]);
    expect(await miscounted()).to.deep.equal([]);
  });

  it("makes the first count without touching any application's updated_at", async () => {
    const updatedAt = async () => (await sql<{ id: number; updatedAt: Date }>`select id, updated_at from corporate_subscriptions order by id`.execute(database.db)).rows;
    const before = await updatedAt();
    await applicationLearnerCount.down(database.db as unknown as Kysely<unknown>);
    await applicationLearnerCount.up(database.db as unknown as Kysely<unknown>);
    expect(await updatedAt()).to.deep.equal(before);
    expect(await miscounted()).to.deep.equal([]);
  });
});
