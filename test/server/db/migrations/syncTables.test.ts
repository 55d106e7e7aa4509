/**
 * Migrations 0109 and 0110 (issue 46 item 4, incremental sync): updated_at is the writing transaction's time whoever
 * writes, a removal leaves a tombstone that the retention clean-up prunes after 30 days, and a sync reads ranges of
 * the lists' indexes — at 50,000 learners and 100,000 trail entries the planner reads no table whole and sorts none of
 * them. On PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { loadConfig } from '../../../../src/server/config.js';
import { seedDemoData } from '../../../../src/server/db/seed/index.js';
import { addLearners } from '../../../../src/server/db/seed/learners.js';
import { runRetention } from '../../../../src/server/domain/retention.js';
import { changedKeysQuery, type SyncList } from '../../../../src/server/domain/sync.js';
import { createTestDatabase, TEST_ENV, type TestDatabase } from '../../support/testApp.js';

const DAY = 86_400_000;

describe('server/db migrations 0109-0110: what a sync reads (issue 46)', function () {
  this.timeout(300_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    await seedDemoData(database.db);
  });
  after(async () => database.destroy());

  const now = async () => (await sql<{ now: Date }>`select now() as now`.execute(database.db)).rows[0]!.now;

  describe('updated_at', () => {
    it("is the writing transaction's time on insert and update, whatever the statement sets", async () => {
      const old = new Date('2020-01-01T00:00:00Z');
      const inserted = await database.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('contacts')
          .values({
            organizationId: 1, corporationName: 'a', departmentName: 'b', postalCode: '1', address: 'c', firstName: 'd', lastName: 'e',
            kanaFirstName: 'f', kanaLastName: 'g', phoneNumber: '1', email: 'h@example.com', updatedAt: old,
          })
          .returning(['id', 'updatedAt'])
          .executeTakeFirstOrThrow();
        return { ...row, now: (await sql<{ now: Date }>`select now() as now`.execute(trx)).rows[0]!.now };
      });
      expect(inserted.updatedAt.getTime()).to.equal(inserted.now.getTime());
      const updated = await database.db.updateTable('contacts').set({ departmentName: 'x', updatedAt: old }).where('id', '=', inserted.id).returning('updatedAt').executeTakeFirstOrThrow();
      expect(updated.updatedAt.getTime()).to.be.greaterThan(old.getTime());
      expect(updated.updatedAt.getTime()).to.be.at.least(inserted.updatedAt.getTime());
      await database.db.deleteFrom('contacts').where('id', '=', inserted.id).execute();
    });

    it("changes an application's with a contact it named removed (on delete set null)", async () => {
      const contact = await database.db
        .insertInto('contacts')
        .values({ organizationId: 1, corporationName: 'a', departmentName: 'b', postalCode: '1', address: 'c', firstName: 'd', lastName: 'e', kanaFirstName: 'f', kanaLastName: 'g', phoneNumber: '1', email: 'h@example.com' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const application = await database.db
        .insertInto('corporateSubscriptions')
        .values({ organizationId: 1, requestCode: 'A000000001', serviceGroupId: 9, startsOn: '2026-12-01', contactId: contact.id })
        .returning(['id', 'updatedAt'])
        .executeTakeFirstOrThrow();
      await database.db.deleteFrom('contacts').where('id', '=', contact.id).execute();
      const after = await database.db.selectFrom('corporateSubscriptions').select(['contactId', 'updatedAt']).where('id', '=', application.id).executeTakeFirstOrThrow();
      expect(after.contactId).to.equal(null);
      expect(after.updatedAt.getTime()).to.be.at.least(application.updatedAt.getTime());
      const tombstones = await sql<{ list: string; recordId: number }>`select list, record_id from sync_tombstones where list = 'contacts'`.execute(database.db);
      expect(tombstones.rows.map((row) => [row.list, row.recordId])).to.deep.include(['contacts', contact.id]);
    });
  });

  describe('tombstones', () => {
    it('are written once per removed row by one delete, with the key the list knows the record by', async () => {
      await addLearners(database.db, 2, 3);
      const learners = await database.db.deleteFrom('organizationUsers').where('organizationId', '=', 2).returning('id').execute();
      const application = await database.db.deleteFrom('corporateSubscriptions').where('requestCode', '=', 'A000000001').returning('id').executeTakeFirstOrThrow();
      const { rows } = await sql<{ organizationId: number; list: string; recordId: number; recordKey: string }>`select organization_id, list, record_id, record_key
        from sync_tombstones where list in ('organization_users', 'corporate_subscriptions') order by id`.execute(database.db);
      expect(rows.map((row) => [row.organizationId, row.list, row.recordId, row.recordKey])).to.deep.equal([
        ...learners.map((learner) => [2, 'organization_users', learner.id, '']).sort((a, b) => Number(a[2]) - Number(b[2])),
        [1, 'corporate_subscriptions', application.id, 'A000000001'],
      ]);
    });

    it('are pruned by the retention clean-up after 30 days, and kept until then', async () => {
      const at = await now();
      await sql`insert into sync_tombstones (organization_id, list, record_id, deleted_at) values
        (1, 'contacts', 901, ${new Date(at.getTime() - 31 * DAY)}), (1, 'contacts', 902, ${new Date(at.getTime() - 29 * DAY)})`.execute(database.db);
      const config = loadConfig(TEST_ENV);
      const result = await runRetention(database.db, { retention: config.retention, rateLimitWindowSeconds: 60, signinLockoutSeconds: 60 }, { now: at });
      expect(result.ran && result.deleted.sync_tombstones).to.equal(1);
      const left = await sql<{ recordId: number }>`select record_id from sync_tombstones where record_id in (901, 902)`.execute(database.db);
      expect(left.rows.map((row) => row.recordId)).to.deep.equal([902]);
    });
  });

  describe('the plans', () => {
    before(async () => {
      await addLearners(database.db, 1, 50_000);
      await addLearners(database.db, 2, 5_000);
      await sql`insert into audit_events (organization_id, actor_admin_id, occurred_at, action, target_type, target_id)
        select 1 + n % 2, 1, now() - (n || ' seconds')::interval, 'subscription.updated', 'subscription', (n % 50)::text
        from generate_series(1, 100000) as n`.execute(database.db);
      await sql`insert into sync_tombstones (organization_id, list, record_id, deleted_at)
        select 1 + n % 2, 'organization_users', 1000000 + n, now() - (n || ' seconds')::interval from generate_series(1, 5000) as n`.execute(database.db);
      await sql`analyze`.execute(database.db);
    });

    const plan = async (list: SyncList, since: string) => {
      const query = changedKeysQuery(list, 1, { time: since, id: 0 }, new Date().toISOString().replace('Z', '000Z'), 100);
      return (await sql`explain ${query}`.execute(database.db)).rows.map((row) => String(Object.values(row as object)[0])).join('\n');
    };

    it("reads a learners' sync as ranges of organization_users_sync and sync_tombstones_list, in their order", async () => {
      for (const since of ['1970-01-01T00:00:00.000000Z', new Date(Date.now() - 3600_000).toISOString().replace('Z', '000Z')]) {
        const text = await plan('learners', since);
        expect(text, text).to.include('organization_users_sync');
        expect(text, text).to.include('sync_tombstones_list');
        expect(text, text).to.match(/Index Cond: .*\(\(?updated_at, id\)? > /);
        expect(text, text).not.to.match(/Seq Scan|Bitmap/);
        // one sort only: the merge of the two ranges' first rows
        expect(text.match(/Sort/g) ?? [], text).to.have.length.at.most(1);
      }
    });

    it("reads the trail's sync as a range of its page index, backwards", async () => {
      const text = await plan('auditEvents', new Date(Date.now() - 600_000).toISOString().replace('Z', '000Z'));
      expect(text, text).to.include('audit_events_organization_page');
      expect(text, text).to.include('Backward');
      expect(text, text).not.to.match(/Seq Scan|Bitmap|Sort/);
    });
  });
});
