/**
 * The Activity log's filters read their own index (issue 27 item 1): with a trail where the asked-for entries are
 * rare, the planner reads each filter's range of its index in the page's order, never the whole table nor the whole
 * organisation's trail. On PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { auditQuery, type AuditFilter } from '../../../../src/server/domain/audit.js';
import { loadPublicIds, type PublicIds } from '../../../../src/server/domain/publicIds.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('server/db migrations 0089 and 0114: the Activity log filters use their indexes (issues 27, 47)', function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let ids: PublicIds;
  before(async () => {
    database = await createTestDatabase();
    ids = await loadPublicIds(database.db);
    // 20,000 entries of two organisations over 400 days; one in a hundred is the rare action, target or actor
    await sql`insert into audit_events (organization_id, actor_admin_id, occurred_at, action, target_type, target_id)
      select 1 + n % 2, case when n % 100 = 7 then 99 else 1 end, now() - (n || ' minutes')::interval * 29,
             case when n % 100 = 3 then 'contact.deleted' else 'subscription.updated' end,
             case when n % 100 = 5 then 'users' else 'subscription' end,
             case when n % 100 = 9 then '4242' else (n % 50)::text end
      from generate_series(1, 20000) as n`.execute(database.db);
    await sql`analyze audit_events`.execute(database.db);
  });
  after(async () => database.destroy());

  async function plan(filter: AuditFilter): Promise<string> {
    const explained = await auditQuery(database.db, 1, filter, ids).limit(51).explain();
    return explained.map((row) => String(Object.values(row)[0])).join('\n');
  }

  for (const [filter, index] of [
    [{ action: 'contact.deleted' }, 'audit_events_organization_action'],
    [{ targetType: 'users' }, 'audit_events_organization_target_type'],
    [{ adminId: 99 }, 'audit_events_organization_actor'],
    [{ targetType: 'subscription', targetId: '4242' }, 'audit_events_organization_target_of_type'],
    [{ targetId: '4242' }, 'audit_events_organization_target_of_type'],
  ] as Array<[AuditFilter, string]>) {
    it(`reads ${index} for ${JSON.stringify(filter)}`, async () => {
      const text = await plan(filter);
      expect(text, text).to.include(index);
      expect(text, text).not.to.match(/Seq Scan/);
    });
  }

  it('reads one target of one type as one range of its index, whatever other types share its id (migration 0114)', async () => {
    // id 5 is a 'users' target in one of its entries out of two, a subscription's in the other
    const text = await plan({ targetType: 'users', targetId: '5' });
    expect(text, text).to.include('audit_events_organization_target_of_type');
    expect(text, text).to.match(/Index Cond: .*target_type = 'users'/);
    expect(text, 'no entry read only to be filtered out').not.to.match(/Filter:|Sort/);
  });
});
