/**
 * Seeds the demo data into an EMPTY database, in one transaction. "Empty" means none of the seeded
 * tables holds a row, so a database somebody has started to fill is never touched. An advisory lock
 * keeps two instances starting together from both seeding.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { onceByKey } from '../../../common/onceByKey.js';
import { hashToken } from '../../domain/adminTokens.js';
import { hashPassword, verifyPassword } from '../../domain/passwords.js';
import { ensurePartnerProduct } from '../../domain/singleSignOn.js';
import type { SecretKeys } from '../../domain/sealedSecrets.js';
import { sealClientSecret } from '../../domain/ssoSecrets.js';
import type { Db } from '../index.js';
import type { Database } from '../types.js';
import {
  DEMO_PASSWORD,
  demoAdmins,
  demoAnnouncementArticles,
  demoBillingContacts,
  demoContacts,
  demoFeatureFlags,
  demoNotices,
  demoOrganizations,
  demoOrganizationUsers,
  demoPartnerProducts,
  demoProductAdminRoles,
  demoOrganizationServices,
  demoProjects,
  demoServiceGroupLinks,
  demoServiceGroups,
  demoServiceLinks,
  demoServices,
  demoSso,
  demoSubscriptions,
} from './demoData.js';
import { addDays, tokyoToday } from '../../../common/subscriptionRules.js';

export interface SeedResult {
  seeded: boolean;
  reason?: string;
}

const SEEDED_TABLES: (keyof Database)[] = [
  'organizations',
  'admins',
  'affiliations',
  'serviceGroups',
  'services',
  'serviceLinks',
  'featureFlags',
  'notices',
  'announcementArticles',
  'productAdminRoles',
  'organizationServices',
  'projects',
  'projectClasses',
  'organizationUsers',
];

/** How long the open demo invitation lasts (ACTIVATION_TOKEN_TTL's default). */
const DEMO_INVITATION_SECONDS = 72 * 3600;

/** Arbitrary constant key of the advisory lock held while seeding. */
const SEED_LOCK_KEY = 724_001;

async function isEmpty(db: Db): Promise<boolean> {
  for (const table of SEEDED_TABLES) {
    const row = await db.selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst();
    if (row) return false;
  }
  return true;
}

/** The demo accounts that still sign in with the published demo password (outside demo mode: an operator must act). */
export async function demoPasswordAccounts(db: Db): Promise<string[]> {
  const emails = demoAdmins.filter((admin) => admin.password).map((admin) => admin.email);
  const rows = await db.selectFrom('admins').select(['email', 'passwordHash']).where('email', 'in', emails).orderBy('email').execute();
  const found: string[] = [];
  for (const row of rows) if (row.passwordHash && (await verifyPassword(row.passwordHash, DEMO_PASSWORD))) found.push(row.email);
  return found;
}

/**
 * The demo partner products (single-sign-on gateway), in demo mode: added when missing, also to a database seeded
 * before they existed; an existing row of the same code is left as it is.
 */
export async function seedDemoPartnerProducts(db: Db): Promise<void> {
  for (const product of demoPartnerProducts) await ensurePartnerProduct(db, product);
}

/**
 * Single sign-on's demo (issue 45 §8), in demo mode: G0000001's connection 'Demo IdP' (on; its client secret sealed as
 * the API seals it), the verified domain routed to it and its activated, password-less admins; added when missing,
 * also to a database seeded before they existed. The connection's issuer is the demo IdP's under this start's
 * PUBLIC_URL, rewritten at every start: a portal started again on another port still signs in through it.
 */
