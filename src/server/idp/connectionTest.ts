/**
 * 'Test connection' (issue 45): a manager runs one sign-in through a connection — a draft or a paused one too, once its
 * settings are complete — in a new window, and sees what the IdP sent. Nobody is signed in, no session is made.
 *
 * - The API (api/ssoConnections.ts) issues a ticket (connectionTestTicket.ts): random, kept as its digest through the
 *   provider's adapter for 5 minutes, naming the connection, its organisation and the manager who asked.
 * - GET /oidc/connection_test/:ticket takes the ticket (once) and starts the IdP request exactly as a sign-in does
 *   (OpenID Connect: PKCE S256, state, nonce; SAML: a signed AuthnRequest and its RelayState), kept under models of its
 *   own: a test's request never finishes a sign-in, and a sign-in's never shows a test. The browser gets a cookie whose
 *   digest the request keeps: only the browser that started the test sees its result.
 * - The IdP answers where a sign-in's answer comes (the callback, the ACS: the URLs the customer registered), which
 *   hand a test on here (isConnectionTestState, connectionTestAnswer). Every check of a sign-in runs (signature,
 *   issuer, audience, nonce, PKCE, InResponseTo, replay, …).
 * - The result page shows the ID token's claims (and UserInfo's) or the NameID, attributes and AuthnContextClassRef;
 *   the e-mail the connection's mapping reads; whether it counts as multi-factor; whether that address could sign in
 *   through the connection — or why the answer was refused. The trail records sso.connectionTested with the outcome.
 *   Every value the IdP sent is escaped (it is the customer's, and may be hostile).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { isLanguage, type Language } from '../../common/languages.js';
import type { Db } from '../db/index.js';
import type { SsoProtocol } from '../db/types.js';
import { actingAs } from '../api/audit.js';
import { newRelayState, type SamlServiceProvider } from '../saml/serviceProvider.js';
import { isSecureUrl, LANGUAGE_COOKIE } from './constants.js';
import {
  authorizationRequest,
  configurationOf,
  connectionById,
  domainOf,
  FEDERATION_CALLBACK_PATH,
  FederationRefused,
  federatedIdentityOf,
  redeemFederation,
  takePayload,
  usableOidc,
  usableSaml,
  type FederationAnswer,
  type FederationConnection,
} from './federation.js';
import { CONNECTION_TEST_PATH, randomToken as random, TICKET_MODEL, tokenDigest as digest, type TestTicket } from './connectionTestTicket.js';
import { errorPage, escapeHtml, layout, pickLanguage, translator } from './pages.js';

type AdapterClass = new (model: string) => import('oidc-provider').Adapter;

export { CONNECTION_TEST_PATH };
/** The IdP's answer is awaited 10 minutes, as a sign-in's. */
const REQUEST_TTL_SECONDS = 10 * 60;
const OIDC_MODEL = 'FederationTestRequest';
const SAML_MODEL = 'SamlFederationTestRequest';
const RESULT_MODEL = 'ConnectionTestResult';
const AUDIT = ['sso.connectionTested'] as const;

/** A test under way: its ticket, the connection's name (for the trail), the page language, the browser's cookie digest. */
interface TestRequest extends TestTicket {
  testId: string;
  connectionName: string;
  language: Language;
  browser: string;
}

/** Why an answer is refused: a sign-in's checks (SAML's AcsRefusal, OpenID Connect's), or the test's own. */
type Refusal = string;

/** What the IdP sent and what the portal made of it. */
interface TestResult {
  protocol: SsoProtocol;
  sent?: {
    claims?: Record<string, unknown>;
    userinfo?: Record<string, unknown>;
    nameId?: string;
    nameIdFormat?: string | null;
    authnContextClassRef?: string | null;
    attributes?: Record<string, unknown>;
  };
  email?: string;
  multiFactor?: boolean;
  refusal?: Refusal;
  /** The check's own words (for the manager debugging the IdP's set-up). */
  detail?: string;
}

/** Whether the address could sign in through the connection, or why not. */
type Eligibility = 'yes' | 'domainNotVerified' | 'routedElsewhere' | 'notAdmin';

