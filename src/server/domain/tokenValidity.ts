/**
 * Whether an access token is still good, without a database round trip per call (issue 20): when an admin's tokens
 * stop being good — admins.tokens_valid_after (logout, password change and reset) and admin_organization_tokens (a
 * role change or removal in one organisation) — is kept in memory per admin, loaded on first use, bounded (the least
 * recently used admin goes first) and forgotten when the database says it changed: a trigger notifies
 * `portal_token_validity` with the admin's id at commit (migration 0085), and every instance listens. While the
 * listening connection is down nothing is kept and every check asks the database. Whatever is kept is also asked
 * again after `maxAgeSeconds` (TOKEN_VALIDITY_MAX_AGE): should notifications stop in a way nobody notices, a change
 * still reaches every instance within that bound (issue 25 finding 1).
 */
import type { DatabaseHandle, Db, NotificationListener } from '../db/index.js';

export const TOKEN_VALIDITY_CHANNEL = 'portal_token_validity';
/** Admins kept at most (a few hundred bytes each). */
export const TOKEN_VALIDITY_CACHE_SIZE = 50_000;
/** How long a kept validity is trusted unless TOKEN_VALIDITY_MAX_AGE says otherwise, seconds. */
export const TOKEN_VALIDITY_MAX_AGE = 30;

export interface TokenValidityOptions {
  maxEntries?: number;
  maxAgeSeconds?: number;
}

/** When an admin's tokens stop being good, in epoch seconds (null: never ended); absent: no such admin. */
interface Validity {
  validAfter: number | null;
  byOrganization: Map<string, number>;
}

interface Kept {
  validity: Validity | undefined;
  /** Date.now() when it was read from the database. */
  loadedAt: number;
}

const epochSeconds = (value: Date | string) => Math.floor(new Date(value).getTime() / 1000);

async function loadValidity(db: Db, adminId: number): Promise<Validity | undefined> {
  const admin = await db.selectFrom('admins').select('tokensValidAfter').where('id', '=', adminId).executeTakeFirst();
  if (!admin) return undefined;
  const ended = await db
    .selectFrom('adminOrganizationTokens')
    .innerJoin('organizations', 'organizations.id', 'adminOrganizationTokens.organizationId')
    .select(['organizations.gloplaId', 'adminOrganizationTokens.tokensValidAfter'])
    .where('adminOrganizationTokens.adminId', '=', adminId)
    .execute();
  return {
    validAfter: admin.tokensValidAfter === null ? null : epochSeconds(admin.tokensValidAfter),
    byOrganization: new Map(ended.map((row) => [row.gloplaId, epochSeconds(row.tokensValidAfter)])),
  };
}

function isCurrent(validity: Validity | undefined, issuedAt: number, gloplaId: string | undefined): boolean {
  if (!validity) return false;
  const organizationValidAfter = validity.byOrganization.get(gloplaId ?? '');
  return (validity.validAfter === null || issuedAt >= validity.validAfter) && (organizationValidAfter === undefined || issuedAt >= organizationValidAfter);
}

export interface TokenValidity {
  /** Whether a token of the admin issued at `issuedAt` (epoch seconds), signed in for `gloplaId`, is still good. */
  isCurrent(adminId: number, issuedAt: number, gloplaId: string | undefined): Promise<boolean>;
  /** Forgets what is kept of the admin (this instance's own writes, at once; others' come by notification). */
  forget(adminId: number): void;
  close(): Promise<void>;
}

/** The token validities kept over each database (several apps may share one handle, as two instances in tests do). */
const byDatabase = new WeakMap<Db, Set<TokenValidity>>();

/** The token validity of one database, listening to its notifications; closed with the app. */
export function createTokenValidity(database: DatabaseHandle, { maxEntries = TOKEN_VALIDITY_CACHE_SIZE, maxAgeSeconds = TOKEN_VALIDITY_MAX_AGE }: TokenValidityOptions = {}): TokenValidity {
  const kept = new Map<number, Kept>();
  // a load that a change overtook must not be kept: each forget moves the generation on
  let generation = 0;
  const forget = (adminId: number) => {
    generation += 1;
    kept.delete(adminId);
  };
  const listener: NotificationListener = database.listen(TOKEN_VALIDITY_CHANNEL, {
    onNotification: (payload) => forget(Number(payload)),
    onInterrupted: () => {
      generation += 1;
      kept.clear();
    },
  });
  const tokenValidity: TokenValidity = {
    async isCurrent(adminId, issuedAt, gloplaId) {
      const entry = kept.get(adminId);
      if (entry && Date.now() - entry.loadedAt < maxAgeSeconds * 1000) {
        // most recently used last: the first key is the one to evict
        kept.delete(adminId);
        kept.set(adminId, entry);
        return isCurrent(entry.validity, issuedAt, gloplaId);
      }
      const loadedAt = generation;
      const started = Date.now();
      const validity = await loadValidity(database.db, adminId);
      if (listener.listening && generation === loadedAt) {
        kept.delete(adminId);
        kept.set(adminId, { validity, loadedAt: started });
        if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
      }
      return isCurrent(validity, issuedAt, gloplaId);
    },
    forget,
    async close() {
      byDatabase.get(database.db)?.delete(tokenValidity);
      await listener.close();
    },
  };
  if (!byDatabase.has(database.db)) byDatabase.set(database.db, new Set());
  byDatabase.get(database.db)!.add(tokenValidity);
  return tokenValidity;
}

/** After a write that ended an admin's tokens: this instance forgets at once (the notification follows anyway). */
export function tokenValidityChanged(db: Db, adminId: number): void {
  for (const tokenValidity of byDatabase.get(db) ?? []) tokenValidity.forget(adminId);
}
