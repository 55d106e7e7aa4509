/**
 * The admins of an organisation (SPEC 2.13 Manage Admin Accounts, §4 Invite outcomes and Affiliation, §6 roles) and
 * the signed-in admin's product roles (SPEC 2.14). Knows nothing of HTTP; the routes (api/memberships.ts) check who
 * may call what, this module does it.
 *
 * An invitation is an activation link (admin_tokens, purpose 'activation') mailed to a not-activated admin: the
 * invitee becomes an admin on activation (api/adminAccounts.ts, PUT admins/{adminId}), and keeps every affiliation
 * they were invited to. Issuing one closes the admin's earlier open links of the same organisation, so only its
 * newest mail works; another organisation's invitation is left open.
 */
import { CompiledQuery, sql } from 'kysely';
import type { OrganizationAffiliation, ProductAdminRole } from '../../common/api/answers.js';
import { formatPersonName } from '../../common/personName.js';
import type { Language } from '../../common/languages.js';
import type { Db } from '../db/index.js';
import { isoTimestamp } from '../db/formats.js';
import { compiledOnce } from '../db/preparedStatements.js';
import type { Admin, AffiliationRole } from '../db/types.js';
import type { Mailer } from '../mail/mailer.js';
import { localeText, mailLanguage, renderMail, validityText } from '../mail/templates.js';
import { activationLink } from './accountTokens.js';
import type { AuditTrail } from './audit.js';
import { closeOpenTokens, issueToken } from './adminTokens.js';
import { affiliationQuery, normalizeEmail } from './admins.js';
import { defaultConnectionId } from './ssoConnections.js';
import { listVersion, requireVersion, type Precondition, type VersionedTarget } from './versions.js';
import { adminEventData, recordWebhookEvent } from './webhookOutbox.js';

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  /** PUBLIC_URL without a trailing slash: links in mails are absolute. */
  publicUrl: string;
  /** How long an invitation link works (ACTIVATION_TOKEN_TTL). */
  ttlSeconds: number;
}

/** Who invites: the signed-in manager, and the language of the page they invite from (the mail's first choice). */
export interface Inviter {
  adminId: number;
  requestedLanguage?: string;
}

// ---------------------------------------------------------------------------------------------------
// The list

/**
 * An affiliation's version (issue 28) as an entity tag: its role and when a manager last set it. Not the row's xmin:
 * the admin's first sign-in for the organisation writes the row too, and is no change a manager could undo.
 */
const affiliationEtag = sql<string>`'"' || ${sql.ref('affiliations.role')} || '.' || floor(extract(epoch from ${sql.ref('affiliations.updatedAt')}) * 1000000)::bigint || '"'`;

/** The trail's actions that make an affiliation's version (who changed a role: never the admin's own sign-ins). */
const AFFILIATION_CHANGES = ['membership.invited', 'membership.roleChanged'] as const;

/** The affiliation as the trail calls it, for a 412's who and when. */
const affiliationTarget = (adminId: number): VersionedTarget => ({ type: 'admin', id: adminId, actions: AFFILIATION_CHANGES });

/** Locks the affiliation for a change and refuses it unless it is still the version asked for; false when it is gone. */
async function lockAffiliation(trx: Db, organizationId: number, adminId: number, precondition: Precondition | undefined): Promise<boolean> {
  const row = await trx
    .selectFrom('affiliations')
    .select(affiliationEtag.as('etag'))
    .where('organizationId', '=', organizationId)
    .where('adminId', '=', adminId)
    .forUpdate()
    .executeTakeFirst();
  if (row) requireVersion(row.etag, precondition, affiliationTarget(adminId));
  return row !== undefined;
}

/**
 * The affiliations of the organisation with everything the list shows, in one query: the admin, the organisation,
 * and for a not-activated admin the expiry of the newest open invitation (the subquery runs for those rows only).
 */
