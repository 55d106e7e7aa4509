/**
 * The provider's interaction pages (oidc-provider's devInteractions are off): the password sign-in and the
 * organisation choice ("Select Your Organization"), under /oidc/interaction/:uid, plus the pages' assets.
 *
 * Sign-in: only activated admins, argon2id; attempts are counted before the password is checked, per account and
 * client address, per address and per account (signinThrottle.ts), slowed and then refused for a while. After the
 * password the organisation is chosen at once when it can be: the requested glopla_id when the admin belongs to it,
 * or the only affiliation; otherwise the choice page lists every affiliated organisation. prompt=select_account
 * always shows the list (when there is more than one). An admin without any affiliation ends the interaction and is
 * sent to the portal's /signin?error_message_key=no_organization_affiliation.
 *
 * Two-step sign-in (issue 29): after the right password, an admin with a second factor is sent to
 * /oidc/interaction/:uid/two_step for a passkey, a code of the app or a recovery code (codes counted with the password's
 * attempts); only then is the sign-in made, its `amr` saying how (pwd, otp or hwk, mfa). 'Sign in with a passkey'
 * (/oidc/interaction/:uid/passkey) signs in with a discoverable passkey alone (hwk, user, mfa).
 *
 * Single sign-on (issue 45, OpenID Connect): 'Continue with single sign-on' (the form's second button), or 'Sign in' with
 * no password (home-realm discovery: the page's script hides the password and reads 'Continue' once /realm says the
 * domain signs in through single sign-on), sends an address at a verified domain whose connection is on to its IdP (federation.ts); the IdP answers at /oidc/federation/callback,
 * which goes back to /oidc/interaction/:uid/federation (the interaction's cookie: the same browser), and the sign-in is
 * made for the connection's organisation with amr fed (and mfa when the connection trusts the IdP's second factor).
 * A SAML connection's address goes to its IdP with a signed AuthnRequest whose RelayState names the interaction; the
 * answer is POSTed cross-site to /saml/:connectionId/acs (none of the portal's SameSite=Lax cookies come with it), checked
 * there (serviceProvider.ts), and the browser goes back to /oidc/interaction/:uid/saml with a one-time key to what was
 * asserted: the same sign-in as OpenID Connect's (federatedSignIn).
 * A connection may create members just in time (an address no admin has becomes a member of its organisation:
 * federation.ts federatedAdmin) and, for SAML, take the IdP's unsolicited answers (IdP-initiated): the ACS checks such
 * an answer as any other, keeps what it asserted for a few minutes under a one-time key in an httpOnly SameSite=Lax
 * cookie and sends the browser to the portal's /signin, whose authorisation request opens an interaction; its first
 * page takes the key once and makes the sign-in (there is no interaction before the portal's pages ask for one).
 * Addresses at a domain that requires single sign-on are refused the password and passkeys.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { ISSUER_PATH, SIGNIN_ERROR, SIGNIN_ROUTE } from '../../common/identity.js';
import { isLanguage, type Language } from '../../common/languages.js';
import type { Affiliation } from '../../common/api/answers.js';
import { DEMO_PASSWORD } from '../db/seed/demoData.js';
import { activateByFederatedSignIn } from '../domain/accountTokens.js';
import { affiliationsOfAdmin, authenticateAdmin, findAdminById, normalizeEmail } from '../domain/admins.js';
import { recordSignIn } from '../domain/memberships.js';
import { tellOfSecurityEvent, type SecurityEvent } from '../domain/securityMails.js';
import { beginAttempt, minutesUntil, recordSuccess } from '../domain/signinThrottle.js';
import { hitRateLimit } from '../domain/rateLimits.js';
import { credentialOf, signInOptions, verifySignIn } from '../domain/passkeys.js';
import { hasSecondFactor, twoStepState, verifySecondStep } from '../domain/twoStep.js';
import { ACR, API_SCOPES, isSecureUrl, LANGUAGE_COOKIE, SUPPORTED_SCOPES } from './constants.js';
import { saveOrganizationChoice } from './organizationChoice.js';
import { deletePendingSecondStep, findPendingSecondStep, savePendingSecondStep, type PendingSecondStep } from './secondStep.js';
import { ASSETS_PATH, errorPage, organizationPage, passkeyPage, pickLanguage, secondStepPage, signinPage, toIdentityProviderPage } from './pages.js';
import { controlCharacterError, formHasControlCharacter } from '../api/controlCharacters.js';
import { actingAs } from '../api/audit.js';
import type { AuditTrail } from '../domain/audit.js';
import {
  activeConnection,
  beginFederation,
  completeFederation,
  configurationOf,
  FEDERATION_CALLBACK_PATH,
  federatedAdmin,
  homeRealmOf,
  takePayload,
  takePendingFederation,
  usableOidc,
  usableSaml,
  type FederatedIdentity,
  type FederationConnection,
} from './federation.js';
import { newRelayState, samlServiceProvider, type AcsIdentity } from '../saml/serviceProvider.js';
import { CONNECTION_TEST_PATH, connectionTestAnswer, connectionTestRoutes, isConnectionTestState } from './connectionTest.js';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;
type AdapterClass = new (model: string) => import('oidc-provider').Adapter;

export interface InteractionDeps {
  provider: Provider;
  Adapter: AdapterClass;
  audience: string;
  grantTtl: number;
}

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
/** The WebAuthn browser library's own browser bundle (its package exports no path to it: found beside its main file). */
const WEBAUTHN_BUNDLE = path.join(path.dirname(createRequire(import.meta.url).resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js');
const SCRIPT = 'text/javascript; charset=utf-8';
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'signin.css': { type: 'text/css; charset=utf-8', body: readFileSync(path.join(ASSETS_DIR, 'signin.css')) },
  'logout.js': { type: SCRIPT, body: readFileSync(path.join(ASSETS_DIR, 'logout.js')) },
  'passkey.js': { type: SCRIPT, body: readFileSync(path.join(ASSETS_DIR, 'passkey.js')) },
  'signin.js': { type: SCRIPT, body: readFileSync(path.join(ASSETS_DIR, 'signin.js')) },
  'webauthn.js': { type: SCRIPT, body: readFileSync(WEBAUTHN_BUNDLE) },
};

/** The adapter's models of a SAML sign-in: the request by its RelayState, and what the ACS accepted by a one-time key. */
const SAML_REQUEST_MODEL = 'SamlFederationRequest';
const SAML_RESULT_MODEL = 'SamlFederationResult';
const SAML_TTL_SECONDS = 10 * 60;
/** An IdP-initiated answer the ACS accepted, awaiting the interaction /signin opens: its model, cookie and lifetime. */
const IDP_INITIATED_MODEL = 'SamlIdpInitiatedResult';
const IDP_INITIATED_COOKIE = 'sso_idp_initiated';
const IDP_INITIATED_TTL_SECONDS = 5 * 60;
/** The home-realm lookups a client address may make per failed sign-in its limit allows (SIGNIN_MAX_ADDRESS_FAILURES). */
const REALM_LOOKUPS_PER_FAILURE = 5;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The ACS's form (a signed response, base64: MAX_RESPONSE_BYTES decoded, and RelayState). */
const ACS_BODY_LIMIT = 512 * 1024;

/** What the ACS accepted, for the interaction it goes back to (an IdP-initiated answer has none yet). */
interface SamlAsserted {
  interactionUid?: string;
  connectionId: string;
  email: string;
  multiFactor: boolean;
  familyName?: string;
  givenName?: string;
}

/** A connection a sign-in may go to now (either protocol). */
const signsInThroughIdp = (connection: FederationConnection | undefined) => usableOidc(connection) || usableSaml(connection);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const epochNow = () => Math.floor(Date.now() / 1000);

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** ?lang= (the page's language switch) > ui_locales > the remembered language > Accept-Language > ja. */
function languageFor(request: FastifyRequest, interaction: Interaction | undefined): { language: Language; explicit: boolean } {
  const query = (request.query ?? {}) as Record<string, unknown>;
  if (isLanguage(query.lang)) return { language: query.lang, explicit: true };
  return {
    language: pickLanguage(interaction?.params.ui_locales, cookieValue(request, LANGUAGE_COOKIE), request.headers['accept-language']),
    explicit: false,
  };
}

function rememberLanguage(reply: FastifyReply, language: Language, secure: boolean): void {
  reply.header('set-cookie', `${LANGUAGE_COOKIE}=${language}; Path=${ISSUER_PATH}; Max-Age=31536000; SameSite=Lax; HttpOnly${secure ? '; Secure' : ''}`);
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
}

export const interactionRoutes =
  (deps: InteractionDeps): FastifyPluginAsync =>
  async (app) => {
    const { provider, Adapter, audience, grantTtl } = deps;
    const { config, db } = app;
    const throttle = config.signinThrottle;
    const secretKeys = { db, configuredKeys: config.secretKeys };
    const relyingParty = { db, publicUrl: config.publicUrl };
    const mailDeps = { db, mailer: app.mailer, publicUrl: config.publicUrl };
    const serviceProvider = samlServiceProvider(db, { publicUrl: config.publicUrl, allowLoopback: config.demo, allowPrivate: config.sso.allowPrivateAddresses, mfaContexts: config.sso.mfaContexts });

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      const fields = new URLSearchParams(body as string);
      if (formHasControlCharacter(fields)) return done(controlCharacterError('form'), undefined);
      done(null, Object.fromEntries(fields));
    });

    app.get<{ Params: { name: string } }>(`${ASSETS_PATH}/:name`, async (request, reply) => {
      const asset = ASSETS[request.params.name];
      if (!asset) return reply.code(404).send({ error: 'not_found' });
      return reply.header('content-type', asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
    });

    async function details(request: FastifyRequest, reply: FastifyReply, uid: string): Promise<Interaction | undefined> {
      try {
        const interaction = await provider.interactionDetails(request.raw, reply.raw);
        return interaction.uid === uid ? interaction : undefined;
      } catch {
        return undefined;
      }
    }

    function expired(request: FastifyRequest, reply: FastifyReply): FastifyReply {
      return html(reply, 400, errorPage(languageFor(request, undefined).language, config.publicUrl, 'expired'));
    }

    const interactionPath = (uid: string) => `${ISSUER_PATH}/interaction/${encodeURIComponent(uid)}`;
    const withLanguage = (url: string, language: Language, explicit: boolean) => (explicit ? `${url}?lang=${language}` : url);

    function renderSignin(
      reply: FastifyReply,
      interaction: Interaction,
      language: Language,
      explicit: boolean,
      status = 200,
      extra: Pick<Parameters<typeof signinPage>[0], 'email' | 'error'> = {},
    ): FastifyReply {
      const messageKey = interaction.params.error_message_key;
      return html(
        reply,
        status,
        signinPage({
          language,
          action: withLanguage(`${interactionPath(interaction.uid)}/login`, language, explicit),
          realmUrl: `${interactionPath(interaction.uid)}/realm`,
          publicUrl: config.publicUrl,
          messageKey: typeof messageKey === 'string' && /^[a-z_]{1,64}$/.test(messageKey) ? messageKey : undefined,
          passkeyUrl: withLanguage(`${interactionPath(interaction.uid)}/passkey`, language, explicit),
          languageLink: (other) => `${interactionPath(interaction.uid)}?lang=${other}`,
          ...extra,
        }),
      );
    }

    /**
     * A new grant of the requested scopes for the chosen organisation, a sign-in for it (recordSignIn); returns its id.
     * A sign-in through single sign-on keeps its connection with the grant, and the trail's entry names it.
     */
    async function grantFor(
      request: FastifyRequest,
      interaction: Interaction,
      accountId: string,
      affiliation: Affiliation,
      federated?: { connection: FederationConnection; activated: boolean },
    ): Promise<string> {
      const requested = String(interaction.params.scope ?? '')
        .split(' ')
        .filter((scope) => (SUPPORTED_SCOPES as readonly string[]).includes(scope));
      const grant = new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
      grant.addOIDCScope(requested.join(' '));
      const apiScopes = requested.filter((scope) => (API_SCOPES as readonly string[]).includes(scope));
      if (apiScopes.length > 0) grant.addResourceScope(audience, apiScopes.join(' '));
      const grantId = await grant.save();
      const choice = { organizationId: affiliation.organization.id, gloplaId: affiliation.organization.gloplaId, ...(federated ? { ssoConnectionId: federated.connection.id } : {}) };
      await saveOrganizationChoice(Adapter, grantId, accountId, choice, grantTtl);
      // the trail of the chosen organisation only (the session is for it alone)
      const { organization, admin } = affiliation;
      const trail = actingAs(request, Number(accountId), organization.id);
      await recordSignIn(db, { id: Number(accountId), email: admin.email }, organization.id, federated ? namingConnection(trail, federated) : trail);
      return grantId;
    }

    /** The trail's sign-in entry naming the connection it came through (and an invited admin activated by it). */
    function namingConnection(trail: AuditTrail, federated: { connection: FederationConnection; activated: boolean }): AuditTrail {
      const changes = {
        ssoConnection: { before: null, after: `${federated.connection.name} (${federated.connection.id})` },
        ...(federated.activated ? { activated: { before: false, after: true } } : {}),
      };
      return {
        record: (trx, entry) => trail.record(trx, { ...entry, changes: { ...entry.changes, ...changes } }),
        recordWrite: (db, write, entry) => trail.recordWrite(db, write, { ...entry, changes: { ...entry.changes, ...changes } }),
      };
    }

    /** The organisation to take without asking, if any. */
    function automaticChoice(interaction: Interaction, affiliations: Affiliation[]): Affiliation | undefined {
      const prompts = String(interaction.params.prompt ?? '').split(' ');
      if (affiliations.length === 1) return affiliations[0];
      if (prompts.includes('select_account')) return undefined;
      const requested = interaction.params.glopla_id;
      return typeof requested === 'string' ? affiliations.find((affiliation) => affiliation.organization.gloplaId === requested) : undefined;
    }

    /** No affiliation: the interaction ends without signing in and the portal shows why. */
    async function withoutOrganization(reply: FastifyReply, interaction: Interaction): Promise<FastifyReply> {
      await interaction.destroy();
      return reply.redirect(`${config.publicUrl}${SIGNIN_ROUTE}?error_message_key=${SIGNIN_ERROR.noOrganizationAffiliation}`, 303);
    }

    async function finish(request: FastifyRequest, reply: FastifyReply, result: Record<string, unknown>, merge: boolean): Promise<FastifyReply> {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: merge });
      return reply.redirect(returnTo, 303);
    }

    async function chooseOrganization(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
      accountId: string,
      language: Language,
      explicit: boolean,
      status = 200,
    ): Promise<FastifyReply> {
      const affiliations = await affiliationsOfAdmin(db, Number(accountId));
      if (affiliations.length === 0) return withoutOrganization(reply, interaction);
      const chosen = automaticChoice(interaction, affiliations);
      if (chosen) {
        const grantId = await grantFor(request, interaction, accountId, chosen);
        return finish(request, reply, { select_account: { organizationId: chosen.organization.id }, consent: { grantId } }, true);
      }
      return html(
        reply,
        status,
        organizationPage({
          language,
          action: withLanguage(`${interactionPath(interaction.uid)}/organization`, language, explicit),
          organizations: affiliations.map(({ organization }) => organization),
          otherAccountUrl: `${config.publicUrl}${SIGNIN_ROUTE}?prompt=login`,
          languageLink: (other) => `${interactionPath(interaction.uid)}?lang=${other}`,
        }),
      );
    }

    // a signed-in session's organisation may be chosen here at once (glopla_id, a single affiliation): a sign-in for it;
    // an IdP-initiated SAML answer the ACS accepted for this browser signs in here (its cookie), whatever the prompt
    app.get<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid`, { config: { audit: ['signIn.succeeded', 'membership.provisioned'] } }, async (request, reply) => {
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction) return expired(request, reply);
      const { language, explicit } = languageFor(request, interaction);
      rememberLanguage(reply, language, isSecureUrl(config.publicUrl));
      const accountId = interaction.session?.accountId;
      const idpInitiatedKey = cookieValue(request, IDP_INITIATED_COOKIE);
      switch (interaction.prompt.name) {
        case 'login':
          if (idpInitiatedKey !== undefined) return idpInitiatedSignIn(request, reply, interaction, idpInitiatedKey, language);
          return renderSignin(reply, interaction, language, explicit);
        case 'select_account':
        case 'consent':
          if (!accountId) return expired(request, reply);
          // a browser already signed in here: the answer still signs in (the same admin through the connection; another
          // admin's answer ends this session first, oidc-provider's own logout), never left to a later sign-in
          if (idpInitiatedKey !== undefined) return idpInitiatedSignIn(request, reply, interaction, idpInitiatedKey, language);
          return chooseOrganization(request, reply, interaction, accountId, language, explicit);
        default:
          return html(reply, 400, errorPage(language, config.publicUrl, 'generic', `unsupported prompt ${interaction.prompt.name}`));
      }
    });

    /**
     * An account locked by this failure: every organisation the admin with that e-mail signed in to learns it (none when
     * unknown). No actor: whoever typed the passwords is not signed in, and need not be the admin.
     */
    async function recordLock(request: FastifyRequest, email: string, lockedUntil: Date, kind: 'signInLocked' | 'secondStepLocked'): Promise<void> {
      const admin = await db.selectFrom('admins').select(['id', 'email']).where('email', '=', normalizeEmail(email)).executeTakeFirst();
      if (!admin) return;
      const changes = { lockedUntil: { before: null, after: lockedUntil.toISOString() } };
      await actingAs(request, null).record(db, { action: 'signIn.locked', target: { type: 'admin', id: admin.id, label: admin.email }, changes });
      mail(request, admin.id, { kind, minutes: minutesUntil(lockedUntil) });
    }

    /** Tells the admin of a security event by mail (issue 44 finding 9); never holds up nor fails the page. */
    const mail = (request: FastifyRequest, adminId: number, event: SecurityEvent) => void tellOfSecurityEvent(mailDeps, request.log, adminId, event);

    app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${ISSUER_PATH}/interaction/:uid/login`, { config: { audit: ['signIn.succeeded', 'signIn.locked'] } }, async (request, reply) => {
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction || interaction.prompt.name !== 'login') return expired(request, reply);
      const { language, explicit } = languageFor(request, interaction);
      const body = request.body ?? {};
      const email = typeof body.email === 'string' ? body.email.trim() : '';
      const password = typeof body.password === 'string' ? body.password : '';
      const realm = email === '' ? undefined : await homeRealmOf(db, email);
      if (body.sso !== undefined) return toIdentityProvider(request, reply, interaction, email, realm?.connection, language, explicit);
      // home-realm discovery: an address whose domain signs in through single sign-on, and no password, goes to its IdP
      if (password === '' && signsInThroughIdp(realm?.connection)) return toIdentityProvider(request, reply, interaction, email, realm?.connection, language, explicit);
      if (email === '' || password === '') return renderSignin(reply, interaction, language, explicit, 400, { email, error: { kind: 'required' } });
      // the domain's rule, not the account's: the answer tells nothing of whether the address has an account
      if (realm?.requireSso) {
        request.log.info({ event: 'signin_sso_required' }, 'sign-in refused: the domain requires single sign-on');
        return renderSignin(reply, interaction, language, explicit, 403, { email, error: { kind: 'ssoRequired' } });
      }

      const keys = { account: normalizeEmail(email).slice(0, 200), address: request.ip };
      const locked = (until: Date) => renderSignin(reply, interaction, language, explicit, 429, { email, error: { kind: 'locked', minutes: minutesUntil(until) } });
      // counted before the password is checked: parallel guesses cannot pass the limit
      const attempt = await beginAttempt(db, keys, throttle);
      if (!attempt.allowed) {
        request.log.info({ event: 'signin_refused' }, 'sign-in refused: too many attempts');
        app.metrics.signins.inc({ outcome: 'locked' });
        return locked(attempt.lockedUntil ?? new Date());
      }

      // outside demo mode the published demo password opens no account (a database seeded for a demo and deployed);
      // checked after the password, so the answer takes the same time
      const verified = await authenticateAdmin(db, email, password);
      const admin = !config.demo && password === DEMO_PASSWORD ? undefined : verified;
      if (!admin) {
        request.log.info({ event: 'signin_failed' }, 'sign-in failed: wrong e-mail or password');
        app.metrics.signins.inc({ outcome: 'failed' });
        if (attempt.failureDelayMs > 0) await sleep(attempt.failureDelayMs);
        if (attempt.lockedUntil) {
          await recordLock(request, email, attempt.lockedUntil, 'signInLocked');
          return locked(attempt.lockedUntil);
        }
        return renderSignin(reply, interaction, language, explicit, 401, { email, error: { kind: 'invalid' } });
      }
      if (await hasSecondFactor(db, admin.id)) {
        // the password is right: the code comes next, on this interaction only. The attempt stays counted until the
        // second step succeeds, or the password could clear the count of the codes guessed after it
        await savePendingSecondStep(Adapter, interaction.uid, { accountId: String(admin.id), passwordAt: epochNow() });
        return reply.redirect(withLanguage(`${interactionPath(interaction.uid)}/two_step`, language, explicit), 303);
      }
      await recordSuccess(db, keys);
      app.metrics.signins.inc({ outcome: 'succeeded' });
      return signedIn(request, reply, interaction, { accountId: String(admin.id), ts: epochNow(), amr: ['pwd'] });
    });

    /**
     * The page's script asks, as the e-mail is typed, whether its domain signs in through single sign-on (and requires
     * it): the domain's rule only, which the sign-in's answers already show, never whether the address has an account.
     * Counted per client address against the sign-in's own address limit, five lookups a failure (a page asks once a domain).
     */
    app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(`${ISSUER_PATH}/interaction/:uid/realm`, { config: { audit: [] } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction || interaction.prompt.name !== 'login') return reply.code(400).send({ error: 'expired' });
      const limit = await hitRateLimit(db, `realm:${request.ip}`, { limit: throttle.maxAddressFailures * REALM_LOOKUPS_PER_FAILURE, windowSeconds: throttle.lockoutSeconds });
      if (!limit.allowed) {
        app.metrics.rateLimitRefusals.inc({ limit: 'home_realm' });
        return reply.code(429).header('retry-after', String(limit.retryAfterSeconds)).send({ error: 'too_many_requests' });
      }
      const email = typeof request.body?.email === 'string' ? request.body.email.trim() : '';
      const realm = email === '' ? undefined : await homeRealmOf(db, email);
      return reply.send({ sso: signsInThroughIdp(realm?.connection), required: realm?.requireSso === true });
    });

    /** 'Continue with single sign-on' (or 'Sign in' with no password): the IdP of the address's verified domain, when its connection is on. */
    async function toIdentityProvider(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
      email: string,
      connection: FederationConnection | undefined,
      language: Language,
      explicit: boolean,
    ) {
      if (email === '') return renderSignin(reply, interaction, language, explicit, 400, { error: { kind: 'ssoEmailRequired' } });
      if (usableSaml(connection)) return toSamlIdentityProvider(request, reply, interaction, connection, language);
      if (!usableOidc(connection)) return renderSignin(reply, interaction, language, explicit, 400, { email, error: { kind: 'ssoUnavailable' } });
      try {
        const configuration = await configurationOf(secretKeys, connection, config.demo);
        const redirectUri = `${config.publicUrl}${FEDERATION_CALLBACK_PATH}`;
        const url = await beginFederation(db, Adapter, { configuration, connectionId: connection.id, interactionUid: interaction.uid, redirectUri, loginHint: email });
        return html(reply, 200, toIdentityProviderPage(language, url.href));
      } catch (error) {
        request.log.warn({ event: 'signin_federation_failed', err: error }, 'single sign-on could not start');
        return html(reply, 502, errorPage(language, config.publicUrl, 'federation'));
      }
    }

    /**
     * A SAML connection: a signed AuthnRequest; its RelayState names the interaction (kept server-side 10 minutes, taken
     * once at the ACS), as the cross-site POST of the answer brings none of the portal's cookies.
     */
    async function toSamlIdentityProvider(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, connection: FederationConnection, language: Language) {
      try {
        const relayState = newRelayState();
        await new Adapter(SAML_REQUEST_MODEL).upsert(relayState, { interactionUid: interaction.uid, connectionId: connection.id } as never, SAML_TTL_SECONDS);
        return html(reply, 200, toIdentityProviderPage(language, await serviceProvider.authnRequestUrl(connection, relayState)));
      } catch (error) {
        request.log.warn({ event: 'signin_federation_failed', err: error }, 'single sign-on could not start');
        return html(reply, 502, errorPage(language, config.publicUrl, 'federation'));
      }
    }

    // the SAML answer (the ACS a connection registers), POSTed cross-site: checked here, then the browser goes back to
    // the interaction (a same-site step: its cookie shows it is the same browser) with a one-time key to what was asserted
    await app.register(async (scope) => {
      // a form too large or unreadable is refused with the page, as any other answer the ACS refuses
      scope.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
        request.log.info({ event: 'signin_federation_refused', reason: error.message }, 'single sign-on refused');
        const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
        return html(reply, status, errorPage(languageFor(request, undefined).language, config.publicUrl, 'federation'));
      });
      scope.removeContentTypeParser('application/x-www-form-urlencoded');
      scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT }, (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });
      scope.post<{ Params: { connectionId: string } }>('/saml/:connectionId/acs', { bodyLimit: ACS_BODY_LIMIT, config: { audit: [] } }, async (request, reply) => {
        const body = (request.body ?? {}) as Record<string, unknown>;
        const refused = (reason: string) => {
          request.log.info({ event: 'signin_federation_refused', reason }, 'single sign-on refused');
          app.metrics.signins.inc({ outcome: 'failed' });
          return html(reply, 400, errorPage(languageFor(request, undefined).language, config.publicUrl, 'federation'));
        };
        const connectionId = request.params.connectionId.toLowerCase();
        const relayState = typeof body.RelayState === 'string' ? body.RelayState : '';
        // a manager's 'Test connection' (connectionTest.ts): checked the same way, then its result page, no sign-in
        const tested = await connectionTestAnswer({ db, Adapter, serviceProvider }, { connectionId, relayState, body });
        if (tested) return reply.redirect(tested, 303);
        // taken once whatever follows: a replayed answer finds nothing
        const pending = await takePayload(db, SAML_REQUEST_MODEL, relayState);
        if (!pending || typeof pending.interactionUid !== 'string') return unsolicitedAnswer(request, reply, connectionId, body, refused);
        if (pending.connectionId !== connectionId) return refused('answer for another connection');
        try {
          const connection = await activeConnection(db, connectionId);
          if (!usableSaml(connection)) return refused('connection not on');
          const result = await serviceProvider.validateAcsPost(connection, body);
          if (!result.ok) return refused(`${result.refusal}${result.detail ? `: ${result.detail}` : ''}`);
          const key = newRelayState();
          const asserted: SamlAsserted = { interactionUid: pending.interactionUid, connectionId, ...assertedBy(result) };
          await new Adapter(SAML_RESULT_MODEL).upsert(key, { ...asserted } as never, SAML_TTL_SECONDS);
          return reply.redirect(`${interactionPath(pending.interactionUid)}/saml?key=${key}`, 303);
        } catch (error) {
          return refused(error instanceof Error ? error.message : String(error));
        }
      });
    });

    /** What the ACS keeps of a checked answer for the sign-in. */
    const assertedBy = (result: AcsIdentity) => ({
      email: result.email,
      multiFactor: result.mfa,
      ...(result.familyName ? { familyName: result.familyName } : {}),
      ...(result.givenName ? { givenName: result.givenName } : {}),
    });

    /**
     * An answer naming no request of this portal's: refused as an expired request unless the connection takes
     * IdP-initiated sign-ins; then checked (every check but the request's), kept under a one-time key in the browser's
     * cookie, and the browser sent to the portal's sign-in, whose interaction takes it (idpInitiatedSignIn).
     */
    async function unsolicitedAnswer(request: FastifyRequest, reply: FastifyReply, connectionId: string, body: Record<string, unknown>, refused: (reason: string) => FastifyReply) {
      const connection = UUID.test(connectionId) ? await activeConnection(db, connectionId) : undefined;
      if (!usableSaml(connection) || !connection.idpInitiated) return expired(request, reply);
      const result = await serviceProvider.validateAcsPost(connection, body, { unsolicited: true });
      if (!result.ok) return refused(`idp-initiated: ${result.refusal}${result.detail ? `: ${result.detail}` : ''}`);
      const key = newRelayState();
      const asserted: SamlAsserted = { connectionId, ...assertedBy(result) };
      await new Adapter(IDP_INITIATED_MODEL).upsert(key, { ...asserted } as never, IDP_INITIATED_TTL_SECONDS);
      reply.header('set-cookie', idpInitiatedCookie(key, IDP_INITIATED_TTL_SECONDS));
      return reply.redirect(`${config.publicUrl}${SIGNIN_ROUTE}`, 303);
    }

    /** The cookie of an IdP-initiated answer's key: httpOnly, SameSite=Lax (the ACS's redirect and the SPA's navigation bring it), the interactions' path only. */
    const idpInitiatedCookie = (key: string, maxAge: number) =>
      `${IDP_INITIATED_COOKIE}=${key}; Path=${ISSUER_PATH}/interaction; Max-Age=${maxAge}; SameSite=Lax; HttpOnly${isSecureUrl(config.publicUrl) ? '; Secure' : ''}`;

    /** The sign-in of an IdP-initiated answer, its key taken once (the cookie cleared whatever follows). */
    async function idpInitiatedSignIn(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, key: string, language: Language) {
      reply.header('set-cookie', idpInitiatedCookie('', 0));
      const refused = federationRefused(request, reply, language);
      const asserted = (await takePayload(db, IDP_INITIATED_MODEL, key)) as Partial<SamlAsserted> | undefined;
      if (!asserted || typeof asserted.connectionId !== 'string' || typeof asserted.email !== 'string') return refused('idp-initiated answer used or expired');
      try {
        const connection = await activeConnection(db, asserted.connectionId);
        if (!usableSaml(connection) || !connection.idpInitiated) return refused('connection not on, or no longer taking IdP-initiated sign-ins');
        return await federatedSignIn(request, reply, interaction, connection, identityOf(asserted as SamlAsserted), refused);
      } catch (error) {
        return refused(error);
      }
    }

    /** The identity the ACS kept. */
    const identityOf = (asserted: SamlAsserted): FederatedIdentity => ({
      email: asserted.email,
      multiFactor: asserted.multiFactor === true,
      ...(typeof asserted.familyName === 'string' ? { familyName: asserted.familyName } : {}),
      ...(typeof asserted.givenName === 'string' ? { givenName: asserted.givenName } : {}),
    });

    app.get<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid/saml`, { config: { audit: ['signIn.succeeded', 'membership.provisioned'] } }, async (request, reply) => {
      const interaction = await details(request, reply, request.params.uid);
      const query = (request.query ?? {}) as Record<string, unknown>;
      const asserted = interaction && interaction.prompt.name === 'login' && typeof query.key === 'string' ? ((await takePayload(db, SAML_RESULT_MODEL, query.key)) as Partial<SamlAsserted> | undefined) : undefined;
      if (!interaction || !asserted || asserted.interactionUid !== interaction.uid || typeof asserted.connectionId !== 'string' || typeof asserted.email !== 'string') return expired(request, reply);
      const refused = federationRefused(request, reply, languageFor(request, interaction).language);
      try {
        const connection = await activeConnection(db, asserted.connectionId);
        if (!usableSaml(connection)) return refused('connection not on');
        return await federatedSignIn(request, reply, interaction, connection, identityOf(asserted as SamlAsserted), refused);
      } catch (error) {
        return refused(error);
      }
    });

    /** The refusal page of a sign-in through single sign-on (the reason logged, never shown). */
    function federationRefused(request: FastifyRequest, reply: FastifyReply, language: Language) {
      return (reason: unknown) => {
        request.log.info({ event: 'signin_federation_refused', reason: reason instanceof Error ? reason.message : String(reason) }, 'single sign-on refused');
        app.metrics.signins.inc({ outcome: 'failed' });
        return html(reply, 400, errorPage(language, config.publicUrl, 'federation'));
      };
    }

    /**
     * The sign-in through a connection (OpenID Connect or SAML), once its IdP's answer passed every check: the admin of
     * the connection's organisation at a domain routed to it, an invited admin activated, amr fed (and mfa when the
     * connection trusts the IdP's second factor), the grant naming the connection and the trail's entry.
     */
    async function federatedSignIn(
      request: FastifyRequest,
      reply: FastifyReply,
      interaction: Interaction,
      connection: FederationConnection,
      identity: FederatedIdentity,
      refused: (reason: unknown) => FastifyReply,
    ): Promise<FastifyReply> {
      // a member created just in time is the organisation's entry, by no one (the connection is named)
      const admin = await federatedAdmin(db, connection, identity, actingAs(request, null, connection.organizationId));
      // an invited admin activates by this sign-in, with no password of the portal's
      const activated = !admin.activatedAt && (await activateByFederatedSignIn(db, admin.id));
      const amr = connection.trustIdpMfa && identity.multiFactor ? ['fed', 'mfa'] : ['fed'];
      const affiliation = (await affiliationsOfAdmin(db, admin.id)).find((candidate) => candidate.organization.id === connection.organizationId);
      if (!affiliation) return refused('no affiliation');
      app.metrics.signins.inc({ outcome: 'succeeded' });
      const login = { accountId: String(admin.id), ts: epochNow(), amr, acr: amr.includes('mfa') ? ACR.twoStep : ACR.password, remember: true };
      const grantId = await grantFor(request, interaction, String(admin.id), affiliation, { connection, activated });
      return finish(request, reply, { login, select_account: { organizationId: affiliation.organization.id }, consent: { grantId } }, false);
    }

    // the IdP's answer (the redirect_uri a connection registers): back to the interaction that sent the browser there,
    // whose cookie (its path is the interaction's) shows it is the same browser
    app.get(FEDERATION_CALLBACK_PATH, { config: { audit: [] } }, async (request, reply) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      const search = new URL(request.url, 'http://callback').search;
      // a manager's 'Test connection' (connectionTest.ts): to its result, never to a sign-in
      if (await isConnectionTestState(Adapter, state)) return reply.redirect(`${CONNECTION_TEST_PATH}/oidc${search}`, 303);
      const pending = state && (await new Adapter('FederationRequest').find(state));
      const uid = pending && typeof pending.interactionUid === 'string' ? pending.interactionUid : undefined;
      if (!uid) return expired(request, reply);
      return reply.redirect(`${interactionPath(uid)}/federation${search}`, 303);
    });

    await app.register(connectionTestRoutes({ Adapter, serviceProvider }));

    app.get<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid/federation`, { config: { audit: ['signIn.succeeded', 'membership.provisioned'] } }, async (request, reply) => {
      const interaction = await details(request, reply, request.params.uid);
      const query = (request.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      // taken once whatever follows: a replayed answer finds nothing
      const pending = interaction && interaction.prompt.name === 'login' ? await takePendingFederation(db, state) : undefined;
      if (!interaction || !pending || pending.interactionUid !== interaction.uid) return expired(request, reply);
      const refused = federationRefused(request, reply, languageFor(request, interaction).language);
      try {
        const connection = await activeConnection(db, pending.connectionId);
        if (!usableOidc(connection)) return refused('connection not on');
        const configuration = await configurationOf(secretKeys, connection, config.demo);
        const callbackUrl = new URL(`${config.publicUrl}${FEDERATION_CALLBACK_PATH}${new URL(request.url, 'http://callback').search}`);
        const identity = await completeFederation(configuration, { callbackUrl, state, pending, emailClaim: connection.attributeEmail });
        return await federatedSignIn(request, reply, interaction, connection, identity, refused);
      } catch (error) {
        return refused(error);
      }
    });

    /** The sign-in is made (RFC 8176 `amr` says how): the organisation next, chosen at once when it can be. */
    async function signedIn(request: FastifyRequest, reply: FastifyReply, interaction: Interaction, made: { accountId: string; ts: number; amr: string[] }): Promise<FastifyReply> {
      const login = { ...made, acr: made.amr.includes('mfa') ? ACR.twoStep : ACR.password, remember: true };
      const affiliations = await affiliationsOfAdmin(db, Number(made.accountId));
      if (affiliations.length === 0) return withoutOrganization(reply, interaction);
      const chosen = automaticChoice(interaction, affiliations);
      if (!chosen) return finish(request, reply, { login }, false);
      const grantId = await grantFor(request, interaction, made.accountId, chosen);
      return finish(request, reply, { login, select_account: { organizationId: chosen.organization.id }, consent: { grantId } }, false);
    }

    /** The second step's page: 'Use a passkey' when the admin has one, the code field for the app's or a recovery code. */
    async function renderSecondStep(
      reply: FastifyReply,
      found: { interaction: Interaction; pending: PendingSecondStep },
      language: Language,
      explicit: boolean,
      status = 200,
      error?: Parameters<typeof secondStepPage>[0]['error'],
    ) {
      const { interaction } = found;
      const factors = await twoStepState(db, Number(found.pending.accountId));
      return html(
        reply,
        status,
        secondStepPage({
          language,
          action: withLanguage(`${interactionPath(interaction.uid)}/two_step`, language, explicit),
          otherAccountUrl: `${config.publicUrl}${SIGNIN_ROUTE}?prompt=login`,
          languageLink: (other) => `${interactionPath(interaction.uid)}/two_step?lang=${other}`,
          ...(factors.passkeys.length > 0 ? { passkey: passkeyUrls(interaction) } : {}),
          authenticatorApp: factors.authenticatorApp,
          error,
        }),
      );
    }

    /** Where a page's passkey button asks for the ceremony's options, and where its form posts the device's answer. */
    const passkeyUrls = (interaction: Interaction) => ({ optionsUrl: `${interactionPath(interaction.uid)}/passkey/options`, action: `${interactionPath(interaction.uid)}/passkey` });

    /** The interaction's sign-in waiting for its second step, with the interaction itself; undefined when there is none. */
    async function pendingOf(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction || interaction.prompt.name !== 'login') return undefined;
      const pending = await findPendingSecondStep(Adapter, interaction.uid);
      return pending && { interaction, pending };
    }

    app.get<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid/two_step`, async (request, reply) => {
      const found = await pendingOf(request, reply);
      if (!found) return expired(request, reply);
      const { language, explicit } = languageFor(request, found.interaction);
      return renderSecondStep(reply, found, language, explicit);
    });

    app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${ISSUER_PATH}/interaction/:uid/two_step`,
      { config: { audit: ['signIn.succeeded', 'signIn.locked', 'signIn.recoveryCodeUsed'] } },
      async (request, reply) => {
        const found = await pendingOf(request, reply);
        if (!found) return expired(request, reply);
        const { interaction, pending } = found;
        const { language, explicit } = languageFor(request, interaction);
        const code = typeof request.body?.code === 'string' ? request.body.code : '';
        if (code.trim() === '') return renderSecondStep(reply, found, language, explicit, 400, { kind: 'required' });
        const admin = await db.selectFrom('admins').select(['id', 'email']).where('id', '=', Number(pending.accountId)).executeTakeFirst();
        if (!admin) return expired(request, reply);

        // codes are guessed like passwords: the same counts and limits, on the account and the address, and the
        // account's codes from every address (issue 44 finding 2)
        const keys = { account: admin.email, address: request.ip, secondStep: String(admin.id) };
        const attempt = await beginAttempt(db, keys, throttle);
        const locked = (until: Date) => renderSecondStep(reply, found, language, explicit, 429, { kind: 'locked', minutes: minutesUntil(until) });
        if (!attempt.allowed) {
          app.metrics.signins.inc({ outcome: 'locked' });
          return locked(attempt.lockedUntil ?? new Date());
        }
        const step = await verifySecondStep(secretKeys, admin, code, actingAs(request, admin.id));
        if (!step) {
          request.log.info({ event: 'signin_second_step_failed' }, 'sign-in failed: wrong or used code');
          app.metrics.signins.inc({ outcome: 'failed' });
          if (attempt.failureDelayMs > 0) await sleep(attempt.failureDelayMs);
          if (attempt.lockedUntil) {
            await recordLock(request, admin.email, attempt.lockedUntil, 'secondStepLocked');
            return locked(attempt.lockedUntil);
          }
          // a few wrong codes at one step: this password entry is spent, the next guesses need the password again
          const failures = (pending.failures ?? 0) + 1;
          if (failures >= throttle.secondStepMaxTries) {
            await deletePendingSecondStep(Adapter, interaction.uid);
            return renderSignin(reply, interaction, language, explicit, 401, { email: admin.email, error: { kind: 'secondStepRestart' } });
          }
          await savePendingSecondStep(Adapter, interaction.uid, { ...pending, failures });
          return renderSecondStep(reply, { interaction, pending: { ...pending, failures } }, language, explicit, 401, { kind: 'invalid' });
        }
        if (step.recoveryCode) mail(request, admin.id, { kind: 'recoveryCodeUsed' });
        await recordSuccess(db, keys);
        await deletePendingSecondStep(Adapter, interaction.uid);
        app.metrics.signins.inc({ outcome: 'succeeded' });
        return signedIn(request, reply, interaction, { accountId: pending.accountId, ts: pending.passwordAt, amr: ['pwd', step.method, 'mfa'] });
      },
    );

    /** The interaction a passkey may sign in (the first page's, or its second step's), with the admin of its password if any. */
    async function passkeyInteraction(request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) {
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction || interaction.prompt.name !== 'login') return undefined;
      return { interaction, pending: await findPendingSecondStep(Adapter, interaction.uid) };
    }

    // a ceremony begun signs no one in: the passkey's answer is the sign-in the trail records
    app.post<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid/passkey/options`, { config: { audit: [] } }, async (request, reply) => {
      const found = await passkeyInteraction(request, reply);
      if (!found) return reply.code(400).send({ error: 'expired' });
      const options = await signInOptions(relyingParty, found.interaction.uid, found.pending && Number(found.pending.accountId));
      return reply.header('cache-control', 'no-store').send({ options: JSON.stringify(options) });
    });

    function renderPasskeyPage(reply: FastifyReply, interaction: Interaction, language: Language, explicit: boolean, status = 200) {
      return html(
        reply,
        status,
        passkeyPage({
          language,
          passkey: { ...passkeyUrls(interaction), action: withLanguage(passkeyUrls(interaction).action, language, explicit) },
          passwordUrl: withLanguage(interactionPath(interaction.uid), language, explicit),
          error: status !== 200,
          languageLink: (other) => `${interactionPath(interaction.uid)}/passkey?lang=${other}`,
        }),
      );
    }

    app.get<{ Params: { uid: string } }>(`${ISSUER_PATH}/interaction/:uid/passkey`, async (request, reply) => {
      const interaction = await details(request, reply, request.params.uid);
      if (!interaction || interaction.prompt.name !== 'login') return expired(request, reply);
      const { language, explicit } = languageFor(request, interaction);
      return renderPasskeyPage(reply, interaction, language, explicit);
    });

    app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${ISSUER_PATH}/interaction/:uid/passkey`,
      { config: { audit: ['signIn.succeeded'] } },
      async (request, reply) => {
        const found = await passkeyInteraction(request, reply);
        if (!found) return expired(request, reply);
        const { interaction, pending } = found;
        const { language, explicit } = languageFor(request, interaction);
        const credential = credentialOf(request.body?.credential);
        const adminId = credential && (await verifySignIn(relyingParty, interaction.uid, credential as never, pending && Number(pending.accountId)));
        const admin = adminId === undefined ? undefined : await findAdminById(db, adminId);
        if (!admin?.activatedAt) {
          request.log.info({ event: 'signin_passkey_failed' }, 'sign-in failed: a passkey that opens no account');
          app.metrics.signins.inc({ outcome: 'failed' });
          if (pending) return renderSecondStep(reply, { interaction, pending }, language, explicit, 401, { kind: 'invalid' });
          return renderPasskeyPage(reply, interaction, language, explicit, 401);
        }
        if ((await homeRealmOf(db, admin.email))?.requireSso) {
          request.log.info({ event: 'signin_sso_required' }, 'passkey sign-in refused: the domain requires single sign-on');
          return renderSignin(reply, interaction, language, explicit, 403, { email: admin.email, error: { kind: 'ssoRequired' } });
        }
        if (pending) {
          await deletePendingSecondStep(Adapter, interaction.uid);
          await recordSuccess(db, { account: admin.email, address: request.ip, secondStep: String(admin.id) });
        }
        app.metrics.signins.inc({ outcome: 'succeeded' });
        // a passkey with user verification is two factors itself (RFC 8176: hardware key, user verified); after a password, three
        const made = pending ? { ts: pending.passwordAt, amr: ['pwd', 'hwk', 'mfa'] } : { ts: epochNow(), amr: ['hwk', 'user', 'mfa'] };
        return signedIn(request, reply, interaction, { accountId: String(admin.id), ...made });
      },
    );

    app.post<{ Params: { uid: string }; Body: Record<string, string> | undefined }>(
      `${ISSUER_PATH}/interaction/:uid/organization`,
      { config: { audit: ['signIn.succeeded'] } },
      async (request, reply) => {
        const interaction = await details(request, reply, request.params.uid);
        const accountId = interaction?.session?.accountId ?? (interaction?.lastSubmission as { login?: { accountId?: string } } | undefined)?.login?.accountId;
        if (!interaction || !accountId || !['select_account', 'consent'].includes(interaction.prompt.name)) return expired(request, reply);
        const { language, explicit } = languageFor(request, interaction);
        const affiliations = await affiliationsOfAdmin(db, Number(accountId));
        if (affiliations.length === 0) return withoutOrganization(reply, interaction);
        const organizationId = Number(request.body?.organization_id);
        const chosen = affiliations.find((affiliation) => affiliation.organization.id === organizationId);
        if (!chosen) return chooseOrganization(request, reply, interaction, accountId, language, explicit, 400);
        const grantId = await grantFor(request, interaction, accountId, chosen);
        return finish(request, reply, { select_account: { organizationId: chosen.organization.id }, consent: { grantId } }, true);
      },
    );
  };
