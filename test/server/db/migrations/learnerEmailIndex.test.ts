/**
 * An application's checks read index ranges (issue 27 item 1): the learners of other applications by e-mail whatever
 * its case (migration 0090's lower(email) index), and the organisation's applications of a start month as a range of
 * its (organization_id, starts_on) index. The checks' own query shapes (domain/corporateSubscriptionChecks.ts), on
 * a demo database grown to 200 applications of 100 learners; on PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { seedDemoData } from '../../../../src/server/db/seed/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('server/db migration 0090: the application checks read index ranges (issue 27)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
    await sql`insert into corporate_subscriptions (organization_id, request_code, service_group_id, starts_on)
      select o.id, 'A' || lpad((900000000 + n * 10 + o.rank)::text, 9, '0'), (select min(id) from service_groups), date '2026-01-01' + n
      from generate_series(1, 200) as n, (select id, row_number() over (order by id) as rank from organizations limit 3) as o`.execute(database.db);
    await sql`insert into subscription_learners (subscription_id, first_name, last_name, kana_first_name, kana_last_name, email)
      select s.id, '太郎', '山田', 'たろう', 'やまだ', 'Learner' || n || '.' || s.id || '@Example.com'
      from corporate_subscriptions as s, generate_series(1, 100) as n where s.request_code like 'A9%'`.execute(database.db);
    await sql`analyze`.execute(database.db);
  });
  after(async () => database.destroy());

  const plan = async (query: ReturnType<typeof sql>) =>
    (await sql`explain ${query}`.execute(database.db)).rows.map((row) => String(Object.values(row as object)[0])).join('\n');

  it('finds learners of other applications by e-mail, whatever its case, through lower(email)', async () => {
    const text = await plan(sql`select s.request_code from subscription_learners as l join corporate_subscriptions as s on s.id = l.subscription_id
      where s.organization_id = 1 and lower(l.email) = any(${['learner7.10@example.com']}::text[])`);
    expect(text, text).to.include('subscription_learners_email_lower');
    expect(text, text).not.to.match(/Seq Scan on subscription_learners/);
  });

  it("reads a start month's applications as a range of the organisation's index", async () => {
    const text = await plan(sql`select id from corporate_subscriptions where organization_id = 1
      and starts_on >= date_trunc('month', ${'2026-05-17'}::date)::date and starts_on < (date_trunc('month', ${'2026-05-17'}::date) + interval '1 month')::date`);
    expect(text, text).to.include('corporate_subscriptions_organization');
    expect(text, text).to.match(/starts_on >=/);
  });
});