const isTestRequest = (value: Record<string, unknown> | undefined): value is TestRequest & Record<string, unknown> =>
  !!value &&
  typeof value.testId === 'string' &&
  typeof value.connectionId === 'string' &&
  typeof value.connectionName === 'string' &&
  typeof value.organizationId === 'number' &&
  typeof value.adminId === 'number' &&
  typeof value.browser === 'string' &&
  isLanguage(value.language);

/** The state names a test's request (the callback sends it on here rather than to a sign-in). */
export async function isConnectionTestState(Adapter: AdapterClass, state: string): Promise<boolean> {
  return state !== '' && (await new Adapter(OIDC_MODEL).find(state)) !== undefined;
}

/** A connection complete enough to test, whatever its state. */
const testableOidc = (connection: FederationConnection | undefined) => (connection && usableOidc({ ...connection, state: 'on' }) ? { ...connection, issuer: connection.issuer!, clientId: connection.clientId!, clientSecretEncrypted: connection.clientSecretEncrypted! } : undefined);
const testableSaml = (connection: FederationConnection | undefined) => (connection && usableSaml({ ...connection, state: 'on' }) ? connection : undefined);

/** The connection a test names, if it is still the organisation's. */
async function connectionOf(db: Db, test: TestTicket): Promise<FederationConnection | undefined> {
  const connection = await connectionById(db, test.connectionId);
  return connection?.organizationId === test.organizationId ? connection : undefined;
}

/**
 * The ACS's hook: a test's SAML answer (its RelayState names a test), checked as a sign-in's and kept for the result
 * page, whose path is returned; undefined when the RelayState names no test (a sign-in's answer).
 */
export async function connectionTestAnswer(
  deps: { db: Db; Adapter: AdapterClass; serviceProvider: SamlServiceProvider },
  input: { connectionId: string; relayState: string; body: Record<string, unknown> },
): Promise<string | undefined> {
  const { db, Adapter, serviceProvider } = deps;
  // taken once whatever follows: a replayed answer finds nothing
  const pending = await takePayload(db, SAML_MODEL, input.relayState);
  if (!isTestRequest(pending)) return undefined;
  const result = await samlResult(pending, input);
  const key = random(24);
  await new Adapter(RESULT_MODEL).upsert(key, { ...pending, result } as never, REQUEST_TTL_SECONDS);
  return `${CONNECTION_TEST_PATH}/saml?key=${key}`;

  async function samlResult(test: TestRequest, answer: typeof input): Promise<TestResult> {
    if (answer.connectionId !== test.connectionId) return { protocol: 'saml', refusal: 'otherConnection' };
    const connection = testableSaml(await connectionOf(db, test));
    if (!connection) return { protocol: 'saml', refusal: 'connectionChanged' };
    try {
      const checked = await serviceProvider.validateAcsPost(connection, answer.body);
      if (!checked.ok) return { protocol: 'saml', refusal: checked.refusal, ...(checked.detail ? { detail: checked.detail } : {}) };
      const { nameId, nameIdFormat, authnContextClassRef, attributes } = checked;
      return { protocol: 'saml', sent: { nameId, nameIdFormat, authnContextClassRef, attributes }, email: checked.email, multiFactor: checked.mfa };
    } catch (error) {
      return { protocol: 'saml', refusal: 'invalid', detail: (error as Error).message };
    }
  }
}

/** An OpenID Connect refusal in the test's words (the exception's message as its detail). */
function oidcRefusal(error: unknown): Pick<TestResult, 'refusal' | 'detail'> {
  if (error instanceof client.AuthorizationResponseError) return { refusal: 'idpError', detail: [error.error, error.error_description].filter(Boolean).join(': ') };
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof FederationRefused) {
    const known: Record<string, Refusal> = { 'no e-mail claim': 'noEmail', 'e-mail not verified': 'emailNotVerified', 'private address': 'unreachable', 'https required': 'unreachable' };
    return { refusal: known[error.reason] ?? (error.reason.startsWith('id token algorithm') ? 'algorithm' : 'invalid'), detail: error.reason };
  }
  return { refusal: 'invalid', detail: message };
}

