/**
 * oidc-provider's storage adapter over Kysely (PGlite or PostgreSQL): every model in the one table idp_payloads,
 * keyed by (model, id). The columns grant_id, uid, user_code and account_id are copied out of the payload so the
 * provider's look-ups (findByUid, findByUserCode, revokeByGrantId) and ours (an admin's grants) use indexes.
 *
 * Expired rows are never returned and are deleted by the retention clean-up (domain/retention.ts). Nothing is
 * cached in memory: two instances on one database see the same sessions, grants and tokens.
 */
import { sql } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { hasControlCharacter } from '../api/controlCharacters.js';
import type { Db } from '../db/index.js';

/** A jsonb parameter that PGlite and pg both send the same way (see seed/index.ts). */
function jsonb(value: unknown) {
  return sql<Record<string, unknown>>`cast(${JSON.stringify(value)} as jsonb)`;
}

/** Models whose rows belong to a grant and disappear with it (revokeByGrantId). */
export const GRANTABLE_MODELS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'Grant',
  // ours: the organisation chosen for a grant (see organizationChoice.ts)
  'OrganizationChoice',
]);

/**
 * The provider reads its own bodies (token, revocation, …: idp/index.ts hands it the raw request), so the form check
 * of api/controlCharacters.ts cannot see them; their codes and tokens meet the database here. An id with a control
 * character was never issued: it is not found (the provider answers its 400), never sent to PostgreSQL, which
 * cannot compare text with NUL (issue 15 finding 5: 500).
 */
export function createAdapterClass(db: Db) {
  return class KyselyAdapter implements Adapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const row = {
        model: this.model,
        id,
        payload: jsonb(payload),
        // a grant is its own grant: revokeByGrantId then removes it with its tokens
        grantId: this.model === 'Grant' ? id : typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        accountId: typeof payload.accountId === 'string' ? payload.accountId : null,
        expiresAt,
      };
      await db
        .insertInto('idpPayloads')
        .values(row)
        .onConflict((conflict) =>
          conflict.columns(['model', 'id']).doUpdateSet({
            payload: row.payload,
            grantId: row.grantId,
            uid: row.uid,
            userCode: row.userCode,
            accountId: row.accountId,
            expiresAt: row.expiresAt,
          }),
        )
        .execute();
    }

    private async findWhere(column: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
      if (hasControlCharacter(value)) return undefined; // never issued (above)
      const row = await db
        .selectFrom('idpPayloads')
        .select(['payload', 'consumedAt'])
        .where('model', '=', this.model)
        .where(column, '=', value)
        .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
        .limit(1)
        .executeTakeFirst();
      if (!row) return undefined;
      const payload = (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(new Date(row.consumedAt).getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.findWhere('id', id);
    }

    findByUid(uid: string) {
      return this.findWhere('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.findWhere('userCode', userCode);
    }

    async consume(id: string): Promise<void> {
      if (hasControlCharacter(id)) return;
      await db
        .updateTable('idpPayloads')
        .set({ consumedAt: sql<Date>`now()` })
        .where('model', '=', this.model)
        .where('id', '=', id)
        .execute();
    }

    async destroy(id: string): Promise<void> {
      if (hasControlCharacter(id)) return;
      await db.deleteFrom('idpPayloads').where('model', '=', this.model).where('id', '=', id).execute();
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      // every model of the grant at once: its tokens, codes, the grant itself and our organisation choice
      await db.deleteFrom('idpPayloads').where('grantId', '=', grantId).where('model', 'in', [...GRANTABLE_MODELS]).execute();
    }
  };
}

/** The grant ids of an account (admin id as a string), for revoking them all (e.g. after a password change). */
export async function grantIdsOfAccount(db: Db, accountId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('idpPayloads')
    .select('id')
    .where('model', '=', 'Grant')
    .where('accountId', '=', accountId)
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes the provider sessions of an account (the browser then has to enter the password again). */
export async function destroySessionsOfAccount(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('idpPayloads').where('model', '=', 'Session').where('accountId', '=', accountId).execute();
}

/**
 * Whether the grant still has a refresh token that can be used (unexpired, not yet rotated): the session is active.
 * Unexpired by the token's own `exp`, as the provider judges it: the row's expiresAt, counted from when it was
 * written, can be up to a second later (the provider counts in whole seconds), and a token just refused as expired
 * then still counted as live (a silent sign-in right after the refresh was refused).
 */
export async function hasLiveRefreshToken(db: Db, grantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('idpPayloads')
    .select('id')
    .where('grantId', '=', grantId)
    .where('model', '=', 'RefreshToken')
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', sql<Date>`now()`)
    .where(sql<boolean>`(payload->>'exp')::bigint > extract(epoch from now())`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
