/**
 * Signing in through an organisation's own OpenID Connect identity provider (issue 45): home-realm discovery from the
 * typed e-mail, the authorisation request (code flow, PKCE S256, state, nonce) and the callback's checks, with
 * openid-client (the relying party of oidc-provider's author). The pages and the sign-in itself are interactions.ts'.
 *
 * The request's secrets are kept server-side through the provider's adapter as the model 'FederationRequest', keyed by
 * the state, for 10 minutes, naming the interaction that started it: the callback takes them once (deleted as they are
 * read, so a replayed state finds nothing) and then goes back to that interaction, whose cookie proves the same browser.
 *
 * A SAML connection (serviceProvider.ts) shares the routing (homeRealmOf, usableSaml), the one-time payloads (takePayload)
 * and the checks of the admin (federatedAdmin, with the connection's just-in-time creation of members:
 * jitProvisioning.ts); interactions.ts makes the same sign-in for both protocols.
 *
 * The IdP is an address the customer chose: every request to it (discovery, token, keys) goes only to public addresses,
 * to the address checked (no second lookup), without redirects, with a time limit; in demo mode loopback http too.
 */
import { sql } from 'kysely';
import * as client from 'openid-client';
import { ISSUER_PATH } from '../../common/identity.js';
import type { Db } from '../db/index.js';
import { normalizeEmail } from '../domain/admins.js';
import { defaultConnectionId } from '../domain/ssoConnections.js';
import type { SecretKeys } from '../domain/sealedSecrets.js';
import { openClientSecret } from '../domain/ssoSecrets.js';
import { GuardedFetchError, guardedRequest, type FetchRefusal } from '../domain/guardedFetch.js';
import type { AuditTrail } from '../domain/audit.js';
import { provisionedName, provisionMember } from './jitProvisioning.js';

export const FEDERATION_CALLBACK_PATH = `${ISSUER_PATH}/federation/callback`;
const MODEL = 'FederationRequest';
const REQUEST_TTL_SECONDS = 10 * 60;
const TIMEOUT_MS = 10_000;
/** The ID token's signing algorithms accepted (never none nor a shared-secret HMAC). */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256'] as const;

/** A connection as the sign-in uses it. */
export interface FederationConnection {
  id: string;
  organizationId: number;
  name: string;
  protocol: 'saml' | 'oidc';
  state: 'draft' | 'on' | 'paused';
  issuer: string | null;
  clientId: string | null;
  clientSecretEncrypted: string | null;
  attributeEmail: string;
  /** The claim or attribute of the family and given names (null: not read). */
  attributeFamilyName: string | null;
  attributeGivenName: string | null;
  trustIdpMfa: boolean;
  /** An address no admin has becomes a member at its first sign-in (off by default). */
  jitProvisioning: boolean;
  /** SAML: the ACS takes the IdP's unsolicited answers (off by default). */
  idpInitiated: boolean;
  idpMetadataXml: string | null;
  idpMetadataUrl: string | null;
}

/** Where an e-mail's domain signs in: its verified domain's connection (if any), and whether the domain requires it. */
export interface HomeRealm {
  requireSso: boolean;
  connection?: FederationConnection;
}

export const domainOf = (email: string) => normalizeEmail(email).split('@').pop() ?? '';

