/**
 * The identity provider's keys, generated once and kept in the database (idp_keys) so every instance signs and
 * verifies with the same keys and nothing changes on a restart (DESIGN §7: never the development keys) — unless
 * IDP_SIGNING_KEYS (config.signingKeys) brings the signing keys from the environment; then none is stored.
 * - signing: an RSA key pair (RS256, the algorithm every OpenID Connect client supports) as a private JWK;
 * - cookie: a random secret that signs the provider's cookies, unless COOKIE_KEYS configures them.
 * Creation takes an advisory lock, so two instances starting together on an empty database agree on one key.
 */
import { createHash, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Db } from '../db/index.js';

/** Arbitrary constant key of the advisory lock held while creating keys. */
const KEYS_LOCK_KEY = 724_002;

export interface PrivateJwk {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  [name: string]: unknown;
}

export interface ProviderKeys {
  /** Private signing keys (the newest first); the provider publishes their public halves at /oidc/jwks. */
  signing: PrivateJwk[];
  /** Cookie signing secrets (the newest first). */
  cookie: string[];
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** A new RS256 signing key; made on libuv's thread pool: an RSA key takes a while and the event loop keeps serving. */
export async function newSigningKey(): Promise<PrivateJwk> {
  const { privateKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, string>;
  // RFC 7638-style thumbprint of the public part as the key id
  const kid = createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n }))
    .digest('base64url')
    .slice(0, 16);
  return { ...jwk, kty: jwk.kty!, kid, alg: 'RS256', use: 'sig' };
}

function jsonb(value: unknown) {
  return sql<Record<string, unknown>>`cast(${JSON.stringify(value)} as jsonb)`;
}

async function readKeys(db: Db): Promise<ProviderKeys> {
  const rows = await db.selectFrom('idpKeys').select(['kind', 'key']).orderBy('createdAt', 'desc').orderBy('kid').execute();
  const parse = (key: unknown) => (typeof key === 'string' ? JSON.parse(key) : key) as Record<string, unknown>;
  return {
    signing: rows.filter((row) => row.kind === 'signing').map((row) => parse(row.key) as PrivateJwk),
    cookie: rows.filter((row) => row.kind === 'cookie').map((row) => String(parse(row.key).secret)),
  };
}

/** The persisted keys; the first call on an empty database creates them (no signing key when `withSigning` is false). */
export async function loadOrCreateKeys(db: Db, withSigning = true): Promise<ProviderKeys> {
  const existing = await readKeys(db);
  const needsSigning = withSigning && existing.signing.length === 0;
  if (!needsSigning && existing.cookie.length > 0) return existing;
  // generate outside the transaction: RSA key generation takes a moment
  await storeMissingKeys(db, { signing: needsSigning ? await newSigningKey() : undefined, cookieSecret: randomBytes(32).toString('base64url') });
  return readKeys(db);
}

/**
 * Stores the given keys of the kinds the database does not hold yet, under the advisory lock: of two instances
 * starting together on an empty database, the first one's keys are kept.
 */
export async function storeMissingKeys(db: Db, keys: { signing?: PrivateJwk; cookieSecret: string }): Promise<void> {
  const { signing, cookieSecret } = keys;
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${KEYS_LOCK_KEY})`.execute(trx);
    const kinds = new Set((await trx.selectFrom('idpKeys').select('kind').execute()).map((row) => row.kind));
    if (signing && !kinds.has('signing')) {
      await trx.insertInto('idpKeys').values({ kind: 'signing', kid: signing.kid, key: jsonb(signing) }).execute();
    }
    if (!kinds.has('cookie')) {
      await trx
        .insertInto('idpKeys')
        .values({ kind: 'cookie', kid: createHash('sha256').update(cookieSecret).digest('base64url').slice(0, 16), key: jsonb({ secret: cookieSecret }) })
        .execute();
    }
  });
}

/** The public half of a private JWK (what /oidc/jwks publishes). */
export function publicJwk(jwk: PrivateJwk): Record<string, unknown> {
  const { kty, kid, alg, use, key_ops, n, e, crv, x, y } = jwk;
  return Object.fromEntries(Object.entries({ kty, kid, alg, use, key_ops, n, e, crv, x, y }).filter(([, value]) => value !== undefined));
}
