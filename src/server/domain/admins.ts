/**
 * Admins and their affiliations (SPEC §3 Admin, Affiliation; §6 roles): sign-in by password, the signed-in admin's
 * organisations, the affiliation checks of organisation-scoped calls, name and password changes.
 */
import { CompiledQuery } from 'kysely';
import type { Affiliation } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import type { Db } from '../db/index.js';
import { preparedStatement } from '../db/preparedStatements.js';
import type { Admin, AffiliationRole } from '../db/types.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { tokenValidityChanged } from './tokenValidity.js';

/** An admin's names as the name form (schemas/admin-name.json) gives them. */
export type AdminName = Forms['admin-name'];

/** A valid argon2id hash of a random password: unknown e-mails cost as much time as wrong passwords. */
let dummyHash: Promise<string> | undefined;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whole seconds, the resolution of a token's iat (see endAdminTokens). */
const wholeSecond = (now: number) => new Date(Math.floor(now / 1000) * 1000);

/**
 * Ends every access token the admin holds now (logout, password change and reset, deletion): tokens issued before
 * this second are refused by the API although their signature and expiry are still good. Whole seconds, the
 * resolution of a token's iat, so a token minted right after (the new session of a password change) still passes; a
 * token made earlier in the same second also does (at most a second's leeway).
 */
export async function endAdminTokens(db: Db, adminId: number, now = Date.now()): Promise<void> {
  await db.updateTable('admins').set({ tokensValidAfter: wholeSecond(now) }).where('id', '=', adminId).execute();
  tokenValidityChanged(db, adminId);
}

/**
 * Ends the admin's access tokens signed in for one organisation (a role change or removal there), the same way as
 * endAdminTokens: sessions of the admin's other organisations stay valid.
 */
export async function endOrganizationTokens(db: Db, adminId: number, organizationId: number, now = Date.now()): Promise<void> {
  const tokensValidAfter = wholeSecond(now);
  await db
    .insertInto('adminOrganizationTokens')
    .values({ adminId, organizationId, tokensValidAfter })
    .onConflict((conflict) => conflict.columns(['adminId', 'organizationId']).doUpdateSet({ tokensValidAfter }))
    .execute();
  tokenValidityChanged(db, adminId);
}

