/**
 * Two-step sign-in (issue 29; NIST SP 800-63B AAL2, OWASP ASVS V2.7–2.8): an admin's second factors beside the
 * password. This module knows the authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s) and the recovery codes;
 * passkeys are passkeys.ts's.
 *
 * - The app's secret is kept sealed (sealedSecrets.ts: SECRET_KEY's keys). A set-up is a factor only once a code of it
 *   was verified.
 * - A code is accepted once: the 30-second step it belongs to must be later than the last accepted one (no replay
 *   inside its window); the step before and after the present one are accepted for clock drift.
 * - Recovery codes: ten at a time, shown once, stored as keyed hashes (HMAC-SHA-256); each opens one sign-in. New ones
 *   replace the old. The first factor comes with them, so that losing the phone is not losing the account.
 *
 * Every change is an entry of the admin's audit trail. No one but the admin changes their factors (a manager who could
 * would have a way to take the account over): README 'Two-step sign-in' says what support does instead.
 */
import { createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Db } from '../db/index.js';
import type { AuditTrail } from './audit.js';
import { checkToken, closeOpenTokens, issueToken } from './adminTokens.js';
import { listPasskeys, type PasskeyView } from './passkeys.js';
import { openSecret, sealSecret, type SecretKeys } from './sealedSecrets.js';
import { serverSecret } from './serverSecrets.js';

/** The issuer an authenticator app lists the account under. */
const ISSUER = 'Corporate Admin Portal';
const PERIOD_SECONDS = 30;
/** Steps accepted either side of the present one (a phone's clock a little off). */
const DRIFT_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits that cannot be mistaken for one another when typed from paper. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';


const encrypt = (keys: SecretKeys, text: string) => sealSecret(keys, 'authenticatorApp', text);
const decrypt = (keys: SecretKeys, stored: string) => openSecret(keys, 'authenticatorApp', stored);

const totpOf = (secret: string, label: string) => new TOTP({ issuer: ISSUER, label, secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS });

/** The 30-second step a code of `secret` typed now belongs to, if it is one (undefined otherwise). */
function stepOf(secret: string, code: string, now: number): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secret, '').validate({ token: code, timestamp: now, window: DRIFT_STEPS });
  return delta === null ? undefined : TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta;
}

// ---------------------------------------------------------------------------------------------------
// What the admin has

/** The admin's factors as the Sign-in security page shows them. */
export interface TwoStepState {
  passkeys: PasskeyView[];
  authenticatorApp: boolean;
  recoveryCodesLeft: number;
}

export async function twoStepState(db: Db, adminId: number): Promise<TwoStepState> {
  const [passkeys, app, codes] = await Promise.all([
    listPasskeys(db, adminId),
    db.selectFrom('adminAuthenticatorApps').select('adminId').where('adminId', '=', adminId).where('confirmedAt', 'is not', null).executeTakeFirst(),
    db.selectFrom('adminRecoveryCodes').select((eb) => eb.fn.countAll<string>().as('left')).where('adminId', '=', adminId).where('usedAt', 'is', null).executeTakeFirstOrThrow(),
  ]);
  return { passkeys, authenticatorApp: app !== undefined, recoveryCodesLeft: Number(codes.left) };
}

/** Whether the admin signs in in two steps (a passkey, or a confirmed app). */
export async function hasSecondFactor(db: Db, adminId: number): Promise<boolean> {
  const state = await twoStepState(db, adminId);
  return state.authenticatorApp || state.passkeys.length > 0;
}

/**
 * Recovery codes for a factor just added (in the caller's transaction): ten new ones when none are left (shown once).
 * The admin's enrolment links are spent with it.
 */
export async function recoveryCodesForFirstFactor(keys: SecretKeys, admin: { id: number; email: string }, trail: AuditTrail): Promise<string[] | undefined> {
  await closeEnrolmentTokens(keys.db, admin.id);
  const left = await keys.db.selectFrom('adminRecoveryCodes').select('id').where('adminId', '=', admin.id).where('usedAt', 'is', null).limit(1).executeTakeFirst();
  return left ? undefined : replaceRecoveryCodes(keys, admin, trail);
}

// ---------------------------------------------------------------------------------------------------
// The authenticator app

