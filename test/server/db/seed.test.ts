import { expect } from 'chai';
import { sql } from 'kysely';
import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { hashPassword, verifyPassword } from '../../../src/server/domain/passwords.js';
import { seedDemoData, seedDemoSubscriptionsOnce } from '../../../src/server/db/seed/index.js';
import { DEMO_PASSWORD, demoAdmins, demoSubscriptions } from '../../../src/server/db/seed/demoData.js';
import { LINK_CATEGORIES } from '../../../src/server/db/types.js';
import { createTestApp, createTestDatabase, type TestDatabase } from '../support/testApp.js';

async function count(testDatabase: TestDatabase, table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(testDatabase.db);
  return rows[0]!.n;
}

describe('server/db/seed', function () {
  this.timeout(30_000);
  let testDatabase: TestDatabase;

  before(async () => {
    testDatabase = await createTestDatabase();
  });
  after(async () => {
    await testDatabase.destroy();
  });

  it('seeds the demo data into an empty database', async () => {
    expect(await seedDemoData(testDatabase.db)).to.deep.equal({ seeded: true });
    const { db } = testDatabase;

    const organizations = await db.selectFrom('organizations').select(['gloplaId', 'corporationOfficialName']).orderBy('gloplaId').execute();
    expect(organizations).to.deep.equal([
      { gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' },
      { gloplaId: 'G0000002', corporationOfficialName: 'サンプル商事株式会社' },
    ]);

    const affiliations = await db
      .selectFrom('affiliations')
      .innerJoin('admins', 'admins.id', 'affiliations.adminId')
      .innerJoin('organizations', 'organizations.id', 'affiliations.organizationId')
      .select(['admins.email', 'organizations.gloplaId', 'affiliations.role'])
      .orderBy('admins.email')
      .orderBy('organizations.gloplaId')
      .execute();
    expect(affiliations).to.deep.equal([
      { email: 'invited@example.com', gloplaId: 'G0000001', role: 'member' },
      { email: 'late@example.com', gloplaId: 'G0000001', role: 'manager' },
      { email: 'manager2@example.com', gloplaId: 'G0000001', role: 'manager' },
      { email: 'manager@example.com', gloplaId: 'G0000001', role: 'manager' },
      { email: 'manager@example.com', gloplaId: 'G0000002', role: 'member' },
      { email: 'member@example.com', gloplaId: 'G0000001', role: 'member' },
      { email: 'pending@example.com', gloplaId: 'G0000001', role: 'member' },
      { email: 'support@example.com', gloplaId: 'G0000001', role: 'member' },
    ]);
    // the ids the tests and the README's sign-ins rely on
    const ids = await db.selectFrom('admins').select(['id', 'email']).where('id', '<=', 3).orderBy('id').execute();
    expect(ids).to.deep.equal([
      { id: 1, email: 'manager@example.com' },
      { id: 2, email: 'member@example.com' },
      { id: 3, email: 'pending@example.com' },
    ]);

    // one open invitation (not activated, a link nobody holds) and one expired; pending@ has none
    const invitations = await db
      .selectFrom('adminTokens')
      .innerJoin('admins', 'admins.id', 'adminTokens.adminId')
      .select(['admins.email', 'admins.activatedAt', 'adminTokens.purpose', 'adminTokens.expiresAt', 'adminTokens.usedAt'])
      .orderBy('admins.email')
      .execute();
    expect(invitations.map(({ email, purpose, activatedAt, usedAt }) => ({ email, purpose, activatedAt, usedAt }))).to.deep.equal([
      { email: 'invited@example.com', purpose: 'activation', activatedAt: null, usedAt: null },
      { email: 'late@example.com', purpose: 'activation', activatedAt: null, usedAt: null },
    ]);
    expect(new Date(invitations[0]!.expiresAt).getTime()).to.be.greaterThan(Date.now());
    expect(new Date(invitations[1]!.expiresAt).getTime()).to.be.lessThan(Date.now());

    // G0000002 has no manager (SPEC §6: the information panel on how to request one)
    const managersOfTwo = await db
      .selectFrom('affiliations')
      .innerJoin('organizations', 'organizations.id', 'affiliations.organizationId')
      .select('affiliations.id')
      .where('organizations.gloplaId', '=', 'G0000002')
      .where('affiliations.role', '=', 'manager')
      .execute();
    expect(managersOfTwo).to.deep.equal([]);

    // product admin roles (SPEC 2.14) in both languages, for the manager in both organisations
    const roles = await db
      .selectFrom('productAdminRoles')
      .innerJoin('admins', 'admins.id', 'productAdminRoles.adminId')
      .innerJoin('organizations', 'organizations.id', 'productAdminRoles.organizationId')
      .select(['admins.email', 'organizations.gloplaId', 'productAdminRoles.productName', 'productAdminRoles.role', 'productAdminRoles.helpUrl'])
      .execute();
    const managerInOne = roles.filter((role) => role.email === 'manager@example.com' && role.gloplaId === 'G0000001');
    expect(managerInOne.length).to.be.at.least(3);
    expect(roles.some((role) => role.email === 'manager@example.com' && role.gloplaId === 'G0000002')).to.equal(true);
    for (const role of roles) {
      expect(role.productName.ja).to.be.a('string').and.not.be.empty;
      expect(role.productName.en).to.be.a('string').and.not.be.empty;
      expect(role.role.en).to.be.a('string').and.not.be.empty;
      expect(role.helpUrl).to.match(/^https:\/\//);
    }

    const manager = await db.selectFrom('admins').selectAll().where('email', '=', 'manager@example.com').executeTakeFirstOrThrow();
    expect(manager).to.include({ lastName: '山田', firstName: '太郎', kanaLastName: 'やまだ', kanaFirstName: 'たろう', language: 'ja-JP' });
    expect(manager.activatedAt).to.be.instanceOf(Date);

    const pending = await db.selectFrom('admins').selectAll().where('email', '=', 'pending@example.com').executeTakeFirstOrThrow();
    expect(pending.passwordHash).to.equal(null);
    expect(pending.activatedAt).to.equal(null);

    // SPEC §1: each group has a representative service with the group's id and identifier (Service Details 1..10)
    const services = await db.selectFrom('services').select(['id', 'serviceGroupId', 'identifier', 'name']).orderBy('id').execute();
    const representatives = services.filter((service) => service.id === service.serviceGroupId);
    expect(representatives.map((service) => [service.id, service.identifier])).to.deep.equal([
      [1, 'hodai'],
      [2, 'emba'],
      [3, 'hodaiplus'],
      [4, 'gls'],
      [5, 'school'],
      [6, 'gmap'],
      [7, 'gu'],
      [9, 'newhodaiplus'],
      [10, 'newemba'],
    ]);
    // the other services are terms (hodai, hodaiplus 23 and 25, gu) and emba's subjects
    expect(services.filter((service) => service.id !== service.serviceGroupId).map((service) => [service.id, service.serviceGroupId])).to.deep.equal([
      [11, 1],
      [12, 1],
      [13, 2],
      [14, 2],
      [15, 2],
      [17, 7],
      [18, 7],
      [23, 3],
      [25, 3],
    ]);
    for (const service of services) {
      expect(service.name.ja).to.be.a('string').and.not.be.empty;
      expect(service.name.en).to.be.a('string').and.not.be.empty;
    }
    for (const service of representatives) {
      const categories = await db.selectFrom('serviceLinks').select('category').where('serviceId', '=', service.id).execute();
      // other_sso: the project layout's (gls) sign-in buttons
      const expected = LINK_CATEGORIES.filter((category) => category !== 'other_sso' || service.identifier === 'gls');
      expect(new Set(categories.map((link) => link.category))).to.deep.equal(new Set(expected));
    }
    expect(await count(testDatabase, 'service_groups')).to.equal(9);

    expect(await db.selectFrom('featureFlags').selectAll().where('name', '=', 'product_admin_roles').executeTakeFirst()).to.include({ enabled: true });
    const notices = await db.selectFrom('notices').selectAll().execute();
    expect(notices).to.have.length(1);
    expect(notices[0]).to.include({ target: 'enterprise_portal' });
    expect(notices[0]!.contentJa).to.not.be.empty;
    expect(notices[0]!.contentEn).to.not.be.empty;
    expect(await count(testDatabase, 'announcement_articles')).to.equal(2);
  });

  it('seeds the demo applications (contract list), dated from the seeding day, the gls one with its class GLS-A', async () => {
    const today = tokyoToday();
    const rows = await testDatabase.db
      .selectFrom('corporateSubscriptions')
      .innerJoin('organizations', 'organizations.id', 'corporateSubscriptions.organizationId')
      .leftJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
      .select([
        'corporateSubscriptions.requestCode',
        'organizations.gloplaId',
        'corporateSubscriptions.serviceGroupId',
        sql<string>`to_char(corporate_subscriptions.starts_on, 'YYYY-MM-DD')`.as('startsOn'),
        'projectClasses.code as classCode',
        sql<number>`(select count(*)::int from subscription_learners where subscription_id = corporate_subscriptions.id)`.as('learners'),
        sql<number>`(select count(*)::int from subscription_services where subscription_id = corporate_subscriptions.id)`.as('services'),
      ])
      .orderBy('corporateSubscriptions.requestCode')
      .execute();
    expect(rows).to.deep.equal([
      { requestCode: 'A000000101', gloplaId: 'G0000001', serviceGroupId: 2, startsOn: addDays(today, 30), classCode: null, learners: 3, services: 2 },
      { requestCode: 'A000000102', gloplaId: 'G0000001', serviceGroupId: 10, startsOn: addDays(today, -30), classCode: null, learners: 2, services: 1 },
      { requestCode: 'A000000103', gloplaId: 'G0000001', serviceGroupId: 4, startsOn: addDays(today, 21), classCode: 'GLS-A', learners: 12, services: 1 },
      { requestCode: 'A000000104', gloplaId: 'G0000001', serviceGroupId: 9, startsOn: addDays(today, 42), classCode: null, learners: 5, services: 1 },
      { requestCode: 'A000000105', gloplaId: 'G0000002', serviceGroupId: 4, startsOn: addDays(today, 14), classCode: 'GLS-S', learners: 2, services: 1 },
      // issue 17: a confirmed class application before its enlargement deadline, and one past both deadlines
      { requestCode: 'A000000106', gloplaId: 'G0000001', serviceGroupId: 4, startsOn: addDays(today, -2), classCode: 'GLS-C', learners: 10, services: 1 },
      { requestCode: 'A000000107', gloplaId: 'G0000001', serviceGroupId: 4, startsOn: addDays(today, -30), classCode: 'GLS-D', learners: 10, services: 1 },
    ]);
    expect(businessCalendar().isUpdatable(rows[0]!.startsOn, today)).to.equal(true);
    expect(businessCalendar().isUpdatable(rows[1]!.startsOn, today)).to.equal(false);
    expect(businessCalendar().isUpdatable(rows[2]!.startsOn, today)).to.equal(true);
  });

  it('adds the demo applications to a database seeded before they existed, once', async () => {
    const other = await createTestDatabase();
    try {
      await seedDemoData(other.db);
      await other.db.deleteFrom('corporateSubscriptions').execute();
      await seedDemoSubscriptionsOnce(other.db);
      await seedDemoSubscriptionsOnce(other.db);
      expect(await count(other, 'corporate_subscriptions')).to.equal(demoSubscriptions.length);
    } finally {
      await other.destroy();
    }
  });

  it('hashes the demo passwords with argon2id', async () => {
    const admins = await testDatabase.db.selectFrom('admins').select(['email', 'passwordHash']).where('passwordHash', 'is not', null).orderBy('email').execute();
    expect(admins.map((admin) => admin.email)).to.deep.equal(['manager2@example.com', 'manager@example.com', 'member@example.com', 'support@example.com']);
    for (const admin of admins) {
      expect(admin.passwordHash).to.match(/^\$argon2id\$/);
      expect(await verifyPassword(admin.passwordHash, DEMO_PASSWORD)).to.equal(true);
      expect(await verifyPassword(admin.passwordHash, 'wrong')).to.equal(false);
    }
    // one salted hash of the published demo password for all of them (seed/index.ts demoPasswordHash)
    expect(new Set(admins.map((admin) => admin.passwordHash)).size).to.equal(1);
    expect(await hashPassword(DEMO_PASSWORD)).not.to.equal(admins[0]!.passwordHash);
  });

  it('seeds nothing the second time', async () => {
    const before = await count(testDatabase, 'admins');
    expect(await seedDemoData(testDatabase.db)).to.deep.equal({ seeded: false, reason: 'database not empty' });
    expect(await count(testDatabase, 'admins')).to.equal(before);
    expect(await count(testDatabase, 'organizations')).to.equal(2);
    // a link of each category per representative (other_sso on gls only: two), a second admin link on hodai,
    // hodaiplus and newhodaiplus (SPEC 2.8's dashboard texts, §7's learning-check exception), three links per group
    // (history, admin, terms)
    expect(await count(testDatabase, 'service_links')).to.equal(9 * 5 + 2 + 3 + 9 * 3);
  });

  it('leaves a database somebody has started to fill alone', async () => {
    const other = await createTestDatabase();
    try {
      await other.db.insertInto('featureFlags').values({ name: 'something', enabled: false }).execute();
      expect((await seedDemoData(other.db)).seeded).to.equal(false);
      expect(await count(other, 'organizations')).to.equal(0);
    } finally {
      await other.destroy();
    }
  });

  it('is what buildApp runs with SEED=demo, and never in production', async () => {
    const production = await createTestApp({ env: { SEED: 'demo', NODE_ENV: 'production', DEMO: undefined } });
    try {
      expect(await count(production.testDatabase, 'admins')).to.equal(0);
    } finally {
      await production.close();
    }
    const demo = await createTestApp({ env: { SEED: 'demo' } });
    try {
      expect(await count(demo.testDatabase, 'admins')).to.equal(demoAdmins.length);
      const response = await demo.app.inject({ url: '/api/v1/notices' });
      expect(response.json().notices[0].target).to.equal('enterprise_portal');
    } finally {
      await demo.close();
    }
  });
});