export async function seedDemoSso(db: Db, issuer: string, configuredKeys: SecretKeys['configuredKeys']): Promise<void> {
  const organization = await db.selectFrom('organizations').select('id').where('gloplaId', '=', demoSso.gloplaId).executeTakeFirst();
  if (!organization) return;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    const existing = await trx.selectFrom('ssoConnections').select('organizationId').where('id', '=', demoSso.connectionId).executeTakeFirst();
    if (existing) {
      await trx.updateTable('ssoConnections').set({ issuer }).where('id', '=', demoSso.connectionId).where('issuer', '!=', issuer).execute();
      return;
    }
    await trx
      .insertInto('ssoConnections')
      .values({
        id: demoSso.connectionId,
        organizationId: organization.id,
        protocol: 'oidc',
        name: demoSso.name,
        state: 'on',
        issuer,
        clientId: demoSso.clientId,
        clientSecretEncrypted: await sealClientSecret({ db: trx, configuredKeys }, demoSso.connectionId, demoSso.clientSecret),
        attributeEmail: 'email',
        attributeFamilyName: 'family_name',
        attributeGivenName: 'given_name',
        trustIdpMfa: true,
      })
      .execute();
    // another organisation may have verified the domain already: then the demo has no domain
    const taken = await trx.selectFrom('ssoDomains').select('id').where('domain', '=', demoSso.domain).where('verifiedAt', 'is not', null).executeTakeFirst();
    if (!taken) {
      await trx
        .insertInto('ssoDomains')
        .values({ id: demoSso.domainId, organizationId: organization.id, domain: demoSso.domain, connectionId: demoSso.connectionId, verificationToken: randomBytes(16).toString('base64url'), verifiedAt: new Date() })
        .execute();
    }
    for (const user of demoSso.users) {
      const admin =
        (await trx.selectFrom('admins').select('id').where('email', '=', user.email).executeTakeFirst()) ??
        (await trx.insertInto('admins').values({ email: user.email, lastName: user.familyName, firstName: user.givenName, passwordHash: null, activatedAt: new Date() }).returning('id').executeTakeFirstOrThrow());
      await trx
        .insertInto('affiliations')
        .values({ adminId: admin.id, organizationId: organization.id, role: user.role })
        .onConflict((conflict) => conflict.columns(['adminId', 'organizationId']).doNothing())
        .execute();
    }
  });
}

/**
 * The demo learners (Users page), in demo mode: added to a database seeded before they existed, when it holds no
 * learner at all, for the demo organisations it has; two instances starting together insert each once.
 */
export async function seedDemoOrganizationUsers(db: Db): Promise<void> {
  if (await db.selectFrom('organizationUsers').select('id').limit(1).executeTakeFirst()) return;
  const gloplaIds = [...new Set(demoOrganizationUsers.map((user) => user.gloplaId))];
  const organizations = await db.selectFrom('organizations').select(['id', 'gloplaId']).where('gloplaId', 'in', gloplaIds).execute();
  const organizationId = new Map(organizations.map((row) => [row.gloplaId, row.id]));
  const rows = demoOrganizationUsers.filter((user) => organizationId.has(user.gloplaId)).map(({ gloplaId, ...user }) => ({ ...user, organizationId: organizationId.get(gloplaId)! }));
  if (rows.length > 0) await db.insertInto('organizationUsers').values(rows).onConflict((conflict) => conflict.columns(['organizationId', 'email']).doNothing()).execute();
}