/** Where the e-mail's domain leads, and whether its admin belongs to the connection's organisation (read only). */
async function eligibilityOf(db: Db, connection: FederationConnection, email: string): Promise<Eligibility> {
  const domain = await db
    .selectFrom('ssoDomains')
    .select('connectionId')
    .where('organizationId', '=', connection.organizationId)
    .where('domain', '=', domainOf(email))
    .where('verifiedAt', 'is not', null)
    .executeTakeFirst();
  if (!domain) return 'domainNotVerified';
  if (domain.connectionId !== connection.id) {
    // a domain of no connection of its own goes to the organisation's only active connection (this one, once it is on)
    const otherOn = domain.connectionId === null && (await db.selectFrom('ssoConnections').select('id').where('organizationId', '=', connection.organizationId).where('state', '=', 'on').where('id', '!=', connection.id).limit(1).executeTakeFirst());
    if (domain.connectionId !== null || otherOn) return 'routedElsewhere';
  }
  const admin = await db
    .selectFrom('admins')
    .innerJoin('affiliations', 'affiliations.adminId', 'admins.id')
    .select('admins.id')
    .where('admins.email', '=', email)
    .where('affiliations.organizationId', '=', connection.organizationId)
    .executeTakeFirst();
  return admin ? 'yes' : 'notAdmin';
}