function memberQuery(db: Db) {
  const openInvitation = db
    .selectFrom('adminTokens')
    .select((eb) => eb.fn.max('adminTokens.expiresAt').as('expiresAt'))
    .where('adminTokens.adminId', '=', sql<number>`${sql.ref('admins.id')}`) // correlated with the outer query's admin
    .where('adminTokens.purpose', '=', 'activation')
    .where('adminTokens.usedAt', 'is', null)
    // this organisation's invitation (or one of no known organisation): another's is not this list's to show
    .where((eb) => eb.or([eb('adminTokens.organizationId', '=', sql<number>`${sql.ref('affiliations.organizationId')}`), eb('adminTokens.organizationId', 'is', null)]));
  // two-step sign-in: a confirmed authenticator app or a passkey (issue 29)
  const app = db
    .selectFrom('adminAuthenticatorApps')
    .select(sql`1`.as('one'))
    .where('adminAuthenticatorApps.adminId', '=', sql<number>`${sql.ref('admins.id')}`)
    .where('adminAuthenticatorApps.confirmedAt', 'is not', null);
  const passkey = db.selectFrom('adminPasskeys').select(sql`1`.as('one')).where('adminPasskeys.adminId', '=', sql<number>`${sql.ref('admins.id')}`);
  return affiliationQuery(db).select([
    affiliationEtag.as('etag'),
    'organizations.twoStepRequired',
    sql<boolean>`(exists (${app}) or exists (${passkey}))`.as('twoStep'),
    'admins.activatedAt',
    sql<Date | string | null>`case when ${sql.ref('admins.activatedAt')} is null then (${openInvitation}) end`.as('invitationExpiresAt'),
  ]);
}

type MemberRow = Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirstOrThrow']>>;

// pg reads timestamptz as a Date (PGlite too); a string is taken as well. One Date and one toISOString per value.
const isoOrNull = (value: Date | string | null): string | null => (value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString());

/** One affiliation as the answers show it (the list's rows are written the same way by PostgreSQL: organizationAffiliationsQuery). */
function toView(row: MemberRow, now: Date): OrganizationAffiliation {
  const invitationExpiresAt = row.invitationExpiresAt === null ? null : new Date(row.invitationExpiresAt);
  return {
    role: row.role,
    etag: row.etag,
    organization: { id: row.organizationId, gloplaId: row.gloplaId, corporationOfficialName: row.corporationOfficialName },
    admin: {
      id: row.adminId,
      firstName: row.firstName,
      lastName: row.lastName,
      kanaFirstName: row.kanaFirstName,
      kanaLastName: row.kanaLastName,
      email: row.email,
      activatedAt: isoOrNull(row.activatedAt),
      invitationExpiresAt: invitationExpiresAt && invitationExpiresAt.toISOString(),
      invitationExpired: row.activatedAt === null && (invitationExpiresAt === null || invitationExpiresAt.getTime() <= now.getTime()),
      twoStep: row.twoStep,
    },
  };
}

/** Who reads the list: the admin and the session's organisation. */
export interface Viewer {
  adminId: number;
  gloplaId: string;
}

/**
 * The list query of GET organizations/{orgId}/affiliations, access check included: rows only when the viewer belongs
 * to the organisation and the organisation is the session's (`gloplaId`). Managers first, then by kana name (admins
 * without a name yet, the not activated, last), then e-mail. PostgreSQL writes each affiliation in wire form, as
 * toView and the answer's schema write one (a test holds them equal): a large organisation's 300 admins were 300 rows
 * parsed, mapped, copied to snake_case and serialised on the event loop per call (issue 27).
 */
function organizationAffiliationsQuery(db: Db, organizationId: number, viewer: Viewer, now: string) {
  const member = memberQuery(db)
    .where('affiliations.organizationId', '=', organizationId)
    .where('organizations.gloplaId', '=', viewer.gloplaId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('affiliations as viewer')
          .select(sql`1`.as('one'))
          .whereRef('viewer.organizationId', '=', 'affiliations.organizationId')
          .where('viewer.adminId', '=', viewer.adminId),
      ),
    )
    .as('member');
  const column = (name: string) => sql.ref(`member.${name}`);
  const expired = sql<boolean>`${column('activatedAt')} is null and (${column('invitationExpiresAt')} is null or ${column('invitationExpiresAt')} <= ${now}::timestamptz)`;
  const organization = sql`json_build_object('id', ${column('organizationId')}, 'glopla_id', ${column('gloplaId')}, 'corporation_official_name', ${column('corporationOfficialName')})`;
  const admin = sql`json_build_object('id', ${column('adminId')}, 'first_name', ${column('firstName')}, 'last_name', ${column('lastName')},
    'kana_first_name', ${column('kanaFirstName')}, 'kana_last_name', ${column('kanaLastName')}, 'email', ${column('email')},
    'activated_at', ${isoTimestamp('member.activatedAt')}, 'invitation_expires_at', ${isoTimestamp('member.invitationExpiresAt')},
    'invitation_expired', ${expired}, 'two_step', ${column('twoStep')})`;
  // the earliest invitation still to expire: the list's invitation_expired values hold until then
  const open = sql`${column('invitationExpiresAt')} > ${now}::timestamptz`;
  return db
    .selectFrom(member)
    .select([
      'member.twoStepRequired',
      sql<string>`json_build_object('role', ${column('role')}, 'etag', ${column('etag')}, 'organization', ${organization}, 'admin', ${admin})::text`.as('json'),
      listVersion(db, 'admins', organizationId).as('version'),
      sql<number | null>`(extract(epoch from min(${column('invitationExpiresAt')}) filter (where ${open}) over ()) * 1000)::float8`.as('nextExpiryMs'),
    ])
    .orderBy(sql`${column('role')} <> 'manager'`)
    .orderBy(sql`${column('kanaLastName')} = ''`)
    .orderBy('member.kanaLastName')
    .orderBy('member.kanaFirstName')
    .orderBy('member.email');
}