async function seedDemoSubscription(db: Db, subscription: (typeof demoSubscriptions)[number], organizationId: number, today: string): Promise<void> {
  const projectClass = subscription.projectClassCode
    ? await db
        .selectFrom('projectClasses')
        .innerJoin('projects', 'projects.id', 'projectClasses.projectId')
        .select('projectClasses.id')
        .where('projects.organizationId', '=', organizationId)
        .where('projectClasses.code', '=', subscription.projectClassCode)
        .executeTakeFirstOrThrow()
    : undefined;
  const contacts = await db.selectFrom('contacts').select('id').where('organizationId', '=', organizationId).orderBy('id').execute();
  const billingContacts = await db.selectFrom('billingContacts').select('id').where('organizationId', '=', organizationId).orderBy('id').execute();
  const { id } = await db
    .insertInto('corporateSubscriptions')
    .values({
      organizationId,
      requestCode: sql<string>`'A' || lpad(nextval('corporate_subscription_request_codes')::text, 9, '0')`,
      serviceGroupId: demoServices.find((service) => service.id === subscription.serviceIds[0])!.serviceGroupId,
      startsOn: addDays(today, subscription.startsInDays),
      appliedAt: new Date(Date.now() - subscription.appliedDaysAgo * 86_400_000),
      projectClassId: projectClass?.id ?? null,
      contactId: subscription.contact === undefined ? null : (contacts[subscription.contact]?.id ?? null),
      billingContactId: subscription.billingContact === undefined ? null : (billingContacts[subscription.billingContact]?.id ?? null),
      billingNote: subscription.billingNote ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('subscriptionServices').values(subscription.serviceIds.map((serviceId) => ({ subscriptionId: id, serviceId }))).execute();
  const admins = await db.selectFrom('admins').select('id').where('email', 'in', subscription.admins).execute();
  await db.insertInto('subscriptionAdmins').values(admins.map((admin) => ({ subscriptionId: id, adminId: admin.id }))).execute();
  const learners = demoOrganizationUsers.filter((user) => user.gloplaId === subscription.gloplaId).slice(0, subscription.learners);
  await db
    .insertInto('subscriptionLearners')
    .values(learners.map(({ firstName, lastName, kanaFirstName, kanaLastName, email }, position) => ({ subscriptionId: id, firstName, lastName, kanaFirstName, kanaLastName, email, position })))
    .execute();
}

/**
 * The demo applications (2.9, 2.10), dated from the seeding day (Asia/Tokyo), for the demo organisations the database
 * has; only into a database without any application (also one seeded before they existed).
 */
export async function seedDemoSubscriptions(db: Db, today: string = tokyoToday()): Promise<void> {
  if (await db.selectFrom('corporateSubscriptions').select('id').limit(1).executeTakeFirst()) return;
  const organizations = await db.selectFrom('organizations').select(['id', 'gloplaId']).execute();
  const organizationId = new Map(organizations.map((row) => [row.gloplaId, row.id]));
  for (const subscription of demoSubscriptions) {
    const id = organizationId.get(subscription.gloplaId);
    if (id !== undefined) await seedDemoSubscription(db, subscription, id, today);
  }
}

/** seedDemoSubscriptions in a transaction of its own, under a lock: two instances starting together seed once. */
export async function seedDemoSubscriptionsOnce(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    await seedDemoSubscriptions(trx);
  });
}

const demoHashes = new Map<string, Promise<string>>();

/**
 * One argon2id hash per demo password and process: the demo admins share the published demo password, so a
 * salt of their own hides nothing (the password is in the README), and every further hash is argon2's full cost
 * again at each seeding (a test process seeds many databases). Every other password keeps a salt of its own.
 */
function demoPasswordHash(password: string): Promise<string> {
  // a failed hash is not kept: the next seeding tries again
  return onceByKey(demoHashes, password, () => hashPassword(password));
}

