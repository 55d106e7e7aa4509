/**
 * Migration 0088 (issue 25 finding 5): existing affiliations take the sign-ins known so far, from the trail's
 * signIn.succeeded entries and from the organisation choices of live grants; any other affiliation starts without one.
 */
import { expect } from 'chai';
import { Migrator, sql } from 'kysely';
import { migrateToLatest } from '../../../../src/server/db/index.js';
import { migrationProvider } from '../../../../src/server/db/migrations/index.js';
import { seedDemoData } from '../../../../src/server/db/seed/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('server/db/migrations/0088_affiliation_sign_ins', function () {
  this.timeout(60_000);
  let testDatabase: TestDatabase;

  before(async () => {
    testDatabase = await createTestDatabase();
  });
  after(async () => {
    await testDatabase.destroy();
  });

  it("marks the affiliations an admin signed in to (the trail's sign-ins, a live grant's organisation choice), not the others", async () => {
    const { db } = testDatabase;
    await seedDemoData(db);
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo('0087_audit_events');
    expect(error).to.equal(undefined);
    // manager@ (1): G0000001 (1) and G0000002 (2); member@ (2): G0000001
    await sql`insert into audit_events (organization_id, actor_admin_id, action, target_type, target_id) values (1, 1, 'signIn.succeeded', 'admin', '1'), (2, 1, 'account.nameChanged', 'admin', '1')`.execute(db);
    await sql`insert into idp_payloads (model, id, payload) values ('OrganizationChoice', 'grant-1', ${JSON.stringify({ grantId: 'grant-1', accountId: '2', organizationId: 1, gloplaId: 'G0000001' })}::jsonb)`.execute(db);
    await migrateToLatest(db);
    const { rows } = await sql<{ adminId: number; organizationId: number; signedIn: boolean }>`
      select admin_id as "adminId", organization_id as "organizationId", first_signed_in_at is not null as "signedIn"
      from affiliations where admin_id in (1, 2) order by admin_id, organization_id`.execute(db);
    expect(rows).to.deep.equal([
      { adminId: 1, organizationId: 1, signedIn: true },
      { adminId: 1, organizationId: 2, signedIn: false },
      { adminId: 2, organizationId: 1, signedIn: true },
    ]);
  });
});
