/**
 * 'Test connection' (issue 45): a manager's one sign-in through a connection in a new window, showing what the IdP
 * sent and signing nobody in. OpenID Connect through a customer IdP started here (customerIdp.ts); SAML through
 * responses signed here (test/server/saml/testIdp.ts). On the demo data: G0000001 (id 1) managed by manager@ (1),
 * member@ (2) its member; G0000002 (id 2) gets a manager of its own here.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { sealClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { MULTI_FACTOR_CONTEXTS } from '../../../src/server/saml/serviceProvider.js';
import { bearer, Browser, pathOf } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';
import { encode, idpMetadataXml, IDP_SSO_URL, requestIdOf, responseXml, sign, testIdpKey, type ResponseFields, type TestIdpKey } from '../saml/testIdp.js';
import { startCustomerIdp, throughIdp } from './customerIdp.js';

const PUBLIC_URL = 'http://localhost:3000';
const CLIENT_ID = 'corporate-admin-portal';
const CLIENT_SECRET = 'a-client-secret-of-the-customers-idp';
const DOMAIN = 'tested.example';
const SAML_DOMAIN = 'tested-saml.example';
const HOSTILE = '<script>alert("idp")</script>';

describe('identity provider: testing a single-sign-on connection (issue 45)', function () {
  this.timeout(60_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let idp: Awaited<ReturnType<typeof startCustomerIdp>>;
  let key: TestIdpKey;
  const ids = { oidc: randomUUID(), saml: randomUUID(), incomplete: randomUUID(), otherOrg: randomUUID() };
  const as = {} as Record<'manager' | 'member' | 'otherManager', Record<string, string>>;

  before(async function () {
    // an RSA key of the SAML IdP and one of the OIDC IdP: slow on a busy machine
    this.timeout(120_000);
    idp = await startCustomerIdp({ publicUrl: PUBLIC_URL, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET });
    key = await testIdpKey();
    const secret = await sealClientSecret({ db: ctx.db, configuredKeys: ctx.config.secretKeys }, ids.oidc, CLIENT_SECRET);
    await ctx.db
      .insertInto('ssoConnections')
      .values([
        // drafts: a connection is tested before it is turned on
        { id: ids.oidc, organizationId: 1, protocol: 'oidc', name: 'Acme <Okta>', state: 'draft', issuer: idp.issuer, clientId: CLIENT_ID, clientSecretEncrypted: secret, attributeEmail: 'email' },
        { id: ids.saml, organizationId: 1, protocol: 'saml', name: 'Acme SAML', state: 'paused', idpMetadataXml: idpMetadataXml([key.certificate]), attributeEmail: 'mail' },
        { id: ids.incomplete, organizationId: 1, protocol: 'oidc', name: 'Half done', state: 'draft', issuer: idp.issuer, attributeEmail: 'email' },
        { id: ids.otherOrg, organizationId: 2, protocol: 'saml', name: 'Other', state: 'draft', idpMetadataXml: idpMetadataXml([key.certificate]), attributeEmail: 'nameID' },
      ])
      .execute();
    await ctx.db
      .insertInto('ssoDomains')
      .values([
        { id: randomUUID(), organizationId: 1, domain: DOMAIN, connectionId: ids.oidc, verificationToken: 'token-tested', verifiedAt: new Date() },
        { id: randomUUID(), organizationId: 1, domain: SAML_DOMAIN, connectionId: ids.saml, verificationToken: 'token-tested-saml', verifiedAt: new Date() },
      ])
      .execute();
    for (const email of [`admin@${DOMAIN}`, `admin@${SAML_DOMAIN}`]) {
      const admin = await ctx.db.insertInto('admins').values({ email, firstName: '太郎', lastName: '山田', activatedAt: new Date() }).returning('id').executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values({ adminId: admin.id, organizationId: 1, role: 'manager' }).execute();
    }
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'tester-other@example.com', firstName: '次郎', lastName: '田中', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
  });

  after(async () => {
    await idp?.close();
  });

  beforeEach(() => {
    Object.assign(idp.state, { user: { email: `admin@${DOMAIN}`, given_name: 'Taro' }, amr: undefined, acr: undefined });
  });

  const startTest = (connectionId: string, headers = as.manager, orgId = 1) =>
    ctx.app.inject({ method: 'POST', url: `/api/v2/organizations/${orgId}/sso_connections/${connectionId}/test`, headers });

  async function testUrl(connectionId: string): Promise<string> {
    const answer = await startTest(connectionId);
    expect(answer.statusCode, answer.body).to.equal(201);
    const url = answer.json().test_url as string;
    expect(url).to.match(new RegExp(`^${PUBLIC_URL}/oidc/connection_test/[A-Za-z0-9_-]{43}$`));
    return url;
  }

  /** The test window: the ticket's page, on to the IdP (the answer and the browser). */
  async function openTest(connectionId: string) {
    const browser = new Browser(ctx.app, undefined, undefined, { 'accept-language': 'en' });
    const answer = await browser.get(pathOf(await testUrl(connectionId)));
    expect(answer.statusCode, answer.body.slice(0, 300)).to.equal(303);
    return { browser, idpUrl: answer.headers.location as string };
  }

  /** Through the customer's IdP and back to the portal's callback, then on to the result page. */
  async function oidcResult() {
    const { browser, idpUrl } = await openTest(ids.oidc);
    const callback = await throughIdp(idpUrl, PUBLIC_URL);
    const back = await browser.get(pathOf(callback));
    expect(back.statusCode).to.equal(303);
    expect(pathOf(back.headers.location as string)).to.match(/^\/oidc\/connection_test\/oidc\?/);
    return { browser, callback, page: await browser.follow(back) };
  }

  const lastTrailEntry = (connectionId: string) =>
    ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'sso.connectionTested').where('targetId', '=', connectionId).orderBy('id', 'desc').executeTakeFirst();
  const count = async (table: 'auditEvents' | 'idpPayloads', column: 'action' | 'model', value: string) =>
    Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('count')).where(column as never, '=', value as never).executeTakeFirstOrThrow()).count);

  const expired = (answer: LightMyRequestResponse) => {
    expect(answer.statusCode).to.equal(400);
    // the stranger's browser says no language: Japanese, the default
    expect(answer.body).to.match(/has expired or was already used|有効期限が切れたか/);
  };

  describe('the API', () => {
    it('answers a manager a one-time URL that expires in 5 minutes, for a draft connection', async () => {
      const answer = await startTest(ids.oidc);
      expect(answer.statusCode, answer.body).to.equal(201);
      const expiresAt = Date.parse(answer.json().expires_at);
      expect(expiresAt - Date.now()).to.be.within(4 * 60_000, 5 * 60_000 + 1000);
      // kept as its digest only
      const secret = (answer.json().test_url as string).split('/').pop()!;
      expect(await ctx.db.selectFrom('idpPayloads').select('id').where('id', '=', secret).executeTakeFirst()).to.equal(undefined);
    });

    it('refuses a member (403), another organisation’s manager (403), and another organisation’s connection (404)', async () => {
      expect((await startTest(ids.oidc, as.member)).statusCode).to.equal(403);
      expect((await startTest(ids.oidc, as.otherManager)).statusCode).to.equal(403);
      expect((await startTest(ids.otherOrg)).statusCode).to.equal(404);
      expect((await startTest(ids.otherOrg, as.otherManager, 2)).statusCode).to.equal(201);
    });

    it('refuses a connection whose settings are incomplete (422, the missing fields)', async () => {
      const answer = await startTest(ids.incomplete);
      expect(answer.statusCode).to.equal(422);
      expect(answer.json().errors.map((error: { field: string; code: string }) => `${error.field} ${error.code}`)).to.deep.equal(['client_id blank', 'client_secret blank']);
    });
  });

  describe('OpenID Connect', () => {
    it('goes to the IdP as a sign-in does: PKCE S256, state, nonce, the registered redirect URI', async () => {
      const { idpUrl } = await openTest(ids.oidc);
      const url = new URL(idpUrl);
      expect(url.origin).to.equal(idp.issuer);
      expect(url.searchParams.get('client_id')).to.equal(CLIENT_ID);
      expect(url.searchParams.get('redirect_uri')).to.equal(`${PUBLIC_URL}/oidc/federation/callback`);
      expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(url.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{20,}$/);
      expect(url.searchParams.get('nonce')).to.match(/^[A-Za-z0-9_-]{20,}$/);
    });

    it('shows the claims, the mapped e-mail and that the admin could sign in; records the test; signs nobody in', async () => {
      const sessions = await count('idpPayloads', 'model', 'Session');
      const signIns = await count('auditEvents', 'action', 'signIn.succeeded');
      const { page } = await oidcResult();
      expect(page.statusCode, page.body.slice(0, 500)).to.equal(200);
      expect(page.body).to.contain('Test of the connection &#39;Acme &lt;Okta&gt;&#39;');
      expect(page.body).to.contain('passed every check of a sign-in');
      expect(page.body).to.contain('<code>sub</code>').and.contain(`<code>admin@${DOMAIN}</code>`).and.contain('<code>Taro</code>');
      expect(page.body).to.contain('This address can sign in through this connection.');
      expect(page.body).to.contain('This connection is a draft');
      expect(page.body).to.contain('does not say that more than one factor was used');
      expect(page.headers['content-security-policy']).to.contain("script-src 'self'");
      expect(await count('idpPayloads', 'model', 'Session')).to.equal(sessions);
      expect(await count('auditEvents', 'action', 'signIn.succeeded')).to.equal(signIns);
      const entry = await lastTrailEntry(ids.oidc);
      expect(entry).to.include({ organizationId: 1, actorAdminId: 1, targetType: 'ssoConnection', targetLabel: 'Acme <Okta>' });
      expect(entry!.changes).to.deep.equal({ outcome: { before: null, after: 'succeeded' } });
    });

    it('says whether the IdP’s multi-factor sign-in counts', async () => {
      idp.state.amr = ['pwd', 'mfa'];
      expect((await oidcResult()).page.body).to.contain('the connection does not trust it');
      await ctx.db.updateTable('ssoConnections').set({ trustIdpMfa: true }).where('id', '=', ids.oidc).execute();
      try {
        expect((await oidcResult()).page.body).to.contain('the connection trusts it, so it counts');
      } finally {
        await ctx.db.updateTable('ssoConnections').set({ trustIdpMfa: false }).where('id', '=', ids.oidc).execute();
      }
    });

    it('escapes what the IdP sent (a hostile claim value)', async () => {
      idp.state.user = { email: `admin@${DOMAIN}`, given_name: HOSTILE, family_name: '"><img src=x onerror=alert(1)>' };
      const { page } = await oidcResult();
      expect(page.body).to.not.contain('<script>alert').and.not.contain('<img src=x');
      expect(page.body).to.contain('&lt;script&gt;alert(&quot;idp&quot;)&lt;/script&gt;');
    });

    it('says why an address could not sign in, and records the test as failed', async () => {
      idp.state.user = { email: `nobody@${DOMAIN}` };
      const { page } = await oidcResult();
      expect(page.body).to.contain('passed every check of a sign-in');
      expect(page.body).to.contain('could not sign in through this connection: no admin of the organization has this e-mail address');
      expect((await lastTrailEntry(ids.oidc))!.changes).to.deep.equal({ outcome: { before: null, after: 'failed' }, reason: { before: null, after: 'notAdmin' } });
      idp.state.user = { email: 'someone@elsewhere.example' };
      expect((await oidcResult()).page.body).to.contain('not at a verified domain of the organization');
    });

    it('shows the refusal in plain words when the IdP answers an error', async () => {
      const { browser, idpUrl } = await openTest(ids.oidc);
      const state = new URL(idpUrl).searchParams.get('state')!;
      const page = await browser.follow(await browser.get(`/oidc/federation/callback?error=access_denied&error_description=${encodeURIComponent(HOSTILE)}&state=${state}&iss=${encodeURIComponent(idp.issuer)}`));
      expect(page.statusCode).to.equal(200);
      expect(page.body).to.contain('was refused: the identity provider answered with an error.');
      expect(page.body).to.contain('access_denied: &lt;script&gt;').and.not.contain('<script>alert');
      expect((await lastTrailEntry(ids.oidc))!.changes).to.deep.equal({ outcome: { before: null, after: 'failed' }, reason: { before: null, after: 'idpError' } });
    });

    it('takes a ticket once, and not after it expired', async () => {
      const path = pathOf(await testUrl(ids.oidc));
      expect((await new Browser(ctx.app).get(path)).statusCode).to.equal(303);
      expired(await new Browser(ctx.app).get(path));
      const late = pathOf(await testUrl(ids.oidc));
      await ctx.db.updateTable('idpPayloads').set({ expiresAt: new Date(Date.now() - 1000) }).where('model', '=', 'ConnectionTestTicket').execute();
      expired(await new Browser(ctx.app).get(late));
    });

    it('shows the result to the browser that started the test only, once', async () => {
      const { browser, idpUrl } = await openTest(ids.oidc);
      const callback = await throughIdp(idpUrl, PUBLIC_URL);
      const stranger = new Browser(ctx.app);
      expired(await stranger.follow(await stranger.get(pathOf(callback))));
      // the stranger's attempt used the answer up: the starter's replay finds nothing either
      expired(await browser.follow(await browser.get(pathOf(callback))));
    });
  });

  describe('SAML', () => {
    /** The IdP's signed answer to the request in `idpUrl`, for the connection's ACS. */
    function samlAnswer(idpUrl: string, fields: Partial<ResponseFields> = {}) {
      const acsUrl = `${PUBLIC_URL}/saml/${ids.saml}/acs`;
      const xml = sign(responseXml({ inResponseTo: requestIdOf(idpUrl), acsUrl, audience: `${PUBLIC_URL}/saml/${ids.saml}`, nameId: 'opaque-id-123', ...fields }), key, 'Assertion');
      return { SAMLResponse: encode(xml), RelayState: new URL(idpUrl).searchParams.get('RelayState')! };
    }

    /** The IdP's auto-submitted form: a cross-site POST, so none of the portal's cookies come with it. */
    const postToAcs = (form: Record<string, string>) =>
      ctx.app.inject({ method: 'POST', url: `/saml/${ids.saml}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

    it('sends a signed AuthnRequest with its RelayState, and shows the NameID, the attributes and the AuthnContextClassRef (escaped)', async () => {
      const { browser, idpUrl } = await openTest(ids.saml);
      expect(idpUrl.startsWith(`${IDP_SSO_URL}?`)).to.equal(true);
      const params = new URL(idpUrl).searchParams;
      expect(params.get('Signature')).to.be.a('string').and.not.empty;
      expect(params.get('RelayState')).to.match(/^[A-Za-z0-9_-]{16,80}$/);
      const form = samlAnswer(idpUrl, { classRef: MULTI_FACTOR_CONTEXTS[0]!, attributes: { mail: `admin@${SAML_DOMAIN}`, displayName: '&lt;b&gt;Hanako&lt;/b&gt;' } });
      const acs = await postToAcs(form);
      expect(acs.statusCode, acs.body.slice(0, 300)).to.equal(303);
      expect(pathOf(acs.headers.location as string)).to.match(/^\/oidc\/connection_test\/saml\?key=/);
      const page = await browser.follow(acs);
      expect(page.statusCode, page.body.slice(0, 500)).to.equal(200);
      expect(page.body).to.contain('<code>opaque-id-123</code>');
      expect(page.body).to.contain('<code>mail</code>').and.contain(`<code>admin@${SAML_DOMAIN}</code>`);
      expect(page.body).to.contain('<code>&lt;b&gt;Hanako&lt;/b&gt;</code>').and.not.contain('<b>Hanako');
      expect(page.body).to.contain(`<code>${MULTI_FACTOR_CONTEXTS[0]}</code>`);
      expect(page.body).to.contain('read from &#39;mail&#39;');
      expect(page.body).to.contain('This connection is paused');
      expect(page.body).to.contain('This address can sign in through this connection.');
      expect((await lastTrailEntry(ids.saml))!.changes).to.deep.equal({ outcome: { before: null, after: 'succeeded' } });
      // the answer is taken once: posted again, it shows no test
      const again = await postToAcs(form);
      expect(again.headers.location ?? '').to.not.contain('/oidc/connection_test/');
    });

    it('runs every check of a sign-in: an unsigned answer is refused, and the page says so', async () => {
      const { browser, idpUrl } = await openTest(ids.saml);
      const unsigned = responseXml({ inResponseTo: requestIdOf(idpUrl), acsUrl: `${PUBLIC_URL}/saml/${ids.saml}/acs`, audience: `${PUBLIC_URL}/saml/${ids.saml}`, attributes: { mail: `admin@${SAML_DOMAIN}` } });
      const acs = await postToAcs({ SAMLResponse: encode(unsigned), RelayState: new URL(idpUrl).searchParams.get('RelayState')! });
      const page = await browser.follow(acs);
      expect(page.statusCode).to.equal(200);
      expect(page.body).to.contain('was refused: the answer is not a valid, correctly signed answer to this request.');
      expect(page.body).to.not.contain('This address can sign in');
      expect((await lastTrailEntry(ids.saml))!.changes).to.deep.equal({ outcome: { before: null, after: 'failed' }, reason: { before: null, after: 'invalid' } });
    });

    it('shows the result to the browser that started the test only', async () => {
      const { idpUrl } = await openTest(ids.saml);
      const acs = await postToAcs(samlAnswer(idpUrl, { attributes: { mail: `admin@${SAML_DOMAIN}` } }));
      const stranger = new Browser(ctx.app);
      expired(await stranger.follow(acs));
    });
  });
});
