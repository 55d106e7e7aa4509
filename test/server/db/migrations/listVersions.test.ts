/**
 * Migration 0113 (issue 47): an organisation's admin list and application list each have a version that every change
 * the list shows moves, at the writing transaction's commit, whoever writes; changes the list does not show leave it.
 * On PGlite, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { expect } from 'chai';
import type { Db } from '../../../../src/server/db/index.js';
import { seedDemoData } from '../../../../src/server/db/seed/index.js';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe("server/db migration 0113: the lists' versions (issue 47)", function () {
  this.timeout(120_000);
  let database: TestDatabase;
  let db: Db;
  /** An admin of two organisations, and an organisation without them. */
  let admin: { id: number; organizations: number[] };
  let elsewhere: number;

  before(async () => {
    database = await createTestDatabase();
    db = database.db;
    await seedDemoData(db);
    const created = await db.insertInto('admins').values({ email: 'versions@example.com', firstName: 'a', lastName: 'b' }).returning('id').executeTakeFirstOrThrow();
    const organizations = (await db.selectFrom('organizations').select('id').orderBy('id').limit(2).execute()).map((row) => row.id);
    await db.insertInto('affiliations').values(organizations.map((organizationId) => ({ adminId: created.id, organizationId, role: 'member' as const }))).execute();
    admin = { id: created.id, organizations };
    const other = { gloplaId: 'G0999999', gloplaIdName: 'other', corporationAccountName: 'Other', corporationOfficialName: 'Other', corporationAccountCode: 'OC1' };
    elsewhere = (await db.insertInto('organizations').values(other).returning('id').executeTakeFirstOrThrow()).id;
  });
  after(async () => database.destroy());

  const versions = async (list: 'admins' | 'applications' = 'admins') =>
    new Map((await db.selectFrom('listVersions').select(['organizationId', 'version']).where('list', '=', list).execute()).map((row) => [row.organizationId, String(row.version)]));

  /** The organisations whose version of `list` `change` moved (0: every organisation's). */
  async function moved(change: () => Promise<unknown>, list: 'admins' | 'applications' = 'admins'): Promise<number[]> {
    const before = await versions(list);
    await change();
    const after = await versions(list);
    return [...after].filter(([organizationId, version]) => before.get(organizationId) !== version).map(([organizationId]) => organizationId).sort((a, b) => a - b);
  }

  it("moves the organisation's on an affiliation added, its role changed and removed; not on its first sign-in", async () => {
    const [organization] = admin.organizations;
    expect(await moved(() => db.updateTable('affiliations').set({ role: 'manager', updatedAt: new Date() }).where('adminId', '=', admin.id).where('organizationId', '=', organization!).execute())).to.deep.equal([organization]);
    expect(await moved(() => db.updateTable('affiliations').set({ firstSignedInAt: new Date() }).where('adminId', '=', admin.id).execute())).to.deep.equal([]);
    expect(await moved(() => db.insertInto('affiliations').values({ adminId: admin.id, organizationId: elsewhere, role: 'member' }).execute())).to.deep.equal([elsewhere]);
    expect(await moved(() => db.deleteFrom('affiliations').where('adminId', '=', admin.id).where('organizationId', '=', elsewhere).execute())).to.deep.equal([elsewhere]);
  });

  it("moves every organisation of an admin on a change of the admin's name, e-mail or activation; not on a password change", async () => {
    expect(await moved(() => db.updateTable('admins').set({ kanaLastName: 'かな' }).where('id', '=', admin.id).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('admins').set({ email: 'versions2@example.com' }).where('id', '=', admin.id).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('admins').set({ activatedAt: new Date() }).where('id', '=', admin.id).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('admins').set({ passwordHash: 'x', region: 'r' }).where('id', '=', admin.id).execute())).to.deep.equal([]);
  });

  it("moves on an invitation (an activation token) sent, used and removed; not on a password reset's", async () => {
    const token = (purpose: 'activation' | 'password_reset') => ({ adminId: admin.id, purpose, tokenHash: `${purpose}-hash`, expiresAt: new Date(Date.now() + 3_600_000) });
    expect(await moved(() => db.insertInto('adminTokens').values(token('activation')).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('adminTokens').set({ usedAt: new Date() }).where('tokenHash', '=', 'activation-hash').execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.deleteFrom('adminTokens').where('tokenHash', '=', 'activation-hash').execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.insertInto('adminTokens').values(token('password_reset')).execute())).to.deep.equal([]);
  });

  it('moves on an authenticator app confirmed and a passkey registered or removed; not on their use', async () => {
    await db.insertInto('adminAuthenticatorApps').values({ adminId: admin.id, secretEncrypted: 's' }).execute();
    expect(await moved(() => db.updateTable('adminAuthenticatorApps').set({ confirmedAt: new Date() }).where('adminId', '=', admin.id).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('adminAuthenticatorApps').set({ lastUsedStep: 7 }).where('adminId', '=', admin.id).execute())).to.deep.equal([]);
    const passkey = { adminId: admin.id, credentialId: 'versions-credential', publicKey: 'k', name: 'key' };
    expect(await moved(() => db.insertInto('adminPasskeys').values(passkey).execute())).to.deep.equal(admin.organizations);
    expect(await moved(() => db.updateTable('adminPasskeys').set({ counter: 3, lastUsedAt: new Date() }).where('adminId', '=', admin.id).execute())).to.deep.equal([]);
    expect(await moved(() => db.deleteFrom('adminPasskeys').where('adminId', '=', admin.id).execute())).to.deep.equal(admin.organizations);
  });

  it("moves on the organisation's name or two-step rule", async () => {
    const [organization] = admin.organizations;
    expect(await moved(() => db.updateTable('organizations').set({ twoStepRequired: true }).where('id', '=', organization!).execute())).to.deep.equal([organization]);
    expect(await moved(() => db.updateTable('organizations').set({ twoStepRequired: false }).where('id', '=', organization!).execute())).to.deep.equal([organization]);
  });

  it("moves an organisation's application list on its applications and their services, every organisation's on the catalogue; not on an admin's change", async () => {
    const [organization] = admin.organizations;
    const application = await db
      .insertInto('corporateSubscriptions')
      .values({ organizationId: organization!, requestCode: 'A000000113', serviceGroupId: 9, startsOn: '2026-12-01' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const service = await db.selectFrom('services').select('id').where('serviceGroupId', '=', 9).executeTakeFirstOrThrow();
    const applications = (change: () => Promise<unknown>) => moved(change, 'applications');
    expect(await applications(() => db.insertInto('subscriptionServices').values({ subscriptionId: application.id, serviceId: service.id }).execute())).to.deep.equal([organization]);
    expect(await applications(() => db.updateTable('corporateSubscriptions').set({ billingNote: 'n' }).where('id', '=', application.id).execute())).to.deep.equal([organization]);
    expect(await applications(() => db.updateTable('services').set({ position: 99 }).where('id', '=', service.id).execute())).to.deep.equal([0]);
    expect(await applications(() => db.updateTable('admins').set({ firstName: 'x' }).where('id', '=', admin.id).execute())).to.deep.equal([]);
    expect(await applications(() => db.deleteFrom('corporateSubscriptions').where('id', '=', application.id).execute())).to.deep.equal([organization]);
  });

  it('moves at the commit, to a version never seen before, and not at all when the transaction rolls back', async () => {
    const seen = [...(await versions()).values(), ...(await versions('applications')).values()].map(Number);
    const rename = (trx: Db, name: string) => trx.updateTable('admins').set({ firstName: name }).where('id', '=', admin.id).execute();
    const committed = await moved(() =>
      db.transaction().execute(async (trx) => {
        await rename(trx, 'inside');
        // deferred: within the transaction the versions have not moved yet
        const inside = await trx.selectFrom('listVersions').select('version').where('list', '=', 'admins').where('organizationId', 'in', admin.organizations).execute();
        expect(inside.map((row) => Number(row.version)).every((version) => seen.includes(version))).to.equal(true);
      }),
    );
    expect(committed).to.deep.equal(admin.organizations);
    const after = await versions();
    for (const organizationId of committed) expect(Number(after.get(organizationId))).to.be.greaterThan(Math.max(...seen));
    const rollback = () =>
      db
        .transaction()
        .execute(async (trx) => {
          await rename(trx, 'rolled back');
          throw new Error('rolled back');
        })
        .catch(() => undefined);
    expect(await moved(rollback)).to.deep.equal([]);
  });
});
