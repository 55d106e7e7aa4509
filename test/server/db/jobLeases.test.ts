/**
 * The periodic jobs' leases (db/jobLeases.ts): one instance at a time; a lease that ran out is taken over, and its
 * old holder, finishing late, gives back only its own (issue 44 finding 11).
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { withJobLease } from '../../../src/server/db/jobLeases.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe('db/jobLeases', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => database.destroy());

  const held = async (name: string) =>
    (await database.db.selectFrom('jobLeases').select(sql<boolean>`held_until > now()`.as('held')).where('name', '=', name).executeTakeFirst())?.held ?? false;

  it('runs the job while no other instance holds the lease, and gives the lease back after it', async () => {
    expect(await withJobLease(database.db, 'first', 60, async () => {
      expect(await withJobLease(database.db, 'first', 60, async () => 'second'), 'held meanwhile').to.equal(undefined);
      return 'ran';
    })).to.equal('ran');
    expect(await held('first')).to.equal(false);
    expect(await withJobLease(database.db, 'first', 60, async () => 'again')).to.equal('again');
  });

  it('leaves the lease of the instance that took it over after it ran out when the old holder finishes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const takenOver = new Promise<void>((resolve) => (started = resolve));
    let second: Promise<string | undefined> | undefined;
    await withJobLease(database.db, 'slow', 60, async () => {
      // the first holder outlives its lease: another instance takes the job over
      await database.db.updateTable('jobLeases').set({ heldUntil: sql<Date>`now() - interval '1 second'` }).where('name', '=', 'slow').execute();
      second = withJobLease(database.db, 'slow', 60, async () => {
        started();
        await released;
        return 'second';
      });
      await takenOver;
    });
    expect(await held('slow'), "the second holder's lease").to.equal(true);
    expect(await withJobLease(database.db, 'slow', 60, async () => 'third')).to.equal(undefined);
    release();
    expect(await second).to.equal('second');
    expect(await held('slow')).to.equal(false);
  });
});