export const connectionTestRoutes =
  (deps: { Adapter: AdapterClass; serviceProvider: SamlServiceProvider }): FastifyPluginAsync =>
  async (app) => {
    const { Adapter, serviceProvider } = deps;
    const { db, config } = app;
    const secretKeys = { db, configuredKeys: config.secretKeys };
    const secure = isSecureUrl(config.publicUrl);
    const cookieName = (testId: string) => `connection_test_${testId}`;

    function html(reply: FastifyReply, status: number, body: string): FastifyReply {
      return reply.code(status).header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(body);
    }

    function languageOf(request: FastifyRequest): Language {
      const query = (request.query ?? {}) as Record<string, unknown>;
      if (isLanguage(query.lang)) return query.lang;
      return pickLanguage(undefined, cookieOf(request, LANGUAGE_COOKIE), request.headers['accept-language']);
    }

    function cookieOf(request: FastifyRequest, name: string): string | undefined {
      for (const part of (request.headers.cookie ?? '').split(';')) {
        const [key, ...rest] = part.trim().split('=');
        if (key === name) return rest.join('=');
      }
      return undefined;
    }

    /** The result goes to the browser that started the test only (its cookie), which it then forgets. */
    function sameBrowser(request: FastifyRequest, reply: FastifyReply, test: TestRequest): boolean {
      const cookie = cookieOf(request, cookieName(test.testId));
      reply.header('set-cookie', `${cookieName(test.testId)}=; Path=${CONNECTION_TEST_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
      return cookie !== undefined && digest(cookie) === test.browser;
    }

    const expired = (request: FastifyRequest, reply: FastifyReply) => html(reply, 400, errorPage(languageOf(request), config.publicUrl, 'expired'));

    // the ticket's URL, opened by the /sso page in a new window: on to the IdP as a sign-in goes
    app.get<{ Params: { ticket: string } }>(`${CONNECTION_TEST_PATH}/:ticket`, { config: { audit: [] } }, async (request, reply) => {
      const ticket = (await takePayload(db, TICKET_MODEL, digest(request.params.ticket))) as Partial<TestTicket> | undefined;
      if (typeof ticket?.connectionId !== 'string' || typeof ticket.organizationId !== 'number' || typeof ticket.adminId !== 'number') return expired(request, reply);
      const connection = await connectionOf(db, ticket as TestTicket);
      const language = languageOf(request);
      const oidc = testableOidc(connection);
      const saml = testableSaml(connection);
      if (!connection || (!oidc && !saml)) return expired(request, reply);
      const browserSecret = random(24);
      const test: TestRequest = { ...(ticket as TestTicket), testId: random(12), connectionName: connection.name, language, browser: digest(browserSecret) };
      try {
        let url: string;
        if (oidc) {
          const configuration = await configurationOf(secretKeys, oidc, config.demo);
          const started = await authorizationRequest(configuration, `${config.publicUrl}${FEDERATION_CALLBACK_PATH}`);
          await new Adapter(OIDC_MODEL).upsert(started.state, { ...test, ...started.secrets } as never, REQUEST_TTL_SECONDS);
          url = started.url.href;
        } else {
          const relayState = newRelayState();
          await new Adapter(SAML_MODEL).upsert(relayState, { ...test } as never, REQUEST_TTL_SECONDS);
          url = await serviceProvider.authnRequestUrl(saml!, relayState);
        }
        reply.header('set-cookie', `${cookieName(test.testId)}=${browserSecret}; Path=${CONNECTION_TEST_PATH}; Max-Age=${REQUEST_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
        return reply.redirect(url, 303);
      } catch (error) {
        request.log.warn({ event: 'connection_test_failed', err: error }, 'the connection test could not start');
        return html(reply, 502, errorPage(language, config.publicUrl, 'federation'));
      }
    });

    // an OpenID Connect test's answer, sent on by the callback (the redirect_uri the customer registered)
    app.get(`${CONNECTION_TEST_PATH}/oidc`, { config: { audit: [...AUDIT] } }, async (request, reply) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const state = typeof query.state === 'string' ? query.state : '';
      // taken once whatever follows: a replayed answer finds nothing
      const pending = await takePayload(db, OIDC_MODEL, state);
      if (!isTestRequest(pending) || typeof pending.codeVerifier !== 'string' || typeof pending.nonce !== 'string') return expired(request, reply);
      if (!sameBrowser(request, reply, pending)) return expired(request, reply);
      const connection = await connectionOf(db, pending);
      const oidc = testableOidc(connection);
      let result: TestResult = { protocol: 'oidc', refusal: 'connectionChanged' };
      if (oidc) {
        const search = new URL(request.url, 'http://callback').search;
        result = await oidcResult(oidc, { callbackUrl: new URL(`${config.publicUrl}${FEDERATION_CALLBACK_PATH}${search}`), state, pending: { codeVerifier: pending.codeVerifier, nonce: pending.nonce }, emailClaim: oidc.attributeEmail });
      }
      return shown(request, reply, pending, connection, result);
    });

    async function oidcResult(connection: NonNullable<ReturnType<typeof testableOidc>>, input: Parameters<typeof redeemFederation>[1]): Promise<TestResult> {
      let answer: FederationAnswer;
      try {
        answer = await redeemFederation(await configurationOf(secretKeys, connection, config.demo), input);
      } catch (error) {
        return { protocol: 'oidc', ...oidcRefusal(error) };
      }
      const sent = { claims: { ...answer.claims }, ...(answer.userinfo ? { userinfo: { ...answer.userinfo } } : {}) };
      try {
        const identity = federatedIdentityOf(answer, connection.attributeEmail);
        return { protocol: 'oidc', sent, email: identity.email, multiFactor: identity.multiFactor };
      } catch (error) {
        return { protocol: 'oidc', sent, ...oidcRefusal(error) };
      }
    }

    // a SAML test's answer, checked at the ACS and kept under a one-time key
    app.get(`${CONNECTION_TEST_PATH}/saml`, { config: { audit: [...AUDIT] } }, async (request, reply) => {
      const query = (request.query ?? {}) as Record<string, unknown>;
      const kept = typeof query.key === 'string' ? await takePayload(db, RESULT_MODEL, query.key) : undefined;
      if (!isTestRequest(kept) || typeof kept.result !== 'object' || kept.result === null) return expired(request, reply);
      if (!sameBrowser(request, reply, kept)) return expired(request, reply);
      return shown(request, reply, kept, await connectionOf(db, kept), kept.result as TestResult);
    });

    /** The result recorded in the trail (the manager who asked is its actor) and shown. */
    async function shown(request: FastifyRequest, reply: FastifyReply, test: TestRequest, connection: FederationConnection | undefined, result: TestResult) {
      const eligibility = connection && result.email && !result.refusal ? await eligibilityOf(db, connection, result.email) : undefined;
      const reason = result.refusal ?? (eligibility === 'yes' ? undefined : eligibility);
      const changes = { outcome: { before: null, after: reason ? 'failed' : 'succeeded' }, ...(reason ? { reason: { before: null, after: reason } } : {}) };
      await actingAs(request, test.adminId, test.organizationId).record(db, { action: 'sso.connectionTested', target: { type: 'ssoConnection', id: test.connectionId, label: test.connectionName }, changes });
      request.log.info({ event: 'connection_tested', connectionId: test.connectionId, outcome: changes.outcome.after, reason }, 'single-sign-on connection tested');
      return html(reply, 200, connectionTestPage(test.language, { name: test.connectionName, connection, result, eligibility }));
    }
  };