interface ListRow {
  twoStepRequired: boolean;
  /** The affiliation in wire form. */
  json: string;
  /** The list's version when it was read (the same in every row). */
  version: string;
  /** When the list's next invitation expires, ms since the epoch (the same in every row); null: none still open. */
  nextExpiryMs: number | null;
}

/**
 * The list query compiled once per database and reused with the caller's values: building and compiling this query
 * costs about as much CPU as reading its answer. A named statement: PostgreSQL plans its joins and subqueries once per
 * connection (its plan does not depend on the values). The benchmark's floor runs this SQL too (bench/affiliations.ts).
 */
const listStatement = compiledOnce(
  { organizationId: -1, adminId: -2, gloplaId: '\u0000gloplaId', now: '\u0000now' },
  (db, _shape: 'list', values) => organizationAffiliationsQuery(db, values.organizationId, { adminId: values.adminId, gloplaId: values.gloplaId }, values.now),
  'organization_affiliations',
);

export function organizationAffiliationsSql(db: Db, organizationId: number, viewer: Viewer, now = new Date()): CompiledQuery<ListRow> {
  return listStatement(db, 'list', { organizationId, adminId: viewer.adminId, gloplaId: viewer.gloplaId, now: now.toISOString() });
}

/**
 * The organisation's affiliations as the viewer may see them, each in wire form (JSON); undefined when the viewer may
 * not see them (not affiliated, or a session of another organisation): the list always holds the viewer's own row
 * otherwise.
 */
export async function organizationAffiliations(
  db: Db,
  organizationId: number,
  viewer: { adminId: number; gloplaId: string | undefined },
  now = new Date(),
): Promise<AdminList | undefined> {
  if (viewer.gloplaId === undefined) return undefined;
  const { rows } = await db.executeQuery(organizationAffiliationsSql(db, organizationId, { ...viewer, gloplaId: viewer.gloplaId }, now));
  const first = rows[0];
  if (!first) return undefined;
  return { affiliationsJson: rows.map((row) => row.json), twoStepRequired: first.twoStepRequired, version: first.version, validUntil: first.nextExpiryMs ?? Infinity };
}

/** What reading the list needs before its rows: whether the viewer may, the organisation's two-step rule and the list's version. */
export interface AdminListHead {
  twoStepRequired: boolean;
  version: string;
}

export interface AdminList extends AdminListHead {
  affiliationsJson: string[];
  /** Until when (ms since the epoch) the list is right without a change to its version: its next invitation's expiry. */
  validUntil: number;
}

/** The list's head, compiled once and planned once per connection (a named statement): a kept list is answered after this alone. */
const headStatement = compiledOnce(
  { organizationId: -1, adminId: -2, gloplaId: '\u0000gloplaId' },
  (db, _shape: 'head', values) =>
    db
      .selectFrom('organizations')
      .innerJoin('affiliations as viewer', (join) => join.onRef('viewer.organizationId', '=', 'organizations.id').on('viewer.adminId', '=', values.adminId))
      .select(['organizations.twoStepRequired', listVersion(db, 'admins', values.organizationId).as('version')])
      .where('organizations.id', '=', values.organizationId)
      .where('organizations.gloplaId', '=', values.gloplaId),
  'admin_list_head',
);

/**
 * The head of the organisation's admin list, the same access check as the list's (organizationAffiliations), without
 * its rows; undefined when the viewer may not see it.
 */
export async function organizationAdminListHead(db: Db, organizationId: number, viewer: { adminId: number; gloplaId: string | undefined }): Promise<AdminListHead | undefined> {
  if (viewer.gloplaId === undefined) return undefined;
  return (await db.executeQuery(headStatement(db, 'head', { organizationId, adminId: viewer.adminId, gloplaId: viewer.gloplaId }))).rows[0];
}

