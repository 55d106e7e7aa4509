/**
 * The oidc-provider configuration of the embedded identity provider (SPEC §7 Identity provider, issue 3 §1).
 *
 * - Issuer `${PUBLIC_URL}/oidc`; the portal is the one static, public client (PKCE S256, no secret).
 * - Access tokens are JWTs for the portal API (resource indicator `${PUBLIC_URL}/api/v2`), signed with the persisted
 *   key, carrying `auth_time` (the last password entry), `amr`, `mfa_time` (the last second step, after one) and
 *   `glopla_id`; the API verifies them locally.
 * - Refresh tokens rotate on every use and never outlive the first one of their chain. Sessions (issue 7 finding 9):
 *   each refresh token lives SESSION_IDLE_TIMEOUT at most, so a session not refreshed that long ends, and none
 *   outlives SESSION_MAX_AGE after the password entry; the provider session (silent sign-in) then asks for the
 *   password again too.
 * - Interactions: `login` (our password page), then `select_account` (our organisation choice, asked on every
 *   authorisation and requestable with prompt=select_account), then `consent` (satisfied by the grant the
 *   organisation choice creates). The choice is kept per grant (organizationChoice.ts) and becomes `glopla_id`.
 * - The token endpoint's JSON also carries `created_at` and `refresh_token_expires_in` (SPEC §3 Session).
 */