/** A value the IdP sent, as text: strings as they are, anything else as JSON. */
const shownValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The result page (every value the IdP sent escaped: it is the customer's data, and may be hostile). */
export function connectionTestPage(
  language: Language,
  input: { name: string; connection: FederationConnection | undefined; result: TestResult; eligibility: Eligibility | undefined },
): string {
  const t = translator(language);
  const { result, connection, eligibility } = input;
  const table = (caption: string, values: Record<string, unknown>) =>
    `<table class="idp-table"><caption>${escapeHtml(caption)}</caption><thead><tr><th scope="col">${escapeHtml(t('connectionTest.name'))}</th><th scope="col">${escapeHtml(t('connectionTest.value'))}</th></tr></thead><tbody>${Object.entries(values)
      .map(([name, value]) => `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td><code>${escapeHtml(shownValue(value))}</code></td></tr>`)
      .join('')}</tbody></table>`;
  const item = (label: string, value: string) => `<dt>${escapeHtml(label)}</dt><dd>${value}</dd>`;
  const sent = result.sent ?? {};
  const sentParts = [
    sent.claims ? table(t('connectionTest.claims'), sent.claims) : '',
    sent.userinfo ? table(t('connectionTest.userinfo'), sent.userinfo) : '',
    sent.nameId !== undefined
      ? `<dl class="idp-facts">${item(t('connectionTest.nameId'), `<code>${escapeHtml(sent.nameId)}</code>`)}${item(t('connectionTest.nameIdFormat'), `<code>${escapeHtml(sent.nameIdFormat ?? '')}</code>`)}${item(t('connectionTest.authnContext'), `<code>${escapeHtml(sent.authnContextClassRef ?? '')}</code>`)}</dl>`
      : '',
    sent.attributes ? (Object.keys(sent.attributes).length > 0 ? table(t('connectionTest.attributes'), sent.attributes) : `<p class="idp-detail">${escapeHtml(t('connectionTest.noAttributes'))}</p>`) : '',
  ].join('\n');
  const outcome = result.refusal
    ? `<p class="idp-error" role="alert">${escapeHtml(t('connectionTest.refused', { reason: reasonText(t, result.refusal) }))}</p>${result.detail ? `<p class="idp-detail">${escapeHtml(t('connectionTest.detail'))} <code>${escapeHtml(result.detail)}</code></p>` : ''}`
    : `<p class="idp-notice" role="status">${escapeHtml(t('connectionTest.passed'))}</p>`;
  const mapped = result.email
    ? `<h2>${escapeHtml(t('connectionTest.mappedTitle'))}</h2><dl class="idp-facts">${item(t('connectionTest.email', { attribute: connection?.attributeEmail ?? '' }), `<code>${escapeHtml(result.email)}</code>`)}${item(
        t('connectionTest.multiFactor'),
        escapeHtml(t(result.multiFactor ? (connection?.trustIdpMfa ? 'connectionTest.mfaTrusted' : 'connectionTest.mfaNotTrusted') : 'connectionTest.mfaNone')),
      )}${eligibility ? item(t('connectionTest.signIn'), escapeHtml(eligibility === 'yes' ? t('connectionTest.canSignIn') : t('connectionTest.cannotSignIn', { reason: reasonText(t, eligibility) }))) : ''}</dl>`
    : '';
  const state = connection && connection.state !== 'on' ? `<p class="idp-detail">${escapeHtml(t(`connectionTest.state.${connection.state}`))}</p>` : '';
  const body = `<h1>${escapeHtml(t('connectionTest.title', { name: input.name }))}</h1>
${outcome}
${state}
${sentParts ? `<h2>${escapeHtml(t('connectionTest.sentTitle'))}</h2>\n${sentParts}` : ''}
${mapped}
<p class="idp-detail">${escapeHtml(t('connectionTest.nobodySignedIn'))}</p>`;
  return layout({ language, title: t('connectionTest.title', { name: input.name }), body });
}

/** A refusal or a reason of the sign-in check in plain words; a code without words of its own as the general one. */
function reasonText(t: ReturnType<typeof translator>, reason: string): string {
  const key = `connectionTest.reasons.${reason}`;
  const text = t(key);
  return text === key ? t('connectionTest.reasons.invalid') : text;
}