export async function connectionById(db: Db, id: string): Promise<FederationConnection | undefined> {
  return db
    .selectFrom('ssoConnections')
    .select(['id', 'organizationId', 'name', 'protocol', 'state', 'issuer', 'clientId', 'clientSecretEncrypted', 'attributeEmail', 'attributeFamilyName', 'attributeGivenName', 'trustIdpMfa', 'jitProvisioning', 'idpInitiated', 'idpMetadataXml', 'idpMetadataUrl'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The verified domain of the e-mail and the connection it routes to (its own, else the organisation's only active one). */
export async function homeRealmOf(db: Db, email: string): Promise<HomeRealm | undefined> {
  const domain = domainOf(email);
  if (!domain) return undefined;
  const row = await db
    .selectFrom('ssoDomains')
    .select(['organizationId', 'connectionId', 'requireSso'])
    .where('domain', '=', domain)
    .where('verifiedAt', 'is not', null)
    .executeTakeFirst();
  if (!row) return undefined;
  const connectionId = row.connectionId ?? (await defaultConnectionId(db, row.organizationId));
  const connection = connectionId ? await connectionById(db, connectionId) : undefined;
  return { requireSso: row.requireSso, ...(connection ? { connection } : {}) };
}

/** A connection the sign-in may go through now: on, OpenID Connect, complete. */
export const usableOidc = (connection: FederationConnection | undefined): connection is FederationConnection & { issuer: string; clientId: string; clientSecretEncrypted: string } =>
  connection?.state === 'on' && connection.protocol === 'oidc' && !!connection.issuer && !!connection.clientId && !!connection.clientSecretEncrypted;

/** A SAML connection the sign-in may go through now: on, with the IdP's metadata (stored or by URL). */
export const usableSaml = (connection: FederationConnection | undefined): connection is FederationConnection & { protocol: 'saml' } =>
  connection?.state === 'on' && connection.protocol === 'saml' && !!(connection.idpMetadataXml || connection.idpMetadataUrl);

export class FederationRefused extends Error {
  constructor(readonly reason: string) {
    super(`federated sign-in refused: ${reason}`);
    this.name = 'FederationRefused';
  }
}

/** The guard's refusals as the sign-in names them (connectionTest.ts shows them to the manager). */
const FETCH_REFUSALS: Partial<Record<FetchRefusal, string>> = { httpsRequired: 'https required', invalidUrl: 'https required', privateAddress: 'private address' };

/**
 * openid-client's fetch through the guard of every request to a customer's URL (domain/guardedFetch.ts): public
 * addresses only (loopback in demo mode), pinned to the address checked, no redirects, a time limit and a size cap.
 */
export function guardedCustomFetch(allowLoopback: boolean): client.CustomFetch {
  return async (url, options) => {
    try {
      const answer = await guardedRequest(url, {
        allowLoopback,
        timeoutMs: TIMEOUT_MS,
        method: options.method === 'POST' ? 'POST' : 'GET',
        headers: Object.fromEntries(new Headers(options.headers as HeadersInit | undefined)),
        ...(options.body !== undefined && options.body !== null ? { body: String(options.body) } : {}),
      });
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    } catch (error) {
      const refusal = error instanceof GuardedFetchError ? FETCH_REFUSALS[error.reason] : undefined;
      throw refusal ? new FederationRefused(refusal) : error;
    }
  };
}

/** Discovered configurations for a while, per connection and its settings (a change of them is another key). */
const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const discovered = new Map<string, { configuration: client.Configuration; until: number }>();

/** The relying party's configuration at the connection's IdP (discovery; the issuer must be the one configured). */
export async function configurationOf(keys: SecretKeys, connection: FederationConnection & { issuer: string; clientId: string; clientSecretEncrypted: string }, demo: boolean) {
  const key = JSON.stringify([connection.id, connection.issuer, connection.clientId, connection.clientSecretEncrypted, demo]);
  const kept = discovered.get(key);
  if (kept && kept.until > Date.now()) return kept.configuration;
  const configuration = await discover(keys, connection, demo);
  if (discovered.size >= 100) discovered.clear();
  discovered.set(key, { configuration, until: Date.now() + DISCOVERY_TTL_MS });
  return configuration;
}

async function discover(keys: SecretKeys, connection: FederationConnection & { issuer: string; clientId: string; clientSecretEncrypted: string }, demo: boolean) {
  const secret = await openClientSecret(keys, connection.id, connection.clientSecretEncrypted);
  const issuer = new URL(connection.issuer);
  const loopbackHttp = demo && issuer.protocol === 'http:';
  const configuration = await client.discovery(issuer, connection.clientId, undefined, client.ClientSecretPost(secret), {
    [client.customFetch]: guardedCustomFetch(demo),
    timeout: TIMEOUT_MS / 1000,
    ...(loopbackHttp ? { execute: [client.allowInsecureRequests] } : {}),
  });
  configuration[client.customFetch] = guardedCustomFetch(demo);
  return configuration;
}

/** What the callback needs of the request it answers. */
export interface PendingFederation {
  interactionUid: string;
  connectionId: string;
  codeVerifier: string;
  nonce: string;
}

/** The authorisation request to the IdP; its secrets kept for the callback. */
export async function beginFederation(
  db: Db,
  Adapter: new (model: string) => import('oidc-provider').Adapter,
  input: { configuration: client.Configuration; connectionId: string; interactionUid: string; redirectUri: string; loginHint: string },
): Promise<URL> {
  const { url, state, secrets } = await authorizationRequest(input.configuration, input.redirectUri, input.loginHint);
  const pending: PendingFederation = { interactionUid: input.interactionUid, connectionId: input.connectionId, ...secrets };
  await new Adapter(MODEL).upsert(state, { ...pending } as never, REQUEST_TTL_SECONDS);
  return url;
}

/** An authorisation request (code flow, PKCE S256, state, nonce): its URL, and the secrets its answer is checked with. */
export async function authorizationRequest(configuration: client.Configuration, redirectUri: string, loginHint?: string) {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(loginHint ? { login_hint: loginHint } : {}),
  });
  return { url, state, secrets: { codeVerifier, nonce } };
}

/** A payload of the adapter's `model`, taken once: deleted in the statement that reads it (a replay finds nothing). */
export async function takePayload(db: Db, model: string, id: string): Promise<Record<string, unknown> | undefined> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(id)) return undefined;
  const row = await db
    .deleteFrom('idpPayloads')
    .where('model', '=', model)
    .where('id', '=', id)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', sql<Date>`now()`)]))
    .returning('payload')
    .executeTakeFirst();
  if (!row) return undefined;
  return (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as Record<string, unknown>;
}

/** The request a state names, taken once. */
export async function takePendingFederation(db: Db, state: string): Promise<PendingFederation | undefined> {
  const payload = (await takePayload(db, MODEL, state)) as Partial<PendingFederation> | undefined;
  if (!payload) return undefined;
  const { interactionUid, connectionId, codeVerifier, nonce } = payload;
  if (typeof interactionUid !== 'string' || typeof connectionId !== 'string' || typeof codeVerifier !== 'string' || typeof nonce !== 'string') return undefined;
  return { interactionUid, connectionId, codeVerifier, nonce };
}

/** What the IdP asserted, once every check passed. */
export interface FederatedIdentity {
  email: string;
  /** The IdP says the admin used more than one factor (its `amr` or `acr`). */
  multiFactor: boolean;
  /** The names the IdP sent in the connection's mapped claims or attributes, if any (for just-in-time creation). */
  familyName?: string;
  givenName?: string;
  /** OpenID Connect: the claims the e-mail was read from (the names are read from them by the connection's mapping). */
  claims?: Record<string, unknown>;
}

/** The family and given names the IdP sent: the SAML answer's, else the claims the connection maps them to. */
function namesOf(identity: FederatedIdentity, connection: FederationConnection): { familyName?: string; givenName?: string } {
  const claim = (name: string | null) => (name && typeof identity.claims?.[name] === 'string' ? (identity.claims[name] as string) : undefined);
  return { familyName: identity.familyName ?? claim(connection.attributeFamilyName), givenName: identity.givenName ?? claim(connection.attributeGivenName) };
}

const MULTI_FACTOR_AMR = new Set(['mfa', 'otp', 'hwk', 'swk', 'sc']);
/** acr values that say more than one factor: …:mfa, PAPE's multi-factor, FIDO's phishing-resistant phr/phrh. */
const MULTI_FACTOR_ACR = /(^|[^a-z])(mfa|multi-?factor|phrh?)([^a-z]|$)/i;

/** What the IdP sent, once its answer passed every check: the ID token's claims, and its UserInfo answer when asked. */
export interface FederationAnswer {
  claims: client.IDToken;
  userinfo?: client.UserInfoResponse;
}

/**
 * The code exchanged and the ID token checked (openid-client: issuer, audience and azp, nonce, signature, expiry;
 * then the algorithm allowlist), and the e-mail read from the connection's claim (email_verified must not be false).
 */
export async function completeFederation(
  configuration: client.Configuration,
  input: { callbackUrl: URL; state: string; pending: Pick<PendingFederation, 'codeVerifier' | 'nonce'>; emailClaim: string },
): Promise<FederatedIdentity> {
  return federatedIdentityOf(await redeemFederation(configuration, input), input.emailClaim);
}

/** The code exchanged and every check of the ID token (above); the UserInfo endpoint asked when the token lacks the e-mail claim. */
export async function redeemFederation(
  configuration: client.Configuration,
  input: { callbackUrl: URL; state: string; pending: Pick<PendingFederation, 'codeVerifier' | 'nonce'>; emailClaim: string },
): Promise<FederationAnswer> {
  const tokens = await client.authorizationCodeGrant(configuration, input.callbackUrl, {
    pkceCodeVerifier: input.pending.codeVerifier,
    expectedState: input.state,
    expectedNonce: input.pending.nonce,
    idTokenExpected: true,
  });
  const idToken = tokens.id_token ?? '';
  const header = JSON.parse(Buffer.from(idToken.split('.')[0] ?? '', 'base64url').toString('utf8') || '{}') as { alg?: string };
  if (!(ID_TOKEN_ALGORITHMS as readonly string[]).includes(header.alg ?? '')) throw new FederationRefused(`id token algorithm ${header.alg}`);
  const claims = tokens.claims();
  if (!claims) throw new FederationRefused('no id token');
  // IdPs that conform to Core §5.4 answer scope claims at the UserInfo endpoint only (its sub checked against the ID token's)
  if (claims[input.emailClaim] !== undefined) return { claims };
  return { claims, userinfo: await client.fetchUserInfo(configuration, tokens.access_token, claims.sub) };
}

/** The e-mail (the connection's claim; email_verified must not be false) and whether the IdP says more than one factor. */
export function federatedIdentityOf(answer: FederationAnswer, emailClaim: string): FederatedIdentity {
  const { claims } = answer;
  const source: Record<string, unknown> = answer.userinfo ?? claims;
  const email = source[emailClaim];
  if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new FederationRefused('no e-mail claim');
  if (source.email_verified === false) throw new FederationRefused('e-mail not verified');
  const amr = Array.isArray(claims.amr) ? claims.amr.filter((value): value is string => typeof value === 'string') : [];
  const multiFactor = amr.some((value) => MULTI_FACTOR_AMR.has(value)) || (typeof claims.acr === 'string' && MULTI_FACTOR_ACR.test(claims.acr));
  return { email: normalizeEmail(email), multiFactor, claims: source };
}

/** The connection a request went through, if it is still on (either protocol). */
export async function activeConnection(db: Db, id: string): Promise<FederationConnection | undefined> {
  const connection = await connectionById(db, id);
  return usableOidc(connection) || usableSaml(connection) ? connection : undefined;
}

/** The admin at the address who belongs to the organisation, if any. */
const organizationAdmin = (db: Db, organizationId: number, email: string) =>
  db
    .selectFrom('admins')
    .innerJoin('affiliations', 'affiliations.adminId', 'admins.id')
    .select(['admins.id', 'admins.email', 'admins.activatedAt'])
    .where('admins.email', '=', email)
    .where('affiliations.organizationId', '=', organizationId)
    .executeTakeFirst();

/**
 * The admin the IdP signed in, when they may enter through this connection: the e-mail's domain is a verified domain
 * routed to this connection, and the admin belongs to the connection's organisation — or, when the connection creates
 * members just in time and no admin has the address at all, the member created now (`trail` records it). An admin of
 * another organisation at the address is refused: the IdP's word adds no one to an organisation they already have an
 * account beside; a manager invites them.
 */
export async function federatedAdmin(db: Db, connection: FederationConnection, identity: FederatedIdentity, trail: AuditTrail) {
  const { email } = identity;
  const realm = await homeRealmOf(db, email);
  if (realm?.connection?.id !== connection.id) throw new FederationRefused('e-mail outside the connection’s domains');
  const admin = await organizationAdmin(db, connection.organizationId, email);
  if (admin) return { ...admin, provisioned: false };
  if (!connection.jitProvisioning) throw new FederationRefused('not an admin of the organisation');
  const input = { email, organizationId: connection.organizationId, connection, name: provisionedName(email, namesOf(identity, connection)) };
  const created = await provisionMember(db, input, trail);
  if (created) return { ...created, activatedAt: new Date(), provisioned: true };
  // an admin has the address: made by a first sign-in at the same moment (then a member now), or not the organisation's
  const meanwhile = await organizationAdmin(db, connection.organizationId, email);
  if (!meanwhile) throw new FederationRefused('an admin of another organisation at the address (just-in-time creates new addresses only)');
  return { ...meanwhile, provisioned: false };
}