import type { IncomingMessage } from 'node:http';
import Provider, { errors, interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { CALLBACK_PATH, ISSUER_PATH, PORTAL_CLIENT_ID, POST_LOGOUT_PATHS } from '../../common/identity.js';
import { canSign, type Config } from '../config.js';
import type { Db } from '../db/index.js';
import { endAdminTokens, findAdminById } from '../domain/admins.js';
import { twoStepRule } from '../domain/twoStep.js';
import { API_CLIENT_TOKEN_TTL } from '../domain/apiClients.js';
import { API_CLIENT_SCOPES } from '../../common/apiScopes.js';
import { createAdapterClass, hasLiveRefreshToken } from './adapter.js';
import { apiClientSecretMatches, apiClientTokenClaims, findApiClientMetadata, isApiClientId } from './apiClients.js';
import { ACR, API_SCOPES, apiAudienceOf, isSecureUrl, issuerOf, LANGUAGE_COOKIE, SUPPORTED_SCOPES } from './constants.js';
import type { ProviderKeys } from './keys.js';
import { findOrganizationChoice } from './organizationChoice.js';
import { errorPage, logoutDonePage, logoutPage, pickLanguage } from './pages.js';
import { passwordChangeGrant, PASSWORD_CHANGE_GRANT, PASSWORD_CHANGE_PARAMS } from './passwordChangeGrant.js';

export interface ProviderDeps {
  config: Config;
  db: Db;
  keys: ProviderKeys;
  log?: { error(obj: unknown, msg?: string): void; info(obj: unknown, msg?: string): void };
}

type Ctx = KoaContextWithOIDC;

function cookieLanguage(ctx: Ctx): string | undefined {
  return ctx.cookies.get(LANGUAGE_COOKIE) ?? undefined;
}

function languageOf(ctx: Ctx) {
  let uiLocales: unknown;
  try {
    uiLocales = ctx.oidc?.params?.ui_locales;
  } catch {
    uiLocales = undefined;
  }
  return pickLanguage(uiLocales, cookieLanguage(ctx), ctx.get('accept-language'));
}

const epochNow = () => Math.floor(Date.now() / 1000);

/**
 * Whether the end-session request carries an id_token_hint (oidc-provider has validated it by now: signature,
 * audience) naming the provider session's admin, or there is no signed-in admin: only then may its page submit itself.
 */
function hintedLogout(ctx: Ctx): boolean {
  const hint = (ctx.oidc.entities as { IdTokenHint?: { payload?: { sub?: unknown } } }).IdTokenHint;
  if (!hint?.payload) return false;
  const accountId = (ctx.oidc.session as unknown as { accountId?: string } | undefined)?.accountId;
  return accountId === undefined || hint.payload.sub === accountId;
}

export function createProvider({ config, db, keys, log }: ProviderDeps): Provider {
  const issuer = issuerOf(config);
  const audience = apiAudienceOf(config);
  const PayloadAdapter = createAdapterClass(db);
  // the organisation's API clients (issue 46) are found in api_clients, never in the payload table
  const Adapter = class extends PayloadAdapter {
    override find(id: string) {
      return this.model === 'Client' ? (findApiClientMetadata(db, id) as ReturnType<InstanceType<typeof PayloadAdapter>['find']>) : super.find(id);
    }
  };
  const secure = isSecureUrl(config.publicUrl);
  // the first key that may sign (key_ops ["verify"]: published for a coming rotation, not signing yet)
  const signingKid = keys.signing.find(canSign)?.kid;
  const resourceServerInfo = () => ({
    scope: API_SCOPES.join(' '),
    audience,
    accessTokenTTL: config.accessTokenTtl,
    accessTokenFormat: 'jwt' as const,
    // oidc-provider picks the key of JWT access tokens without regard to key_ops: name the one that signs
    jwt: { sign: { alg: 'RS256' as const, ...(signingKid ? { kid: signingKid } : {}) } },
  });
  /** An API client's tokens (issue 46): its own scopes, 15 minutes. */
  const apiClientResourceServerInfo = (clientScope: string | undefined) => ({ ...resourceServerInfo(), scope: clientScope ?? '', accessTokenTTL: API_CLIENT_TOKEN_TTL });

  const { Prompt, Check, base } = interactionPolicy;
  const policy = base();
  // Sign-in without the password only while the session is active: not older than SESSION_MAX_AGE, and either
  // recent or still holding a live refresh token (refreshed within SESSION_IDLE_TIMEOUT).
  policy.get('login')!.checks.add(
    new Check('session_ended', 'the session was idle or is too old', async (ctx) => {
      const { session, result, client } = ctx.oidc;
      // a resumed interaction passed this check at its start (the organisation choice then made a new grant)
      if (!session?.accountId || result) return Check.NO_NEED_TO_PROMPT;
      if (session.past(config.sessionMaxAge)) return Check.REQUEST_PROMPT;
      if (!session.past(config.sessionIdleTimeout)) return Check.NO_NEED_TO_PROMPT;
      const grantId = client ? session.grantIdFor(client.clientId) : undefined;
      return grantId && (await hasLiveRefreshToken(db, grantId)) ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
    }),
  );
  // Two steps asked for (acr_values, issue 29): oidc-provider checks none itself; a session signed in with a password
  // only signs in again, and the admin's second step comes after the password
  policy.get('login')!.checks.add(
    new Check('two_step_requested', 'the client asked for two-step sign-in', (ctx) => {
      const { session, result, params } = ctx.oidc;
      if (!session?.accountId || result) return Check.NO_NEED_TO_PROMPT;
      const wanted = String(params?.acr_values ?? '').split(' ');
      return wanted.includes(ACR.twoStep) && !(session.amr ?? []).includes('mfa') ? Check.REQUEST_PROMPT : Check.NO_NEED_TO_PROMPT;
    }),
  );
  // The organisation choice: requested on every authorisation until this interaction chose one.
  policy.add(
    new Prompt(
      { name: 'select_account', requestable: true },
      new Check('organization_not_chosen', 'the organisation to manage must be chosen', (ctx) =>
        ctx.oidc.result?.select_account ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    ),
    1,
  );

  const configuration: Configuration = {
    adapter: Adapter,
    clients: [
      {
        client_id: PORTAL_CLIENT_ID,
        client_name: 'Corporate Admin Portal',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token', PASSWORD_CHANGE_GRANT],
        response_types: ['code'],
        redirect_uris: [`${config.publicUrl}${CALLBACK_PATH}`],
        post_logout_redirect_uris: POST_LOGOUT_PATHS.map((path) => `${config.publicUrl}${path}`),
      },
    ],
    // none: the portal (public, PKCE); the organisation's API clients (issue 46): a secret, or a key they registered
    clientAuthMethods: ['none', 'client_secret_basic', 'private_key_jwt'],
    // the portal calls the token and revocation endpoints from its own origin only
    clientBasedCORS: (_ctx, origin) => origin === new URL(config.publicUrl).origin,
    responseTypes: ['code'],
    pkce: { methods: ['S256'], required: () => true },
    jwks: { keys: keys.signing as never },
    cookies: {
      keys: config.cookieKeys ?? keys.cookie,
      // portal and provider share one origin: lax cookies work over http too (SameSite=None needs https)
      long: { httpOnly: true, sameSite: 'lax', secure },
      short: { httpOnly: true, sameSite: 'lax', secure },
    },
    scopes: [...SUPPORTED_SCOPES, ...API_CLIENT_SCOPES],
    claims: {
      // amr and acr: how the admin signed in (RFC 8176) and its class, in the ID token too (issue 29)
      openid: ['sub', 'locale', 'amr', 'acr'],
      organization: ['glopla_id'],
      unique_access_token: [],
      auth_time: null,
      sid: null,
      iss: null,
      acr: null,
      amr: null,
    },
    // the ID token carries the claims of the granted scopes (glopla_id, locale), not only what `claims` asks for
    conformIdTokenClaims: false,
    extraParams: ['type', 'glopla_id', 'error_message_key'],
    acrValues: [ACR.password, ACR.twoStep],
    features: {
      devInteractions: { enabled: false },
      // the portal sends plain authorisation requests; fewer endpoints, less to defend
      pushedAuthorizationRequests: { enabled: false },
      revocation: { enabled: true },
      // the organisation's API clients (issue 46)
      clientCredentials: { enabled: true },
      userinfo: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, _form) {
          const session = ctx.oidc.session as unknown as { state?: { secret?: string } };
          ctx.type = 'html';
          const { urlFor } = ctx.oidc as unknown as { urlFor(name: string): string };
          ctx.body = logoutPage(languageOf(ctx), urlFor.call(ctx.oidc, 'end_session_confirm'), session.state?.secret ?? '', hintedLogout(ctx));
        },
        async postLogoutSuccessSource(ctx) {
          ctx.type = 'html';
          ctx.body = logoutDonePage(languageOf(ctx), config.publicUrl);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => audience,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource, client) => {
          if (resource !== audience) throw new errors.InvalidTarget();
          return isApiClientId(client?.clientId) ? apiClientResourceServerInfo(client.scope) : resourceServerInfo();
        },
      },
    },
    async findAccount(ctx, sub, token) {
      if (!/^\d+$/.test(sub)) return undefined;
      const admin = await findAdminById(db, Number(sub));
      if (!admin?.activatedAt) return undefined;
      return {
        accountId: sub,
        async claims() {
          const grantId = (token as { grantId?: string } | undefined)?.grantId ?? ctx.oidc.entities.Grant?.jti;
          const choice = grantId ? await findOrganizationChoice(Adapter, grantId) : undefined;
          return { sub, locale: admin.language, ...(choice ? { glopla_id: choice.gloplaId } : {}) };
        },
      };
    },
    async extraTokenClaims(ctx, token) {
      if (token.kind === 'ClientCredentials') return apiClientTokenClaims(db, ctx);
      if (token.kind !== 'AccessToken') return undefined;
      const { RefreshToken, AuthorizationCode } = ctx.oidc.entities;
      const authTime = RefreshToken?.authTime ?? AuthorizationCode?.authTime;
      // how the admin signed in (RFC 8176): the API decides two-step matters from this, never from the browser
      const amr = RefreshToken?.amr ?? AuthorizationCode?.amr;
      const grantId = (token as { grantId?: string }).grantId;
      const choice = grantId ? await findOrganizationChoice(Adapter, grantId) : undefined;
      // when the second step was last made: at the sign-in, or as the replaced session kept it (organizationChoice.ts)
      const mfaTime = choice?.secondStepAt ?? (amr?.includes('mfa') ? authTime : undefined);
      // the portal's pages hold a password-only session of such an organisation at Sign-in security (issue 44); the API
      // reads the rule itself on every call
      const twoStepRequired = choice ? await twoStepRule(db, choice.organizationId) : false;
      return {
        ...(twoStepRequired ? { two_step_required: true } : {}),
        ...(authTime !== undefined ? { auth_time: authTime } : {}),
        ...(amr !== undefined ? { amr } : {}),
        ...(mfaTime !== undefined ? { mfa_time: mfaTime } : {}),
        ...(choice ? { glopla_id: choice.gloplaId } : {}),
        // the connection a single-sign-on session came through (issue 45): require_sso is turned on from it alone
        ...(choice?.ssoConnectionId ? { sso_connection: choice.ssoConnectionId } : {}),
      };
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    // a client-credentials token without a scope asked for carries every scope of the client (issue 46)
    formats: {
      customizers: {
        jwt(ctx, token, jwt) {
          if (token.kind === 'ClientCredentials' && jwt.payload.scope === undefined) jwt.payload.scope = ctx.oidc.client?.scope;
          return jwt;
        },
      },
    },
    ttl: {
      AccessToken: config.accessTokenTtl,
      ClientCredentials: API_CLIENT_TOKEN_TTL,
      AuthorizationCode: 60,
      IdToken: 60 * 60,
      Interaction: 60 * 60,
      // sliding (each authorisation extends it) but never past SESSION_MAX_AGE after the password entry
      Session: (_ctx, session) => Math.max(1, Math.min(config.refreshTokenTtl, (session.loginTs ?? epochNow()) + config.sessionMaxAge - epochNow())),
      Grant: config.refreshTokenTtl,
      // SESSION_IDLE_TIMEOUT at most, never past SESSION_MAX_AGE after the password entry nor REFRESH_TOKEN_TTL after
      // the chain's first token (rotation carries iiat and authTime)
      RefreshToken: (_ctx, token) => {
        const now = epochNow();
        const chainEnd = (token.iiat ?? now) + config.refreshTokenTtl;
        const sessionEnd = (token.authTime ?? now) + config.sessionMaxAge;
        return Math.max(1, Math.min(config.sessionIdleTimeout, chainEnd - now, sessionEnd - now));
      },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${ISSUER_PATH}/interaction/${interaction.uid}`,
    },
    async renderError(ctx, out, error) {
      ctx.type = 'html';
      const expired = error instanceof errors.SessionNotFound || error instanceof errors.InvalidRequest;
      ctx.body = errorPage(languageOf(ctx), config.publicUrl, expired ? 'expired' : 'generic', out.error_description ?? out.error);
    },
  };

  const provider = new Provider(issuer, configuration);
  /** Token requests during which the provider revoked a grant: a refresh token or code presented again. */
  const revokedOnReuse = new WeakSet<object>();
  provider.proxy = config.trustProxy !== false;
  // The app speaks plain HTTP behind a TLS proxy: with an https PUBLIC_URL the public scheme is https whatever the
  // last hop was (and whether or not its X-Forwarded-Proto is trusted), so Koa may set Secure cookies and builds
  // https endpoint URLs.
  if (secure) {
    provider.use(async (ctx, next) => {
      Object.defineProperty(ctx.request, 'protocol', { value: 'https' });
      await next();
    });
  }

  // an API client's secret is compared with its stored hashes, read again (a rotation's overlap; issue 46)
  const compareClientSecret = provider.Client.prototype.compareClientSecret;
  provider.Client.prototype.compareClientSecret = function compare(this: InstanceType<Provider['Client']>, actual: string) {
    return isApiClientId(this.clientId) ? apiClientSecretMatches(db, this.clientId, actual) : compareClientSecret.call(this, actual);
  };

  provider.registerGrantType(PASSWORD_CHANGE_GRANT, passwordChangeGrant({ Adapter, audience, resourceServerInfo }), PASSWORD_CHANGE_PARAMS);

  // Without a provider session, end-session answers with oidc-provider's own auto-submitting page (an inline script
  // allowed by a hash): ours instead, submitted by the external script only with a valid id_token_hint.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as Ctx).oidc;
    if (oidc?.route !== 'end_session' || ctx.method !== 'GET' || ctx.status !== 200 || typeof ctx.body !== 'string' || !ctx.body.includes('Submitting Callback')) return;
    const state = (oidc.session as unknown as { state?: { secret?: string } }).state;
    const { urlFor } = oidc as unknown as { urlFor(name: string): string };
    ctx.body = logoutPage(languageOf(ctx as unknown as Ctx), urlFor.call(oidc, 'end_session_confirm'), state?.secret ?? '', hintedLogout(ctx as unknown as Ctx));
    ctx.set('Content-Security-Policy', String(ctx.response.get('Content-Security-Policy')).replace(/ 'sha256-[^']+'/g, ''));
  });

  // Logout ends the admin's access tokens too (they are JWTs the API verifies locally: finding 3 of issue 7).
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as Ctx).oidc;
    if (oidc?.route !== 'end_session_confirm' || ctx.status !== 303) return;
    const accountId = (oidc.session as unknown as { accountId?: string } | undefined)?.accountId;
    if (accountId && /^\d+$/.test(accountId)) await endAdminTokens(db, Number(accountId));
  });

  // A refresh token or code used twice has leaked: oidc-provider revokes its grant (its refresh tokens), but the access
  // tokens already minted are JWTs the API verifies locally, so they end the way a logout ends them (issue 25
  // finding 8). The whole current second too: the thief's token may have been minted in it. The admin's other
  // sessions lose only their current access token; their refresh tokens still work.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as Ctx).oidc;
    if (oidc?.route !== 'token' || ctx.status !== 400 || !revokedOnReuse.has(ctx)) return;
    const { RefreshToken, AuthorizationCode } = oidc.entities;
    const accountId = RefreshToken?.accountId ?? AuthorizationCode?.accountId;
    if (accountId && /^\d+$/.test(accountId)) await endAdminTokens(db, Number(accountId), Date.now() + 1000);
  });
  provider.on('grant.revoked', (ctx: Ctx) => {
    if (ctx.oidc?.route === 'token') revokedOnReuse.add(ctx);
  });

  // SPEC §3 Session: the token response also says when it was made and how long the refresh token lives.
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as unknown as Ctx).oidc;
    if (oidc?.route !== 'token' || ctx.status !== 200) return;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || typeof body.access_token !== 'string') return;
    const now = epochNow();
    body.created_at = oidc.entities.AccessToken?.iat ?? oidc.entities.ClientCredentials?.iat ?? now;
    // the scope the token carries (the customizer's above when none was asked for)
    if (oidc.entities.ClientCredentials && body.scope === undefined) body.scope = oidc.client?.scope;
    const refreshToken = oidc.entities.RefreshToken;
    if (typeof body.refresh_token === 'string' && refreshToken) body.refresh_token_expires_in = Math.max(0, refreshToken.remainingTTL);
  });

  provider.on('server_error', (_ctx: Ctx, error: Error) => log?.error({ err: error }, 'identity provider: server error'));
  for (const event of ['grant.error', 'authorization.error', 'end_session.error', 'revocation.error']) {
    provider.on(event, (_ctx: Ctx, error: Error) => log?.info({ err: error }, `identity provider: ${event}`));
  }
  return provider;
}

/** The request as oidc-provider expects it when mounted under ISSUER_PATH (see index.ts). */
export function rewriteForMount(raw: IncomingMessage & { originalUrl?: string }): void {
  const url = raw.url ?? '/';
  raw.originalUrl = url;
  const rest = url.slice(ISSUER_PATH.length);
  raw.url = rest.startsWith('/') ? rest : `/${rest}`;
}