/** One affiliation of the organisation as the list shows it, or undefined when the admin does not belong to it. */
export async function findOrganizationAffiliation(db: Db, organizationId: number, adminId: number, now = new Date()): Promise<OrganizationAffiliation | undefined> {
  const row = await memberQuery(db).where('affiliations.organizationId', '=', organizationId).where('affiliations.adminId', '=', adminId).executeTakeFirst();
  return row ? toView(row, now) : undefined;
}

// ---------------------------------------------------------------------------------------------------
// Invite

/** 'already_member': the address already belongs to an admin of the organisation (answered 304). */
export type InviteOutcome = 'joined' | 'invited' | 'already_member';

export interface InviteResult {
  outcome: InviteOutcome;
  affiliation?: OrganizationAffiliation;
  /** The invitation mail failed after the invitation was stored: the caller logs it; a resend can repeat it. */
  mailError?: Error;
}

type Invitation = { outcome: 'already_member' } | { outcome: 'joined'; adminId: number } | { outcome: 'invited'; admin: Admin; token: string };

/**
 * Invites an address into the organisation with a role (SPEC §4 Invite outcomes), in one transaction: an activated
 * admin joins at once; an unknown address becomes a not-activated admin; a not-activated admin (new, or known from
 * another organisation) gets the affiliation and a fresh invitation, mailed after the commit.
 */
export async function inviteAdmin(
  deps: InvitationDeps,
  input: { organizationId: number; email: string; role: AffiliationRole; inviter: Inviter; trail: AuditTrail },
  now = new Date(),
): Promise<InviteResult> {
  const email = normalizeEmail(input.email);
  const invitation = await deps.db.transaction().execute(async (trx): Promise<Invitation> => {
    // concurrent invitations of one new address: one insert wins, both then read (and lock) the same admin
    await trx.insertInto('admins').values({ email }).onConflict((conflict) => conflict.column('email').doNothing()).execute();
    const admin = await trx.selectFrom('admins').selectAll().where('email', '=', email).forUpdate().executeTakeFirstOrThrow();
    const affiliation = await trx
      .insertInto('affiliations')
      .values({ adminId: admin.id, organizationId: input.organizationId, role: input.role })
      .onConflict((conflict) => conflict.columns(['adminId', 'organizationId']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!affiliation) return { outcome: 'already_member' };
    await input.trail.record(trx, { action: 'membership.invited', target: adminTarget(admin), changes: { role: { before: null, after: input.role } } });
    // an activated admin joins at once; another is invited (and joins when they activate the account: accountTokens.ts)
    await recordWebhookEvent(trx, input.organizationId, admin.activatedAt ? 'admin.joined' : 'admin.invited', adminEventData(admin, input.role));
    if (admin.activatedAt) return { outcome: 'joined', adminId: admin.id };
    return { outcome: 'invited', admin, token: await reissueInvitationToken(trx, admin.id, input.organizationId, deps.ttlSeconds, now) };
  });
  if (invitation.outcome === 'already_member') return { outcome: 'already_member' };
  if (invitation.outcome === 'joined') {
    return { outcome: 'joined', affiliation: await findOrganizationAffiliation(deps.db, input.organizationId, invitation.adminId, now) };
  }
  const mailError = await sendInvitation(deps, { admin: invitation.admin, token: invitation.token, organizationId: input.organizationId, inviter: input.inviter }).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const affiliation = await findOrganizationAffiliation(deps.db, input.organizationId, invitation.admin.id, now);
  return { outcome: 'invited', affiliation, ...(mailError ? { mailError } : {}) };
}

export type ResendOutcome = { ok: true; affiliation: OrganizationAffiliation } | { ok: false; code: 'not_affiliated' | 'already_activated' };

/**
 * Sends a not-activated admin of the organisation a new invitation (beyond the spec: the list's 'resend'): a new
 * link, the earlier ones closed. A failing mail rejects (nothing else to tell the manager; they may try again).
 */
export async function resendInvitation(
  deps: InvitationDeps,
  input: { organizationId: number; adminId: number; inviter: Inviter; trail: AuditTrail },
  now = new Date(),
): Promise<ResendOutcome> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const admin = await trx
      .selectFrom('admins')
      .innerJoin('affiliations', 'affiliations.adminId', 'admins.id')
      .selectAll('admins')
      .where('admins.id', '=', input.adminId)
      .where('affiliations.organizationId', '=', input.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!admin) return { ok: false, code: 'not_affiliated' } as const;
    if (admin.activatedAt) return { ok: false, code: 'already_activated' } as const;
    await input.trail.record(trx, { action: 'invitation.resent', target: adminTarget(admin) });
    return { ok: true, admin, token: await reissueInvitationToken(trx, admin.id, input.organizationId, deps.ttlSeconds, now) } as const;
  });
  if (!result.ok) return result;
  await sendInvitation(deps, { admin: result.admin, token: result.token, organizationId: input.organizationId, inviter: input.inviter });
  const affiliation = await findOrganizationAffiliation(deps.db, input.organizationId, input.adminId, now);
  return affiliation ? { ok: true, affiliation } : { ok: false, code: 'not_affiliated' };
}

