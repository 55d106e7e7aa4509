/**
 * The embedded database's upkeep (db/upkeep.ts, issue 47): the tables autovacuum would vacuum or analyze are, and no
 * other. Autovacuum is off for the learners' table here, so that on PostgreSQL only the upkeep touches it.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { seedDemoData } from '../../../src/server/db/seed/index.js';
import { tablesDue, upkeepEmbeddedDatabase } from '../../../src/server/db/upkeep.js';
import { capturingLogger } from '../support/log.js';
import { createTestApp, createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('server/db/upkeep', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
    await sql`alter table organization_users set (autovacuum_enabled = off)`.execute(database.db);
  });
  after(async () => database.destroy());

  const learnerStats = async () =>
    (
      await sql<{ modified: number; dead: number; analyzed: Date | null; vacuumed: Date | null }>`select n_mod_since_analyze::int as modified,
        n_dead_tup::int as dead, last_analyze as analyzed, last_vacuum as vacuumed from pg_stat_user_tables where relname = 'organization_users'`.execute(database.db)
    ).rows[0]!;

  /** Until the learners' counts, which reach pg_stat a second or so after their transaction, pass `check`. */
  async function until(check: (stats: Awaited<ReturnType<typeof learnerStats>>) => boolean) {
    while (!check(await learnerStats())) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const time = (date: Date | null) => date?.getTime() ?? 0;

  const addLearnersUnanalyzed = (count: number, prefix = 'upkeep') =>
    sql`insert into organization_users (organization_id, last_name, first_name, kana_last_name, kana_first_name, email, name_id, name_id_type)
      select 1, '学習' || n, '太郎', 'がくしゅう', 'たろう', ${prefix} || n || '@example.com', 'U' || n, 'nameId' from generate_series(1, ${count}::int) as n`.execute(database.db);

  const csvBatchPlan = async () =>
    (await sql`explain select id from organization_users where organization_id = 1 and id > 1000 order by id limit 500`.execute(database.db)).rows
      .map((row) => String(Object.values(row as object)[0]))
      .join('\n');

  it('analyzes a table that grew, so that a batch of learners is read in index order without sorting the rest', async () => {
    const before = await learnerStats();
    await addLearnersUnanalyzed(20_000);
    await until((stats) => stats.modified >= 20_000);
    const done = await upkeepEmbeddedDatabase(database.db);
    expect(done.find((table) => table.table === 'organization_users')).to.deep.equal({ table: 'organization_users', vacuum: true, analyze: true });
    const after = await learnerStats();
    expect(time(after.analyzed)).to.be.above(time(before.analyzed));
    expect(after.modified).to.equal(0);
    const plan = await csvBatchPlan();
    expect(plan, plan).not.to.match(/Sort|Bitmap/);
  });

  it('vacuums a table whose dead rows pass the threshold', async () => {
    const before = await learnerStats();
    await sql`delete from organization_users where email like 'upkeep%' and id % 2 = 0`.execute(database.db);
    await until((stats) => stats.dead >= 10_000);
    expect((await tablesDue(database.db)).find((table) => table.table === 'organization_users')).to.include({ vacuum: true });
    await upkeepEmbeddedDatabase(database.db);
    const after = await learnerStats();
    expect(time(after.vacuumed)).to.be.above(time(before.vacuumed));
    expect(after.dead).to.equal(0);
  });

  it('leaves a table alone while its changes are under the thresholds', async () => {
    await until((stats) => stats.modified === 0 && stats.dead === 0);
    await sql`update organization_users set first_name = '花子' where id in (select id from organization_users where email like 'upkeep%' order by id limit 40)`.execute(database.db);
    await until((stats) => stats.modified >= 40);
    const before = await learnerStats();
    expect((await tablesDue(database.db)).map((table) => table.table)).not.to.include('organization_users');
    await upkeepEmbeddedDatabase(database.db);
    const after = await learnerStats();
    expect([after.analyzed, after.vacuumed]).to.deep.equal([before.analyzed, before.vacuumed]);
  });

  it('runs every PGLITE_UPKEEP_INTERVAL in a portal on the embedded database, and logs the tables it touched', async function () {
    if (database.database.kind !== 'pglite') this.skip(); // PostgreSQL's autovacuum does it there
    const { logger, lines } = capturingLogger();
    const portal = await createTestApp({ testDatabase: database, logger, periodicJobs: true, env: { PGLITE_UPKEEP_INTERVAL: '1s' } });
    try {
      await addLearnersUnanalyzed(2_000, 'portal');
      const learnersLogged = () =>
        lines
          .filter((line) => line.msg === 'embedded database: vacuumed and analyzed')
          .flatMap((line) => line.tables as Array<{ table: string; analyze: boolean }>)
          .find((table) => table.table === 'organization_users');
      while (!learnersLogged()) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(learnersLogged()).to.include({ analyze: true });
    } finally {
      await portal.close();
    }
  });
});
