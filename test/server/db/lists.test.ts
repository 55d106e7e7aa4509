/**
 * Lists in SQL (issue 15 finding 1): one array parameter whatever the list's length, and a statement with more
 * parameters than the protocol counts is refused before it is sent, leaving the database healthy. On PGlite, or on
 * PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { MAX_QUERY_PARAMETERS, QueryTooLargeError } from '../../../src/server/db/index.js';
import { allInt, anyInt, anyText } from '../../../src/server/db/lists.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('server/db lists (issue 15 finding 1)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => database.destroy());

  const healthy = async () => expect((await sql<{ x: number }>`select 1 as x`.execute(database.db)).rows).to.deep.equal([{ x: 1 }]);

  it('matches against 100,000 integers or texts with one parameter each', async () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => index + 1);
    const query = sql<{ x: number }>`select x from generate_series(0, 3) as x where x = ${anyInt(ids)} and x <> ${allInt([2])} order by x`;
    expect(query.compile(database.db).parameters).to.have.length(2);
    expect((await query.execute(database.db)).rows.map((row) => row.x)).to.deep.equal([1, 3]);
    const texts = [...ids.map(String), 'a,b', '{"}', 'back\\slash', "o'hara", 'NULL', ''];
    const echoed = await sql<{ t: string }>`select t from unnest(${texts}::text[]) as t where t = ${anyText(texts)}`.execute(database.db);
    expect(echoed.rows.map((row) => row.t)).to.deep.equal(texts);
    expect(await database.db.selectFrom('services').select('id').where('id', '=', anyInt([])).execute()).to.deep.equal([]);
    await healthy();
  });

  it(`refuses a statement of more than ${MAX_QUERY_PARAMETERS} parameters before sending it, and the database stays healthy`, async () => {
    const ids = Array.from({ length: 40_000 }, (_, index) => index + 1);
    let refused: unknown;
    try {
      await database.db.selectFrom('services').select('id').where('id', 'in', ids).execute();
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(QueryTooLargeError);
    await healthy();
    expect(await database.db.selectFrom('services').select('id').where('id', 'in', ids.slice(0, MAX_QUERY_PARAMETERS)).execute()).to.be.an('array');
    await healthy();
  });
});