export async function seedDemoData(db: Db): Promise<SeedResult> {
  if (!(await isEmpty(db))) return { seeded: false, reason: 'database not empty' };

  // Hash before opening the transaction: argon2 takes a while and the transaction should not wait for it.
  const passwordHashes = new Map<string, string>();
  for (const admin of demoAdmins) {
    if (admin.password) passwordHashes.set(admin.email, await demoPasswordHash(admin.password));
  }

  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${SEED_LOCK_KEY})`.execute(trx);
    if (!(await isEmpty(trx))) return { seeded: false, reason: 'database not empty' };

    const organizations = await trx.insertInto('organizations').values(demoOrganizations).returning(['id', 'gloplaId']).execute();
    const organizationId = new Map(organizations.map((row) => [row.gloplaId, row.id]));

    const now = new Date();
    const adminId = new Map<string, number>();
    for (const admin of demoAdmins) {
      const passwordHash = passwordHashes.get(admin.email) ?? null;
      const { id } = await trx
        .insertInto('admins')
        .values({
          email: admin.email.toLowerCase(),
          lastName: admin.lastName ?? '',
          firstName: admin.firstName ?? '',
          kanaLastName: admin.kanaLastName ?? '',
          kanaFirstName: admin.kanaFirstName ?? '',
          latinLastName: admin.latinLastName ?? '',
          latinFirstName: admin.latinFirstName ?? '',
          passwordHash,
          activatedAt: passwordHash ? now : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      adminId.set(admin.email, id);
      if (admin.invitation) {
        // a link nobody holds: the list shows the invitation's expiry, the demo cannot use it
        const expiresIn = admin.invitation === 'open' ? DEMO_INVITATION_SECONDS : -86400;
        await trx
          .insertInto('adminTokens')
          .values({
            adminId: id,
            purpose: 'activation',
            tokenHash: hashToken(randomBytes(32).toString('base64url')),
            expiresAt: new Date(now.getTime() + expiresIn * 1000),
            organizationId: organizationId.get(admin.affiliations[0]!.gloplaId)!,
          })
          .execute();
      }
      await trx
        .insertInto('affiliations')
        .values(admin.affiliations.map(({ gloplaId, role }) => ({ adminId: id, organizationId: organizationId.get(gloplaId)!, role })))
        .execute();
    }

    await trx
      .insertInto('serviceGroups')
      .values(
        demoServiceGroups.map((group, position) => ({
          id: group.id,
          identifier: group.identifier,
          name: json(group.name),
          selection: group.selection,
          position,
          maximumUsers: group.maximumUsers ?? null,
          classSizeMinimum: group.classSize?.minimum ?? null,
          classSizeMaximum: group.classSize?.maximum ?? null,
        })),
      )
      .execute();
    await trx
      .insertInto('services')
      .values(
        demoServices.map((service) => ({
          id: service.id,
          serviceGroupId: service.serviceGroupId,
          identifier: service.identifier,
          name: json(service.name),
          subtitle: json(service.subtitle),
          summary: json(service.summary),
          description: json(service.description),
          thumbnailUrl: demoPicture(service.id, 'thumbnail'),
          imageUrl: demoPicture(service.id, 'banner'),
          position: service.position,
          discontinued: service.discontinued ?? false,
          lastStartsOn: service.lastStartsOn ?? null,
        })),
      )
      .execute();
    const representatives = demoServices.filter((service) => service.id === service.serviceGroupId);
    const links = [
      ...representatives.flatMap((service) =>
        demoServiceLinks(service).map((link, position) => ({ ...link, label: json(link.label), serviceId: service.id, serviceGroupId: null, position })),
      ),
      ...demoServiceGroups.flatMap((group) =>
        demoServiceGroupLinks(group).map((link, position) => ({ ...link, label: json(link.label), serviceId: null, serviceGroupId: group.id, position })),
      ),
    ];
    await trx.insertInto('serviceLinks').values(links).execute();
    await trx
      .insertInto('organizationServices')
      .values(Object.entries(demoOrganizationServices).flatMap(([gloplaId, serviceIds]) => serviceIds.map((serviceId) => ({ organizationId: organizationId.get(gloplaId)!, serviceId }))))
      .execute();
    const today = tokyoToday();
    for (const project of demoProjects) {
      const { id } = await trx
        .insertInto('projects')
        .values({ organizationId: organizationId.get(project.gloplaId)!, projectCode: project.projectCode, name: project.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('projectClasses')
        .values(
          project.classes.map(({ period, ...projectClass }, position) => ({
            ...projectClass,
            projectId: id,
            position,
            startsOn: period ? addDays(today, period.startsInDays) : null,
            endsOn: period ? addDays(today, period.startsInDays + period.days - 1) : null,
          })),
        )
        .execute();
    }

    await trx.insertInto('contacts').values(demoContacts.map(({ gloplaId, ...contact }) => ({ ...contact, organizationId: organizationId.get(gloplaId)! }))).execute();
    await trx
      .insertInto('billingContacts')
      .values(demoBillingContacts.map(({ gloplaId, ...contact }) => ({ ...contact, organizationId: organizationId.get(gloplaId)! })))
      .execute();
    await trx
      .insertInto('organizationUsers')
      .values(demoOrganizationUsers.map(({ gloplaId, ...user }) => ({ ...user, organizationId: organizationId.get(gloplaId)! })))
      .execute();

    await seedDemoSubscriptions(trx);

    await trx.insertInto('featureFlags').values(demoFeatureFlags).execute();
    await trx
      .insertInto('productAdminRoles')
      .values(
        demoProductAdminRoles.map((role, position) => ({
          adminId: adminId.get(role.email)!,
          organizationId: organizationId.get(role.gloplaId)!,
          productName: json(role.productName),
          role: json(role.role),
          helpUrl: role.helpUrl,
          position,
        })),
      )
      .execute();
    await trx.insertInto('notices').values(demoNotices).execute();
    await trx
      .insertInto('announcementArticles')
      .values(demoAnnouncementArticles.map((article) => ({ ...article, title: json(article.title), body: json(article.body) })))
      .execute();
    return { seeded: true };
  });
}

/**
 * The demo services' pictures (data: URLs, so they load offline and under the CSP's img-src): plain tiles in four
 * colours, PNGs as a provider's photos would be — thumbnails 16×9, shown scaled and cropped to their card; detail
 * banners 1280×320, as sharp as a phone's screen shows them (Lighthouse's 'low resolution' check). Not SVGs with
 * the service's name: each SVG picture is a document the browser lays out and paints on the page's main thread, and
 * Home's nine took about 150 ms of a mobile CPU's time (issue 26).
 */
const DEMO_PICTURES: ReadonlyArray<{ thumbnail: string; banner: string }> = [
  // #0b5cad
  {
    thumbnail: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAFElEQVR42mPgjllLEmIY1TAoNAAAZwSbQdF4BAwAAAAASUVORK5CYII=',
    banner: 'iVBORw0KGgoAAAANSUhEUgAABQAAAAFACAIAAABskUbfAAAGgUlEQVR42u3XMQ0AAAgEsd+xiEU8YoGZNKmC2y7VAwAAAO9FAgAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAADAAKsAAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgFQAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGWAIAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAuFt9aZRQadHvBAAAAAElFTkSuQmCC',
  },
  // #1f7a4d
  {
    thumbnail: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAE0lEQVR42mOQr/IlCTGMahgUGgBdioFh7xdFngAAAABJRU5ErkJggg==',
    banner: 'iVBORw0KGgoAAAANSUhEUgAABQAAAAFACAIAAABskUbfAAAGgUlEQVR42u3XMQ0AAAgEsXeCIgyhHgvMpEkV3HapaQAAAHgvEgAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABlgFAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAqwAAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwBIAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABwsZB21DQrX9XLAAAAAElFTkSuQmCC',
  },
  // #8a3f9e
  {
    thumbnail: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAFElEQVR42mPosp9HEmIY1TAoNAAA79TJ8QupNB4AAAAASUVORK5CYII=',
    banner: 'iVBORw0KGgoAAAANSUhEUgAABQAAAAFACAIAAABskUbfAAAGgUlEQVR42u3XMQ0AAAgEsXeGP0SgFQvMpEkV3HbpGgAAAHgvEgAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABlgFAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAqwAAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwBIAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABwsX8hQ33rmGo6AAAAAElFTkSuQmCC',
  },
  // #b04a1e
  {
    thumbnail: 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAFElEQVR42mPY4CVHEmIY1TAoNAAABJGdgWFwPpwAAAAASUVORK5CYII=',
    banner: 'iVBORw0KGgoAAAANSUhEUgAABQAAAAFACAIAAABskUbfAAAGgUlEQVR42u3XMQ0AAAgEsVeCINQiEQvMpEkV3HaZLgAAAHgvEgAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABlgFAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAAADDAAAAAYYAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAAGCAAQAAwAADAACAAQYAAMAAqwAAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAAAABhgAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAAAMMAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAADAAAMAAIABBgAAwAADAACAAQYAAAADDAAAAAYYAAAADDAAAAAYYAAAADDAAAAAYIABAAAwwBIAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAwwAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAAAGGAAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAAAAAwwAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABggAEAAMAAAwAAgAEGAADAAAMAAIABBgAAAAMMAAAABhgAAAAMMAAAABhgAAAAMMAAAABwsainZouw9BrMAAAAAElFTkSuQmCC',
  },
];

function demoPicture(serviceId: number, kind: 'thumbnail' | 'banner'): string {
  return `data:image/png;base64,${DEMO_PICTURES[serviceId % DEMO_PICTURES.length]![kind]}`;
}

/**
 * A jsonb parameter. pg would send a plain object as JSON anyway, but PGlite serialises parameters by
 * the type the server infers, so the explicit cast keeps both drivers identical.
 */
function json<T>(value: T) {
  return sql<T>`cast(${JSON.stringify(value)} as jsonb)`;
}