/** A set-up in progress: the secret as text and as the QR code an app scans (an SVG data: URL). */
export interface AuthenticatorSetup {
  secret: string;
  uri: string;
  qrCode: string;
}

/** Starts (or starts over) setting up an app: a new secret, kept unconfirmed; an app already on stays until replaced. */
export async function startAuthenticatorApp(keys: SecretKeys, admin: { id: number; email: string }): Promise<AuthenticatorSetup | 'already_on'> {
  const existing = await keys.db.selectFrom('adminAuthenticatorApps').select('confirmedAt').where('adminId', '=', admin.id).executeTakeFirst();
  if (existing?.confirmedAt) return 'already_on';
  const secret = new Secret({ size: 20 }).base32;
  const secretEncrypted = await encrypt(keys, secret);
  await keys.db
    .insertInto('adminAuthenticatorApps')
    .values({ adminId: admin.id, secretEncrypted })
    .onConflict((conflict) => conflict.column('adminId').doUpdateSet({ secretEncrypted, lastUsedStep: 0 }))
    .execute();
  const uri = totpOf(secret, admin.email).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { secret, uri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

export type ConfirmResult = { ok: true; recoveryCodes: string[] | undefined } | { ok: false; reason: 'no_setup' | 'invalid_code' };

/** Confirms the app with a code of it: it becomes a factor; the first factor comes with recovery codes (shown once). */
export async function confirmAuthenticatorApp(keys: SecretKeys, admin: { id: number; email: string }, code: string, trail: AuditTrail, now = Date.now()): Promise<ConfirmResult> {
  return keys.db.transaction().execute(async (trx): Promise<ConfirmResult> => {
    const app = await trx.selectFrom('adminAuthenticatorApps').selectAll().where('adminId', '=', admin.id).forUpdate().executeTakeFirst();
    if (!app || app.confirmedAt) return { ok: false, reason: 'no_setup' };
    const step = stepOf(await decrypt(keys, app.secretEncrypted), code.trim(), now);
    if (step === undefined) return { ok: false, reason: 'invalid_code' };
    await trx.updateTable('adminAuthenticatorApps').set({ confirmedAt: new Date(now), lastUsedStep: step }).where('adminId', '=', admin.id).execute();
    await trail.record(trx, { action: 'account.twoStepAdded', target: { type: 'admin', id: admin.id, label: admin.email }, changes: { factor: { before: null, after: 'authenticatorApp' } } });
    return { ok: true, recoveryCodes: await recoveryCodesForFirstFactor({ ...keys, db: trx }, admin, trail) };
  });
}

/** Turns the app off (its secret is deleted); false when there was none. The recovery codes stay for a later factor. */
export async function removeAuthenticatorApp(db: Db, admin: { id: number; email: string }, trail: AuditTrail): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('adminAuthenticatorApps').where('adminId', '=', admin.id).returning('confirmedAt').executeTakeFirst();
    if (!removed?.confirmedAt) return false;
    await trail.record(trx, { action: 'account.twoStepRemoved', target: { type: 'admin', id: admin.id, label: admin.email }, changes: { factor: { before: 'authenticatorApp', after: null } } });
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------
// Recovery codes

const normalizeRecoveryCode = (code: string) => code.toUpperCase().replace(/[\s-]/g, '');

async function recoveryCodeHash(keys: SecretKeys, code: string): Promise<string> {
  return createHmac('sha256', await serverSecret(keys.db, 'recoveryCodeKey')).update(normalizeRecoveryCode(code)).digest('base64url');
}

function newRecoveryCode(): string {
  const characters = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${characters.slice(0, 5).join('')}-${characters.slice(5).join('')}`;
}

/** Ten new recovery codes in place of the old ones (in the caller's transaction when `keys.db` is one): shown once. */
export async function replaceRecoveryCodes(keys: SecretKeys, admin: { id: number; email: string }, trail: AuditTrail): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = await Promise.all(codes.map((code) => recoveryCodeHash(keys, code)));
  await keys.db.deleteFrom('adminRecoveryCodes').where('adminId', '=', admin.id).execute();
  await keys.db.insertInto('adminRecoveryCodes').values(hashes.map((codeHash) => ({ adminId: admin.id, codeHash }))).execute();
  await trail.record(keys.db, { action: 'account.recoveryCodesGenerated', target: { type: 'admin', id: admin.id, label: admin.email } });
  return codes;
}

// ---------------------------------------------------------------------------------------------------
// The second step of a sign-in

/** How the second step was made (RFC 8176 `amr`): a code of the app, or a recovery code (a one-time code too). */
export type SecondStep = { method: 'otp'; recoveryCode: boolean };

/**
 * Checks the code typed at the second step: a code of the admin's app, accepted once, or an unused recovery code, used
 * up (recorded in the trail). Undefined when it is neither.
 */
export async function verifySecondStep(keys: SecretKeys, admin: { id: number; email: string }, typed: string, trail: AuditTrail, now = Date.now()): Promise<SecondStep | undefined> {
  const code = typed.trim();
  if (/^\d{6}$/.test(code)) return (await acceptAppCode(keys, admin.id, code, now)) ? { method: 'otp', recoveryCode: false } : undefined;
  if (normalizeRecoveryCode(code).length !== 10) return undefined;
  const codeHash = await recoveryCodeHash(keys, code);
  return keys.db.transaction().execute(async (trx) => {
    const used = await trx
      .updateTable('adminRecoveryCodes')
      .set({ usedAt: new Date(now) })
      .where('adminId', '=', admin.id)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!used) return undefined;
    await trail.record(trx, { action: 'signIn.recoveryCodeUsed', target: { type: 'admin', id: admin.id, label: admin.email } });
    return { method: 'otp', recoveryCode: true } as const;
  });
}

/** A code of the confirmed app, for a step later than the last accepted one; the step is taken in the same statement. */
async function acceptAppCode(keys: SecretKeys, adminId: number, code: string, now: number): Promise<boolean> {
  const app = await keys.db.selectFrom('adminAuthenticatorApps').select(['secretEncrypted', 'confirmedAt']).where('adminId', '=', adminId).executeTakeFirst();
  if (!app?.confirmedAt) return false;
  const step = stepOf(await decrypt(keys, app.secretEncrypted), code, now);
  if (step === undefined) return false;
  // two sign-ins with one code at once: one update finds the older step, the other finds none
  const taken = await keys.db
    .updateTable('adminAuthenticatorApps')
    .set({ lastUsedStep: step })
    .where('adminId', '=', adminId)
    .where('lastUsedStep', '<', String(step))
    .returning('adminId')
    .executeTakeFirst();
  return taken !== undefined;
}

// ---------------------------------------------------------------------------------------------------
// The organisation's rule

/** Whether an organisation the admin belongs to requires two-step sign-in. */
export async function boundByTwoStepRule(db: Db, adminId: number): Promise<boolean> {
  const row = await db
    .selectFrom('affiliations')
    .innerJoin('organizations', 'organizations.id', 'affiliations.organizationId')
    .select('organizations.id')
    .where('affiliations.adminId', '=', adminId)
    .where('organizations.twoStepRequired', '=', true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------------
// The first enrolment under the rule (issue 44 finding 3)

/**
 * Under an organisation's rule, the first factor must prove more than the password (which is all a thief of it has):
 * a one-time link mailed to the admin's address opens the set-up. The link works for its TTL and until a factor is
 * added; an admin who lets it lapse asks for another and is held at set-up meanwhile.
 */
export async function issueEnrolmentToken(db: Db, adminId: number, ttlSeconds: number): Promise<string> {
  return db.transaction().execute(async (trx) => {
    await closeOpenTokens(trx, adminId, 'two_step_enrolment');
    return issueToken(trx, adminId, 'two_step_enrolment', ttlSeconds);
  });
}

/** Whether `token` is the admin's own open enrolment link. */
export async function isEnrolmentToken(db: Db, adminId: number, token: string | undefined): Promise<boolean> {
  const check = await checkToken(db, 'two_step_enrolment', token);
  return check.ok && check.admin.id === adminId;
}

/** The links are spent once a factor is added (in the transaction that adds it). */
const closeEnrolmentTokens = (db: Db, adminId: number) => closeOpenTokens(db, adminId, 'two_step_enrolment');

/** Whether the organisation requires two-step sign-in of every admin acting for it. */
export async function twoStepRule(db: Db, organizationId: number): Promise<boolean> {
  const row = await db.selectFrom('organizations').select('twoStepRequired').where('id', '=', organizationId).executeTakeFirst();
  return row?.twoStepRequired ?? false;
}
