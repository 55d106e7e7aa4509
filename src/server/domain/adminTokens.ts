/**
 * The tokens of the activation and password-reset links (SPEC §4 Tokens): 32 random bytes (256 bits, base64url), of
 * which only the SHA-256 hash is stored; each has a purpose and an expiry, and works once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import type { Admin, AdminTokenPurpose } from '../db/types.js';

export type TokenFailure = 'invalid_token' | 'token_expired' | 'token_used' | 'already_activated';

export type TokenCheck = { ok: true; tokenId: number; admin: Admin } | { ok: false; code: TokenFailure };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new token for the admin (an invitation's: of the inviting organisation); returns the token itself, which only the mail carries. */
export async function issueToken(db: Db, adminId: number, purpose: AdminTokenPurpose, ttlSeconds: number, now = new Date(), organizationId: number | null = null): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db
    .insertInto('adminTokens')
    .values({ adminId, purpose, tokenHash: hashToken(token), expiresAt: new Date(now.getTime() + ttlSeconds * 1000), organizationId })
    .execute();
  return token;
}

/**
 * Closes the admin's open tokens of the purpose (marks them used), so that only the next one issued works: a resent
 * invitation ends the link of the earlier mail. With an organisation, only the links of its invitations (and those
 * of no known organisation): another organisation's invitation stays open. Run it in the transaction that issues
 * the new token.
 */
export async function closeOpenTokens(db: Db, adminId: number, purpose: AdminTokenPurpose, now = new Date(), organizationId?: number): Promise<void> {
  let query = db.updateTable('adminTokens').set({ usedAt: now }).where('adminId', '=', adminId).where('purpose', '=', purpose).where('usedAt', 'is', null);
  if (organizationId !== undefined) query = query.where((eb) => eb.or([eb('organizationId', '=', organizationId), eb('organizationId', 'is', null)]));
  await query.execute();
}

/**
 * What a link's token is worth, in this order: unknown (or malformed, or of another purpose) → invalid_token; an
 * activation token of an admin who is already activated → already_activated; used → token_used; past its expiry →
 * token_expired.
 */
export async function checkToken(db: Db, purpose: AdminTokenPurpose, token: string | undefined, now = new Date()): Promise<TokenCheck> {
  if (!token || !TOKEN_PATTERN.test(token)) return { ok: false, code: 'invalid_token' };
  const row = await db.selectFrom('adminTokens').selectAll().where('tokenHash', '=', hashToken(token)).executeTakeFirst();
  if (!row || row.purpose !== purpose) return { ok: false, code: 'invalid_token' };
  const admin = await db.selectFrom('admins').selectAll().where('id', '=', row.adminId).executeTakeFirst();
  if (!admin) return { ok: false, code: 'invalid_token' };
  if (purpose === 'activation' && admin.activatedAt) return { ok: false, code: 'already_activated' };
  if (row.usedAt) return { ok: false, code: 'token_used' };
  if (new Date(row.expiresAt).getTime() <= now.getTime()) return { ok: false, code: 'token_expired' };
  return { ok: true, tokenId: row.id, admin };
}

/**
 * Marks the token used, and every other open token of the admin for the same purpose with it (one activation or
 * reset ends the others). False when another request used it first. Run it in the transaction of the change.
 */
export async function consumeToken(db: Db, tokenId: number, adminId: number, purpose: AdminTokenPurpose, now = new Date()): Promise<boolean> {
  const used = await db
    .updateTable('adminTokens')
    .set({ usedAt: now })
    .where('id', '=', tokenId)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning('id')
    .executeTakeFirst();
  if (!used) return false;
  await closeOpenTokens(db, adminId, purpose, now);
  return true;
}