/**
 * Closes the admin's open activation links of this organisation's invitations and issues a new one: only its newest
 * invitation works; another organisation's invitation of the same admin stays open (either link activates).
 */
async function reissueInvitationToken(db: Db, adminId: number, organizationId: number, ttlSeconds: number, now: Date): Promise<string> {
  await closeOpenTokens(db, adminId, 'activation', now, organizationId);
  return issueToken(db, adminId, 'activation', ttlSeconds, now, organizationId);
}

/**
 * How a mail names an admin: in English the Latin name (Taro Yamada) when the admin has one; otherwise the name by the
 * language's rule (src/common/personName.ts: 山田 太郎 in Japanese, 太郎 山田 in English); the e-mail while the admin
 * has no name yet.
 */
export function displayName(admin: Pick<Admin, 'firstName' | 'lastName' | 'latinFirstName' | 'latinLastName' | 'email'>, language: Language): string {
  const latin = formatPersonName({ firstName: admin.latinFirstName, lastName: admin.latinLastName }, 'en');
  if (language === 'en' && latin !== '') return latin;
  return formatPersonName(admin, language) || admin.email;
}

/**
 * The e-mail's domain when it signs in to the organisation through single sign-on: a verified domain of the
 * organisation whose connection (its own, else the organisation's only active one) is on.
 */
async function singleSignOnDomainOf(db: Db, organizationId: number, email: string): Promise<string | undefined> {
  const domain = email.split('@').pop() ?? '';
  const row = await db.selectFrom('ssoDomains').select('connectionId').where('organizationId', '=', organizationId).where('domain', '=', domain).where('verifiedAt', 'is not', null).executeTakeFirst();
  const connectionId = row && (row.connectionId ?? (await defaultConnectionId(db, organizationId)));
  if (!connectionId) return undefined;
  const on = await db.selectFrom('ssoConnections').select('id').where('id', '=', connectionId).where('state', '=', 'on').executeTakeFirst();
  return on ? domain : undefined;
}

/** The invitation mail: the activation link, naming the organisation and the inviting admin. */
async function sendInvitation(deps: InvitationDeps, input: { admin: Admin; token: string; organizationId: number; inviter: Inviter }): Promise<void> {
  const [organization, inviter] = await Promise.all([
    deps.db.selectFrom('organizations').select(['corporationOfficialName', 'gloplaIdName']).where('id', '=', input.organizationId).executeTakeFirstOrThrow(),
    deps.db.selectFrom('admins').select(['firstName', 'lastName', 'latinFirstName', 'latinLastName', 'email']).where('id', '=', input.inviter.adminId).executeTakeFirstOrThrow(),
  ]);
  const language = mailLanguage(input.inviter.requestedLanguage, input.admin.language);
  const link = activationLink(deps.publicUrl, input.admin.id, input.token, language);
  const values = {
    email: input.admin.email,
    organization: organization.corporationOfficialName || organization.gloplaIdName,
    inviter: displayName(inviter, language),
    validFor: validityText(language, deps.ttlSeconds),
  };
  const ssoDomain = await singleSignOnDomainOf(deps.db, input.organizationId, input.admin.email);
  // the optional paragraph (issue 45 §3): at a single-sign-on domain the admin activates by signing in through it
  const sso = ssoDomain
    ? localeText(language, 'mail.invitation.sso').replace(/\{\{(\w+)\}\}/g, (whole, name: string) => ({ ...values, domain: ssoDomain, portal: deps.publicUrl } as Record<string, string>)[name] ?? whole)
    : '';
  const mail = renderMail('invitation', language, { ...values, sso }, link);
  await deps.mailer.send({ ...mail, to: input.admin.email });
}

