/**
 * The embedded OpenID Connect provider at /oidc (DESIGN §1, SPEC §7 Identity provider), in the portal's Fastify
 * process: `await registerIdentityProvider(app)` (from buildApp) loads or creates the keys, builds oidc-provider,
 * mounts it, adds the interaction pages and decorates the app with `identityProvider` for the API (access-token
 * verification, revoking an admin's sessions, a new session after a password change).
 *
 * Mounting: oidc-provider is a Koa app. Every request under /oidc that no Fastify route of ours claims
 * (discovery, auth, token, revocation, jwks, session/end) is handed to its callback untouched: the body is left
 * unread (oidc-provider parses it) and the URL is rewritten the way Express' app.use('/oidc', …) would, so the
 * provider derives its endpoint URLs from the mount path. Helmet's headers (CSP…) are already on the response.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { JSONWebKeySet } from 'jose';
import type Provider from 'oidc-provider';
import { ISSUER_PATH, PORTAL_CLIENT_ID, type TokenEndpointResponse } from '../../common/identity.js';
import { endAdminTokens } from '../domain/admins.js';
import { createClientTokenVerifier } from '../api/clientAuth.js';
import { createAccessTokenVerifier, type AccessTokenVerifier } from './accessTokens.js';
import { createAdapterClass, destroySessionsOfAccount, grantIdsOfAccount } from './adapter.js';
import { apiAudienceOf, issuerOf } from './constants.js';
import { interactionRoutes } from './interactions.js';
import { loadOrCreateKeys, publicJwk } from './keys.js';
import { issuePasswordChangeTicket, PASSWORD_CHANGE_GRANT, type PasswordChangeTicket } from './passwordChangeGrant.js';
import { createProvider, rewriteForMount } from './provider.js';

/**
 * Koa (provider.proxy) believes any X-Forwarded-* header and reads the first entry; Fastify believes them only from a
 * trusted proxy (TRUST_PROXY) and reads the proxy's own, last entry. The provider gets Fastify's verdict.
 */
function forwardTrustedOrigin(request: FastifyRequest): void {
  const headers = request.raw.headers;
  headers['x-forwarded-host'] = request.host;
  headers['x-forwarded-proto'] = request.protocol;
  headers['x-forwarded-for'] = request.ip;
}

export interface IdentityProviderService {
  provider: Provider;
  issuer: string;
  /** The audience (resource indicator) of the API's access tokens. */
  audience: string;
  /** The public signing keys (what /oidc/jwks publishes). */
  jwks: JSONWebKeySet;
  /** Verifies an access token locally; throws AccessTokenError (access_token_expired / invalid_access_token). */
  verifyAccessToken: AccessTokenVerifier;
  /** Verifies an API client's access token locally (issue 46, api/clientAuth.ts); throws an ApiError 401. */
  verifyClientToken: ReturnType<typeof createClientTokenVerifier>;
  /** Revokes every grant (with its refresh tokens), every provider session and every access token of the admin. */
  revokeAdmin(adminId: number): Promise<void>;
  /**
   * A new session (token response) for the admin in the organisation, minted by the password-change grant: after a
   * password change, or a second factor added or removed (the caller revokes the admin's other sessions first).
   */
  replaceSession(data: Omit<PasswordChangeTicket, 'clientId' | 'accountId'> & { adminId: number }): Promise<TokenEndpointResponse>;
}

declare module 'fastify' {
  interface FastifyInstance {
    identityProvider: IdentityProviderService;
  }
}

export async function registerIdentityProvider(app: FastifyInstance): Promise<void> {
  const { config, db } = app;
  const stored = await loadOrCreateKeys(db, !config.signingKeys);
  const keys = { ...stored, signing: config.signingKeys ?? stored.signing };
  const provider = createProvider({ config, db, keys, log: app.log });
  const Adapter = createAdapterClass(db);
  const issuer = issuerOf(config);
  const audience = apiAudienceOf(config);
  const jwks = { keys: keys.signing.map(publicJwk) } as JSONWebKeySet;

  const service: IdentityProviderService = {
    provider,
    issuer,
    audience,
    jwks,
    verifyAccessToken: createAccessTokenVerifier({ issuer, audience, jwks }),
    verifyClientToken: createClientTokenVerifier({ issuer, audience, jwks }),
    async revokeAdmin(adminId) {
      await endAdminTokens(db, adminId);
      const accountId = String(adminId);
      const adapter = new Adapter('Grant');
      for (const grantId of await grantIdsOfAccount(db, accountId)) await adapter.revokeByGrantId(grantId);
      await destroySessionsOfAccount(db, accountId);
    },
    async replaceSession({ adminId, ...data }) {
      const ticket = await issuePasswordChangeTicket(Adapter, { ...data, accountId: String(adminId), clientId: PORTAL_CLIENT_ID });
      // an in-process request to our own token endpoint (no network)
      const response = await app.inject({
        method: 'POST',
        url: `${ISSUER_PATH}/token`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        payload: new URLSearchParams({ grant_type: PASSWORD_CHANGE_GRANT, ticket, client_id: PORTAL_CLIENT_ID }).toString(),
      });
      if (response.statusCode !== 200) throw new Error(`password-change grant answered ${response.statusCode}: ${response.body}`);
      return response.json() as TokenEndpointResponse;
    },
  };
  app.decorate('identityProvider', service);

  await app.register(interactionRoutes({ provider, Adapter, audience, grantTtl: config.refreshTokenTtl }));

  const callback = provider.callback();
  await app.register(async (scope) => {
    // oidc-provider reads the bodies itself
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handler = (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      forwardTrustedOrigin(request);
      rewriteForMount(request.raw);
      void callback(request.raw, reply.raw);
    };
    // the provider's own endpoints change no organisation's data; sign-ins are recorded by the interactions (interactions.ts)
    const options = { config: { audit: [] } };
    scope.all(ISSUER_PATH, options, handler);
    scope.all(`${ISSUER_PATH}/*`, options, handler);
  });
  // expired payloads and old sign-in failures: the retention clean-up (domain/retention.ts)
}