export async function findAdminById(db: Db, id: number): Promise<Admin | undefined> {
  return db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The admin with this e-mail and password, when activated; otherwise undefined (unknown e-mail, wrong password and
 * not activated are not told apart, and take about the same time).
 */
export async function authenticateAdmin(db: Db, email: string, password: string): Promise<Admin | undefined> {
  const admin = await db.selectFrom('admins').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
  if (!admin?.passwordHash) {
    dummyHash ??= hashPassword(`dummy-${Math.random()}`);
    await verifyPassword(await dummyHash, password);
    return undefined;
  }
  const valid = await verifyPassword(admin.passwordHash, password);
  return valid && admin.activatedAt ? admin : undefined;
}

/** An affiliation with its organisation and admin, as the API shows them (the list adds to it: domain/memberships.ts). */
export function affiliationQuery(db: Db) {
  return db
    .selectFrom('affiliations')
    .innerJoin('organizations', 'organizations.id', 'affiliations.organizationId')
    .innerJoin('admins', 'admins.id', 'affiliations.adminId')
    .select([
      'affiliations.role',
      'organizations.id as organizationId',
      'organizations.gloplaId',
      'organizations.corporationOfficialName',
      'admins.id as adminId',
      'admins.firstName',
      'admins.lastName',
      'admins.kanaFirstName',
      'admins.kanaLastName',
      'admins.email',
    ]);
}

type AffiliationRow = Awaited<ReturnType<ReturnType<typeof affiliationQuery>['executeTakeFirstOrThrow']>>;

/** An affiliation query's row as the API shows it (the list adds to it: domain/memberships.ts). */
export function affiliationView(row: AffiliationRow): Affiliation {
  return {
    role: row.role,
    organization: { id: row.organizationId, gloplaId: row.gloplaId, corporationOfficialName: row.corporationOfficialName },
    admin: {
      id: row.adminId,
      firstName: row.firstName,
      lastName: row.lastName,
      kanaFirstName: row.kanaFirstName,
      kanaLastName: row.kanaLastName,
      email: row.email,
    },
  };
}

/** Stand-in for the admin's id in the compiled query of affiliationsOfAdmin (ids are positive). */
const ADMIN_ID_SLOT = -1;
interface OwnList {
  statement: (parameters: readonly unknown[]) => CompiledQuery;
  parameters: readonly unknown[];
}
const ownLists = new WeakMap<Db, OwnList>();

/**
 * The admin's affiliations, in the order of the organisations' gloplaIds. Every page asks for them (GET
 * admins/me/affiliations): the query is compiled once per database and reused with the admin's id, since building and
 * compiling it cost about as much CPU as running it (issue 20), and PostgreSQL plans it once per connection (a named
 * statement: planning the three-table join cost about as much as running it). The benchmark's floor runs the same SQL.
 */
export async function affiliationsOfAdmin(db: Db, adminId: number): Promise<Affiliation[]> {
  let own = ownLists.get(db);
  if (!own) {
    const compiled = affiliationQuery(db).where('affiliations.adminId', '=', ADMIN_ID_SLOT).orderBy('organizations.gloplaId').compile();
    own = { statement: preparedStatement('own_affiliations', compiled.sql), parameters: compiled.parameters };
    ownLists.set(db, own);
  }
  const query = own.statement(own.parameters.map((parameter) => (parameter === ADMIN_ID_SLOT ? adminId : parameter)));
  const { rows } = await db.executeQuery(query as CompiledQuery<AffiliationRow>);
  return rows.map(affiliationView);
}

/** Run on every organisation-scoped call: planned once per connection (a named statement). */
const roleStatement = preparedStatement(
  'role_in_organization',
  `select affiliations.role, organizations.two_step_required from affiliations
     join organizations on organizations.id = affiliations.organization_id
    where affiliations.admin_id = $1 and affiliations.organization_id = $2 and organizations.glopla_id = $3`,
);

/**
 * The admin's role in the organisation, when the organisation is also the one the session was signed in for
 * (`gloplaId`): a session never acts on another organisation, even one the admin belongs to.
 */
export async function roleInOrganization(
  db: Db,
  adminId: number,
  organizationId: number,
  gloplaId: string | undefined,
): Promise<{ role: AffiliationRole; twoStepRequired: boolean } | undefined> {
  if (gloplaId === undefined) return undefined;
  const query = roleStatement([adminId, organizationId, gloplaId]) as CompiledQuery<{ role: AffiliationRole; twoStepRequired: boolean }>;
  return (await db.executeQuery(query)).rows[0];
}

/** The session's organisation and the caller's role in it; undefined when the admin is not affiliated with it. */
export async function sessionOrganization(
  db: Db,
  adminId: number,
  gloplaId: string | undefined,
): Promise<{ organizationId: number; gloplaId: string; role: AffiliationRole; twoStepRequired: boolean } | undefined> {
  if (gloplaId === undefined) return undefined;
  const row = await db
    .selectFrom('affiliations')
    .innerJoin('organizations', 'organizations.id', 'affiliations.organizationId')
    .select(['organizations.id', 'organizations.gloplaId', 'affiliations.role', 'organizations.twoStepRequired'])
    .where('affiliations.adminId', '=', adminId)
    .where('organizations.gloplaId', '=', gloplaId)
    .executeTakeFirst();
  return row && { organizationId: row.id, gloplaId: row.gloplaId, role: row.role, twoStepRequired: row.twoStepRequired };
}

/** Changes the admin's name (the caller reads the affiliation to answer with, memberships.ts). */
export async function updateAdminName(db: Db, adminId: number, name: AdminName, trail: AuditTrail): Promise<void> {
  const fields = ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName'] as const;
  await db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('admins').select(['email', ...fields]).where('id', '=', adminId).forUpdate().executeTakeFirst();
    if (!before) return;
    const after = { firstName: name.firstName, lastName: name.lastName, kanaFirstName: name.kanaFirstName, kanaLastName: name.kanaLastName };
    await trx.updateTable('admins').set({ ...after, updatedAt: new Date() }).where('id', '=', adminId).execute();
    const changes = changesBetween(before, after, fields);
    if (Object.keys(changes).length > 0) await trail.record(trx, { action: 'account.nameChanged', target: { type: 'admin', id: adminId, label: before.email }, changes });
  });
}

export type PasswordChangeResult = 'changed' | 'current_password_mismatch';

/** Checks the current password, then stores the argon2id hash of the new one. */
export async function changePassword(db: Db, adminId: number, current: string, next: string, trail: AuditTrail): Promise<PasswordChangeResult> {
  const admin = await findAdminById(db, adminId);
  if (!admin || !(await verifyPassword(admin.passwordHash, current))) return 'current_password_mismatch';
  const passwordHash = await hashPassword(next);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('admins').set({ passwordHash, updatedAt: new Date() }).where('id', '=', adminId).execute();
    // that it changed, never what to
    await trail.record(trx, { action: 'account.passwordChanged', target: { type: 'admin', id: adminId, label: admin.email } });
  });
  return 'changed';
}

/** The organisation's activated managers, whom its notices go to (certificates, webhooks, deadlines): e-mail and language, in id order. */
export function activatedManagers(db: Db, organizationId: number) {
  return db
    .selectFrom('affiliations')
    .innerJoin('admins', 'admins.id', 'affiliations.adminId')
    .select(['admins.email', 'admins.language'])
    .where('affiliations.organizationId', '=', organizationId)
    .where('affiliations.role', '=', 'manager')
    .where('admins.activatedAt', 'is not', null)
    .orderBy('admins.id');
}