// ---------------------------------------------------------------------------------------------------
// Role and removal

export type RoleChange = { ok: true; changed: boolean; affiliation: OrganizationAffiliation } | { ok: false; code: 'not_affiliated' };

/**
 * Sets the admin's role in the organisation if the affiliation is still the version the precondition asks for
 * (StaleVersion otherwise); `changed` is false when it already was that role (nothing recorded then).
 */
export async function changeRole(
  db: Db,
  organizationId: number,
  adminId: number,
  change: { role: AffiliationRole; precondition?: Precondition },
  trail: AuditTrail,
  now = new Date(),
): Promise<RoleChange> {
  const { role } = change;
  const updated = await db.transaction().execute(async (trx) => {
    if (!(await lockAffiliation(trx, organizationId, adminId, change.precondition))) return undefined;
    const row = await trx
      .updateTable('affiliations')
      // the transaction's own clock: the version's time, unique to the microsecond between two changes of the row
      .set({ role, updatedAt: sql<Date>`clock_timestamp()` })
      .from('admins')
      .whereRef('admins.id', '=', 'affiliations.adminId')
      .where('affiliations.organizationId', '=', organizationId)
      .where('affiliations.adminId', '=', adminId)
      .where('affiliations.role', '<>', role)
      .returning(['admins.id', 'admins.email'])
      .executeTakeFirst();
    // two roles only: a changed role was the other one
    if (row) await trail.record(trx, { action: 'membership.roleChanged', target: adminTarget(row), changes: { role: { before: role === 'manager' ? 'member' : 'manager', after: role } } });
    return row;
  });
  const affiliation = await findOrganizationAffiliation(db, organizationId, adminId, now);
  return affiliation ? { ok: true, changed: updated !== undefined, affiliation } : { ok: false, code: 'not_affiliated' };
}

/**
 * Removes the admin from the organisation; false when the affiliation was already gone. A not-activated admin left
 * without any organisation also loses their open invitations: nothing would be left to join.
 */
export async function removeAffiliation(db: Db, organizationId: number, adminId: number, precondition: Precondition | undefined, trail: AuditTrail, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockAffiliation(trx, organizationId, adminId, precondition))) return false;
    const removed = await trx.deleteFrom('affiliations').where('organizationId', '=', organizationId).where('adminId', '=', adminId).returning('role').executeTakeFirst();
    if (!removed) return false;
    const remaining = await trx.selectFrom('affiliations').select('id').where('adminId', '=', adminId).limit(1).executeTakeFirst();
    const admin = await trx.selectFrom('admins').select(['id', 'email', 'activatedAt']).where('id', '=', adminId).executeTakeFirst();
    if (admin) {
      await trail.record(trx, { action: 'membership.deleted', target: adminTarget(admin), changes: { role: { before: removed.role, after: null } } });
      await recordWebhookEvent(trx, organizationId, 'admin.removed', adminEventData(admin, removed.role));
    }
    if (!remaining && admin && !admin.activatedAt) await closeOpenTokens(trx, adminId, 'activation', now);
    return true;
  });
}

/**
 * A sign-in for the organisation (its choice for a grant): the organisation's trail records it, and the first one
 * marks the affiliation, so the admin's account events reach this organisation from then on (domain/audit.ts).
 */
export async function recordSignIn(db: Db, admin: { id: number; email: string }, organizationId: number, trail: AuditTrail): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('affiliations')
      .set({ firstSignedInAt: sql<Date>`now()` })
      .where('adminId', '=', admin.id)
      .where('organizationId', '=', organizationId)
      .where('firstSignedInAt', 'is', null)
      .execute();
    await trail.record(trx, { action: 'signIn.succeeded', target: adminTarget(admin) });
  });
}

/** An admin as the audit trail names them: by the e-mail (a not-activated admin has no name yet). */
function adminTarget(admin: { id: number; email: string }) {
  return { type: 'admin', id: admin.id, label: admin.email } as const;
}

// ---------------------------------------------------------------------------------------------------
// Product admin roles

/** The admin's roles per product in the organisation (SPEC 2.14), in the language, in the products' order. */
export async function productAdminRoles(db: Db, adminId: number, organizationId: number, language: Language): Promise<ProductAdminRole[]> {
  const rows = await db
    .selectFrom('productAdminRoles')
    .select(['productName', 'role', 'helpUrl'])
    .where('adminId', '=', adminId)
    .where('organizationId', '=', organizationId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({ productName: row.productName[language], role: row.role[language], helpUrl: row.helpUrl }));
}
