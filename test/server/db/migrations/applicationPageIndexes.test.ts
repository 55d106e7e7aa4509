/**
 * Migration 0112 (issue 47): Service Details' page of applications is chosen from index entries alone — of one service
 * group or of all — at 4,000 applications of one organisation among 20,000; the table is read for the page's rows only. On
 * PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { seedDemoData } from '../../../../src/server/db/seed/index.js';
import { applicationPageQuery } from '../../../../src/server/domain/corporateSubscriptions.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('server/db migration 0112: a page of applications read from the index (issue 47)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let groupId: number;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
    groupId = (await sql<{ id: number }>`select min(id) as id from service_groups`.execute(database.db)).rows[0]!.id;
    // organisation 1's among four times as many of other organisations
    await sql`insert into corporate_subscriptions (organization_id, request_code, service_group_id, starts_on)
      select case when n <= 4000 then 1 else o.id end, 'A' || lpad((800000000 + n)::text, 9, '0'), ${groupId} + n % 2, date '2026-01-01' + n % 700
      from generate_series(1, 20000) as n, (select max(id) as id from organizations) as o`.execute(database.db);
    await sql`vacuum analyze corporate_subscriptions`.execute(database.db);
  });
  after(async () => database.destroy());

  const plan = async (query: ReturnType<typeof applicationPageQuery>) =>
    (await sql`explain ${query}`.execute(database.db)).rows.map((row) => String(Object.values(row as object)[0])).join('\n');

  it("chooses a service group's page from corporate_subscriptions_group_page alone", async () => {
    const text = await plan(applicationPageQuery(database.db, 1, { serviceGroupId: groupId, order: '-starts_on', page: 1, perPage: 999 }));
    expect(text, text).to.match(/Index Only Scan (Backward )?using corporate_subscriptions_group_page/);
  });

  it("chooses a page of all the organisation's applications from an index alone", async () => {
    const text = await plan(applicationPageQuery(database.db, 1, { order: 'starts_on', page: 2, perPage: 999 }));
    expect(text, text).to.match(/Index Only Scan (Backward )?using corporate_subscriptions_(organization|group)_page/);
  });
});
