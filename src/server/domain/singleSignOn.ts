/**
 * Single-sign-on tokens (issue 9 §4, SPEC §3, §7): issued to a signed-in admin for a partner product, signed with the
 * partner's shared secret (HMAC-SHA256 over a canonical string), valid for SINGLE_SIGN_ON_TOKEN_TTL (≤ 60 s) and
 * accepted once through the partner's verify call. README 'Single-sign-on gateway' is the partner's side of it.
 *
 * Fields: guq = one-time token id (24 random bytes, base64url); gss = the partner's state, unchanged; gui = the admin's
 * id; goi = the organisation's gloplaId (added by the browser from the session, signed here); gul = ja | en; ghs =
 * expiry, epoch seconds (accepted while now < ghs); gsg = base64url(HMAC-SHA256(secret, canonical string)).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Language } from '../../common/languages.js';
import type { Db } from '../db/index.js';
import type { PartnerProductsTable } from '../db/types.js';
import type { Selectable } from 'kysely';

export type PartnerProduct = Selectable<PartnerProductsTable>;

/** The first line of the canonical string: the version of this format. */
export const CANONICAL_VERSION = 'gsso1';

/** What the signature covers. */
export interface SignedFields {
  /** The partner product's code (the gateway's gpc); not forwarded, the partner knows its own. */
  gpc: string;
  guq: string;
  gui: string;
  goi: string;
  gul: string;
  ghs: string;
  /** Last: the one free-form field (no line break), so the lines cannot be shifted. */
  gss: string;
}

/** `gsso1\n{gpc}\n{guq}\n{gui}\n{goi}\n{gul}\n{ghs}\n{gss}` (UTF-8, no trailing line break). */
export function canonicalString(fields: SignedFields): string {
  return [CANONICAL_VERSION, fields.gpc, fields.guq, fields.gui, fields.goi, fields.gul, fields.ghs, fields.gss].join('\n');
}

/** base64url (no padding) of HMAC-SHA256(secret, canonical string). */
export function sign(secret: string, fields: SignedFields): string {
  return createHmac('sha256', secret).update(canonicalString(fields), 'utf8').digest('base64url');
}

/** Constant-time comparison of a presented signature with the expected one. */
export function signatureMatches(secret: string, fields: SignedFields, presented: string): boolean {
  const expected = Buffer.from(sign(secret, fields));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function findPartnerProduct(db: Db, code: string): Promise<PartnerProduct | undefined> {
  return db.selectFrom('partnerProducts').selectAll().where('code', '=', code).executeTakeFirst();
}

/**
 * The absolute authUrl: an absolute http(s) URL as stored; a path (the demo partner's `/dev/partner`) against
 * PUBLIC_URL in demo mode only; anything else undefined (the product cannot be used).
 */
export function resolveAuthUrl(authUrl: string, publicUrl: string, demo: boolean): string | undefined {
  if (authUrl.startsWith('/') && !authUrl.startsWith('//')) return demo ? new URL(authUrl, publicUrl).toString() : undefined;
  try {
    const url = new URL(authUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : undefined;
  } catch {
    return undefined;
  }
}

export interface IssuedTokens {
  guq: string;
  gss: string;
  gui: string;
  gsg: string;
  ghs: string;
  gul: Language;
}

/** Issues and records one set of tokens; tokens expired for a day are swept on the way. */
export async function issueTokens(
  db: Db,
  input: { product: PartnerProduct; adminId: number; gloplaId: string; gss: string; gul: Language; ttlSeconds: number; now: number },
): Promise<IssuedTokens> {
  const { product, adminId, gloplaId, gss, gul, ttlSeconds, now } = input;
  const guq = randomBytes(24).toString('base64url');
  const expiresAt = Math.floor(now / 1000) + ttlSeconds;
  const fields: SignedFields = { gpc: product.code, guq, gui: String(adminId), goi: gloplaId, gul, ghs: String(expiresAt), gss };
  await db.deleteFrom('singleSignOnTokens').where('expiresAt', '<', new Date(now - 24 * 3600 * 1000)).execute();
  await db
    .insertInto('singleSignOnTokens')
    .values({ id: guq, partnerCode: product.code, adminId, gloplaId, language: gul, expiresAt: new Date(expiresAt * 1000) })
    .execute();
  return { guq, gss, gui: fields.gui, gsg: sign(product.secret, fields), ghs: fields.ghs, gul };
}

/** The partner's credentials of the verify call (HTTP Basic `gpc:secret`), compared in constant time. */
export async function authenticatePartner(db: Db, code: string, secret: string): Promise<PartnerProduct | undefined> {
  const product = await findPartnerProduct(db, code);
  const digest = (value: string) => createHmac('sha256', 'partner-secret').update(value).digest();
  // compared even when the product is unknown, so the answer's timing does not tell codes apart
  const matches = timingSafeEqual(digest(secret), digest(product?.secret ?? `\u0000${code}`));
  return product && matches ? product : undefined;
}

export type RedeemRefusal = 'invalid_signature' | 'token_expired' | 'token_used' | 'invalid_token';

export type RedeemOutcome =
  | { ok: true; arrival: { gui: string; goi: string; gul: string; email: string } }
  | { ok: false; reason: RedeemRefusal };

/**
 * The partner's verify call: the signature, then the expiry, then one-time use — the token is marked used in the same
 * statement that finds it unused and unexpired, so two calls at once cannot both pass.
 */
export async function redeemTokens(db: Db, product: PartnerProduct, presented: Omit<SignedFields, 'gpc'> & { gsg: string }, now: number): Promise<RedeemOutcome> {
  const fields: SignedFields = { gpc: product.code, guq: presented.guq, gui: presented.gui, goi: presented.goi, gul: presented.gul, ghs: presented.ghs, gss: presented.gss };
  if (!signatureMatches(product.secret, fields, presented.gsg)) return { ok: false, reason: 'invalid_signature' };
  if (!/^\d{1,12}$/.test(fields.ghs) || now >= Number(fields.ghs) * 1000) return { ok: false, reason: 'token_expired' };
  const used = await db
    .updateTable('singleSignOnTokens')
    .set({ usedAt: new Date(now) })
    .where('id', '=', fields.guq)
    .where('partnerCode', '=', product.code)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', new Date(now))
    .returning(['adminId', 'gloplaId', 'language'])
    .executeTakeFirst();
  if (!used) {
    const row = await db.selectFrom('singleSignOnTokens').select(['usedAt', 'expiresAt']).where('id', '=', fields.guq).where('partnerCode', '=', product.code).executeTakeFirst();
    if (!row) return { ok: false, reason: 'invalid_token' };
    return { ok: false, reason: row.usedAt ? 'token_used' : 'token_expired' };
  }
  // signed, so these match what was issued; checked anyway
  if (String(used.adminId) !== fields.gui || used.gloplaId !== fields.goi || used.language !== fields.gul) return { ok: false, reason: 'invalid_token' };
  const admin = await db.selectFrom('admins').select('email').where('id', '=', used.adminId).executeTakeFirst();
  if (!admin) return { ok: false, reason: 'invalid_token' };
  return { ok: true, arrival: { gui: fields.gui, goi: used.gloplaId, gul: used.language, email: admin.email } };
}

/** Demo data and tests: add a partner product, or leave the one of that code as it is. */
export async function ensurePartnerProduct(db: Db, product: Omit<PartnerProduct, 'createdAt'>): Promise<void> {
  await db.insertInto('partnerProducts').values(product).onConflict((conflict) => conflict.column('code').doNothing()).execute();
}

