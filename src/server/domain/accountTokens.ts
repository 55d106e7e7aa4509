/**
 * Activation and password reset (SPEC 2.4, 2.5, §4 Admin account and Tokens): the mail requests, the token checks
 * and the changes the links lead to. Knows nothing of HTTP; the API routes (api/adminAccounts.ts) call it.
 *
 * An address that belongs to no admin gets the same outcome as a sent mail, without a mail ('unknown' is for the
 * caller's log only), so the forms do not tell who has an account. Only the activation request tells an activated
 * address apart ('already_activated'), as SPEC §4 asks.
 */
import type { Db } from '../db/index.js';
import type { Admin } from '../db/types.js';
import type { Mailer } from '../mail/mailer.js';
import { mailLanguage, renderMail, validityText } from '../mail/templates.js';
import { checkToken, consumeToken, issueToken, type TokenFailure } from './adminTokens.js';
import type { AuditTrail } from './audit.js';
import type { AdminName } from './admins.js';
import { hashPassword } from './passwords.js';
import { domainRequiresSso } from './ssoDomains.js';
import { adminEventData, recordWebhookEvent } from './webhookOutbox.js';

export interface MailDeps {
  db: Db;
  /** Delivers the mails that carry a link (a token should not wait anywhere in clear). */
  mailer: Mailer;
  /** Where mails without secrets go (the queue); default `mailer`. */
  notices?: Mailer;
  /** PUBLIC_URL without a trailing slash: links in mails are absolute. */
  publicUrl: string;
}

export type ActivationMailOutcome = 'sent' | 'unknown' | 'already_activated';
/** 'ssoRequired': the address's domain requires single sign-on (issue 45), so it has no password to reset here. */
export type ResetMailOutcome = 'sent' | 'unknown' | 'ssoRequired';


export type TokenOutcome<T> = { ok: true; value: T } | { ok: false; code: TokenFailure };

async function adminByEmail(db: Db, email: string): Promise<Admin | undefined> {
  return db.selectFrom('admins').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

/** Whether the address belongs to an activated admin (the one thing the activation request answers at once). */
export async function isActivatedAddress(db: Db, email: string): Promise<boolean> {
  return Boolean((await adminByEmail(db, email))?.activatedAt);
}

/** `/admins/{adminId}/activate/{token}?locale=…` (SPEC 2.1 and 2.2). */
export function activationLink(publicUrl: string, adminId: number, token: string, language: string): string {
  return `${publicUrl}/admins/${adminId}/activate/${encodeURIComponent(token)}?locale=${language}`;
}

/** `/password/reset?admin_id=…&token=…&locale=…` (SPEC 2.5). */
export function passwordResetLink(publicUrl: string, adminId: number, token: string, language: string): string {
  return `${publicUrl}/password/reset?admin_id=${adminId}&token=${encodeURIComponent(token)}&locale=${language}`;
}

export async function requestActivationMail(
  deps: MailDeps & { ttlSeconds: number },
  input: { email: string; cc?: string; requestedLanguage?: string },
): Promise<ActivationMailOutcome> {
  const admin = await adminByEmail(deps.db, input.email);
  if (!admin) return 'unknown';
  if (admin.activatedAt) return 'already_activated';
  const language = mailLanguage(input.requestedLanguage, admin.language);
  const token = await issueToken(deps.db, admin.id, 'activation', deps.ttlSeconds);
  const link = activationLink(deps.publicUrl, admin.id, token, language);
  const mail = renderMail('activation', language, { email: admin.email, validFor: validityText(language, deps.ttlSeconds) }, link);
  await deps.mailer.send({ ...mail, to: admin.email });
  // The cc address belongs to whoever asked: it learns that the mail went out, never the link (the link would let
  // anyone who knows an invited address activate it with their own password).
  if (input.cc) {
    const notice = renderMail('activationCcNotice', language, { email: admin.email });
    await (deps.notices ?? deps.mailer).send({ ...notice, to: input.cc });
  }
  return 'sent';
}

export async function requestPasswordResetMail(
  deps: MailDeps & { ttlSeconds: number },
  input: { email: string; requestedLanguage?: string },
): Promise<ResetMailOutcome> {
  const admin = await adminByEmail(deps.db, input.email);
  // an admin who never activated has no password to reset: treated like an unknown address
  if (!admin?.activatedAt) return 'unknown';
  // the API answered before this job, the same for every address: nothing tells that the address has an account
  if (await domainRequiresSso(deps.db, admin.email)) return 'ssoRequired';
  const language = mailLanguage(input.requestedLanguage, admin.language);
  const token = await issueToken(deps.db, admin.id, 'password_reset', deps.ttlSeconds);
  const link = passwordResetLink(deps.publicUrl, admin.id, token, language);
  const mail = renderMail('passwordReset', language, { email: admin.email, validFor: validityText(language, deps.ttlSeconds) }, link);
  await deps.mailer.send({ ...mail, to: admin.email });
  return 'sent';
}

/** What the activate page may show of the admin once the token is confirmed. */
export interface TokenAdmin {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  kanaFirstName: string;
  kanaLastName: string;
}

function tokenAdmin(admin: Admin): TokenAdmin {
  const { id, email, firstName, lastName, kanaFirstName, kanaLastName } = admin;
  return { id, email, firstName, lastName, kanaFirstName, kanaLastName };
}

export async function validateActivationToken(db: Db, token: string | undefined): Promise<TokenOutcome<TokenAdmin>> {
  const check = await checkToken(db, 'activation', token);
  return check.ok ? { ok: true, value: tokenAdmin(check.admin) } : check;
}

export async function validatePasswordResetToken(db: Db, token: string | undefined): Promise<TokenOutcome<{ id: number }>> {
  const check = await checkToken(db, 'password_reset', token);
  return check.ok ? { ok: true, value: { id: check.admin.id } } : check;
}

/** Sets the names and the password, marks the admin activated and the token used. */
export async function activateAdmin(
  db: Db,
  input: { adminId: number; token: string | undefined; name: AdminName; password: string },
): Promise<TokenOutcome<TokenAdmin>> {
  const check = await checkToken(db, 'activation', input.token);
  if (!check.ok) return check;
  if (check.admin.id !== input.adminId) return { ok: false, code: 'invalid_token' };
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    if (!(await consumeToken(trx, check.tokenId, check.admin.id, 'activation', now))) return { ok: false, code: 'token_used' } as const;
    const admin = await trx
      .updateTable('admins')
      .set({ ...input.name, passwordHash, activatedAt: now, updatedAt: now })
      .where('id', '=', check.admin.id)
      .where('activatedAt', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (!admin) throw new AlreadyActivatedRace();
    await tellOrganizationsJoined(trx, admin);
    return { ok: true, value: tokenAdmin(admin) } as const;
  }).catch((error: unknown) => {
    if (error instanceof AlreadyActivatedRace) return { ok: false, code: 'already_activated' } as const;
    throw error;
  });
}

