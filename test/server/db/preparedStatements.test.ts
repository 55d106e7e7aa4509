/**
 * Named prepared statements (issue 21's cost): a declared statement is parsed once per PostgreSQL connection and sent
 * by its name after that; every other statement stays unnamed. On PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { compiledOnce, preparedStatement } from '../../../src/server/db/preparedStatements.js';
import { affiliationsOfAdmin, roleInOrganization } from '../../../src/server/domain/admins.js';
import { organizationAffiliations } from '../../../src/server/domain/memberships.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

const plusOne = preparedStatement('test_plus_one', 'select $1::int + 1 as n');

describe('server/db prepared statements', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => database.destroy());

  it('answers a declared statement like any other, on either database', async () => {
    const answers = await Promise.all([1, 2, 3].map(async (value) => (await database.db.executeQuery<{ n: number }>(plusOne([value]))).rows));
    expect(answers).to.deep.equal([[{ n: 2 }], [{ n: 3 }], [{ n: 4 }]]);
  });

  it('prepares a declared statement once per PostgreSQL connection and leaves the others unnamed', async function () {
    if (database.database.kind !== 'postgres') this.skip();
    const prepared = await database.db.connection().execute(async (connection) => {
      for (const value of [1, 2, 3]) await connection.executeQuery(plusOne([value]));
      await sql`select ${1}::int + 2 as n`.execute(connection);
      return (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(connection)).rows;
    });
    expect(prepared).to.deep.equal([{ name: 'test_plus_one', statement: 'select $1::int + 1 as n' }]);
  });

  it("plans the role check of every organisation-scoped call, the admin's own affiliations (every page) and the organisation's admins once per connection", async function () {
    if (database.database.kind !== 'postgres') this.skip();
    const names = await database.db.connection().execute(async (connection) => {
      expect(await roleInOrganization(connection, 1, 1, 'G0000001')).to.equal(undefined);
      expect(await affiliationsOfAdmin(connection, 1)).to.deep.equal([]);
      expect(await organizationAffiliations(connection, 1, { adminId: 1, gloplaId: 'G0000001' })).to.equal(undefined);
      return (await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(connection)).rows.map((row) => row.name);
    });
    expect(names).to.include.members(['organization_affiliations', 'own_affiliations', 'role_in_organization']);
  });

  it('builds a compiledOnce query once per shape and runs it with the caller\'s values in place of the stand-ins', async () => {
    let builds = 0;
    const pick = compiledOnce({ low: -1, label: '\u0000label' }, (db, shape: { descending: boolean }, values) => {
      builds += 1;
      return db
        .selectFrom(sql<{ n: number }>`(select generate_series(1, 5) as n)`.as('s'))
        .select([sql<number>`n`.as('n'), sql<string>`${values.label}::text`.as('label')])
        .where(sql<boolean>`n >= ${values.low}`)
        .orderBy(sql`n`, shape.descending ? 'desc' : 'asc');
    });
    const run = async (descending: boolean, low: number, label: string) => (await database.db.executeQuery(pick(database.db, { descending }, { low, label }))).rows;
    expect(await run(false, 4, 'a')).to.deep.equal([{ n: 4, label: 'a' }, { n: 5, label: 'a' }]);
    expect(await run(false, 3, 'b')).to.deep.equal([{ n: 3, label: 'b' }, { n: 4, label: 'b' }, { n: 5, label: 'b' }]);
    expect(await run(true, 5, 'c')).to.deep.equal([{ n: 5, label: 'c' }]);
    expect(builds).to.equal(2);
  });
});
