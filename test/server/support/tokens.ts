/**
 * Access tokens made in tests with the provider's own persisted key (or a stranger's), to check what the API accepts:
 *
 *   const token = await accessToken(ctx.app, { sub: '1', expiresIn: -60 });   // expired a minute ago
 */
import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { importJWK, SignJWT, type JWK } from 'jose';
import { PORTAL_CLIENT_ID } from '../../../src/common/identity.js';
import type { Db } from '../../../src/server/db/index.js';
import { loadOrCreateKeys } from '../../../src/server/idp/keys.js';
import { bearer } from './oidc.js';

export interface TokenOptions {
  sub?: string;
  /** Seconds from now; negative: already expired. */
  expiresIn?: number;
  /** Epoch seconds of the last password entry; default now. */
  authTime?: number;
  /** The organisation the session was signed in for; default G0000001, null for none. */
  gloplaId?: string | null;
  /** How the admin signed in (RFC 8176); default a password only. */
  amr?: string[];
  /** Epoch seconds of the last second step (mfa_time); default auth_time when amr says mfa, as the provider does. */
  mfaTime?: number;
  /** The single-sign-on connection the session came through (sso_connection; issue 45). */
  ssoConnection?: string;
  /** Epoch seconds the token was issued (iat); default now. A session ended at once ends the tokens of its second too. */
  issuedAt?: number;
  audience?: string;
  issuer?: string;
  /** Sign with a freshly generated key that carries the provider's kid (a forged signature). */
  foreignKey?: boolean;
  typ?: string;
}

export async function accessToken(app: FastifyInstance, options: TokenOptions = {}): Promise<string> {
  const { signing } = await loadOrCreateKeys(app.db);
  const providerKey = signing[0]!;
  const now = Math.floor(Date.now() / 1000);
  const jwk = options.foreignKey
    ? ({ ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK), kid: providerKey.kid } as JWK)
    : (providerKey as unknown as JWK);
  const key = await importJWK(jwk, 'RS256');
  const expiresIn = options.expiresIn ?? 900;
  const authTime = options.authTime ?? now;
  const amr = options.amr ?? ['pwd'];
  return new SignJWT({
    scope: 'organization unique_access_token',
    client_id: PORTAL_CLIENT_ID,
    auth_time: authTime,
    amr,
    ...(amr.includes('mfa') ? { mfa_time: options.mfaTime ?? authTime } : {}),
    ...(options.gloplaId === null ? {} : { glopla_id: options.gloplaId ?? 'G0000001' }),
    ...(options.ssoConnection ? { sso_connection: options.ssoConnection } : {}),
  })
    .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'at+jwt', kid: providerKey.kid })
    .setSubject(options.sub ?? '1')
    .setIssuer(options.issuer ?? app.identityProvider.issuer)
    .setAudience(options.audience ?? app.identityProvider.audience)
    // now, as a real token; an expired one was issued before it expired
    .setIssuedAt(options.issuedAt ?? (expiresIn < 0 ? now + expiresIn - 60 : now))
    .setExpirationTime(now + expiresIn)
    .setJti(`test-${Math.random().toString(36).slice(2)}`)
    .sign(key);
}

/**
 * The headers of G0000001's two demo managers, manager@ (id 1) and manager2@, each signed in for it: two people who may
 * change the same record (issue 28).
 */
export async function demoManagers(app: FastifyInstance, db: Db): Promise<Record<'manager' | 'manager2', Record<string, string>>> {
  const second = await db.selectFrom('admins').select('id').where('email', '=', 'manager2@example.com').executeTakeFirstOrThrow();
  return { manager: bearer(await accessToken(app, { sub: '1' })), manager2: bearer(await accessToken(app, { sub: String(second.id) })) };
}