class AlreadyActivatedRace extends Error {}

/** The organisations that invited the admin, in the activation's transaction: each is told the admin joined (issue 46 webhooks). */
async function tellOrganizationsJoined(trx: Db, admin: { id: number; email: string }): Promise<void> {
  const affiliations = await trx.selectFrom('affiliations').select(['organizationId', 'role']).where('adminId', '=', admin.id).execute();
  for (const affiliation of affiliations) await recordWebhookEvent(trx, affiliation.organizationId, 'admin.joined', adminEventData(admin, affiliation.role));
}

/**
 * An invited admin activated by signing in through single sign-on (issue 45: no password of the portal's); false when
 * the admin was activated already. The organisations that invited them are told in the same transaction.
 */
export async function activateByFederatedSignIn(db: Db, adminId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const admin = await trx.updateTable('admins').set({ activatedAt: new Date() }).where('id', '=', adminId).where('activatedAt', 'is', null).returning(['id', 'email']).executeTakeFirst();
    if (admin) await tellOrganizationsJoined(trx, admin);
    return admin !== undefined;
  });
}

/**
 * Sets the new password and marks the token used; then `revokeSessions` ends the admin's sessions (refresh tokens and
 * grants of the identity provider), so a reset locks out whoever knew the old password.
 */
export async function resetPassword(
  db: Db,
  input: { adminId: number; token: string | undefined; password: string; trail: AuditTrail },
  revokeSessions: (adminId: number) => Promise<void>,
): Promise<TokenOutcome<{ id: number }>> {
  const check = await checkToken(db, 'password_reset', input.token);
  if (!check.ok) return check;
  if (check.admin.id !== input.adminId) return { ok: false, code: 'invalid_token' };
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const changed = await db.transaction().execute(async (trx) => {
    if (!(await consumeToken(trx, check.tokenId, check.admin.id, 'password_reset', now))) return false;
    await trx.updateTable('admins').set({ passwordHash, updatedAt: now }).where('id', '=', check.admin.id).execute();
    await input.trail.record(trx, { action: 'account.passwordChanged', target: { type: 'admin', id: check.admin.id, label: check.admin.email } });
    return true;
  });
  if (!changed) return { ok: false, code: 'token_used' };
  await revokeSessions(check.admin.id);
  return { ok: true, value: { id: check.admin.id } };
}
