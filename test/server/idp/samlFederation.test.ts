/**
 * Signing in through an organisation's SAML 2.0 IdP from the sign-in page (issue 45): 'Continue with single sign-on'
 * sends the address of a verified domain whose connection is SAML to the IdP with a signed AuthnRequest; the IdP's
 * answer is POSTed cross-site (no cookie of the portal's) to the ACS, which checks it and sends the browser back to its
 * interaction; the sign-in is the OpenID Connect federation's (amr fed, the connection in the token, the trail).
 * The IdP is test/server/saml/testIdp.ts: responses built and signed here.
 *
 * G0000001 (id 1) has the connection and the verified domain saml.example; G0000002 (id 2) another connection.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { LightMyRequestResponse } from 'fastify';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { MULTI_FACTOR_CONTEXTS } from '../../../src/server/saml/serviceProvider.js';
import { authorizationPath, Browser, claimsOf, exchangeCode, idpUrlOf, pathOf, pkce } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';
import { encode, idpMetadataXml, IDP_SSO_URL, requestIdOf, responseXml, sign, testIdpKey, type ResponseFields, type TestIdpKey } from '../saml/testIdp.js';

const PUBLIC_URL = 'http://localhost:3000';
const DOMAIN = 'saml.example';
const OTHER_DOMAIN = 'other-saml.example';
/** G0000001's domain routed to its second connection. */
const ELSEWHERE = 'elsewhere-saml.example';

describe('identity provider: signing in through the organisation’s SAML IdP (issue 45)', function () {
  this.timeout(60_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let key: TestIdpKey;
  let connectionId: string;
  let otherConnectionId: string;
  let secondConnectionId: string;

  before(async () => {
    key = await testIdpKey();
    connectionId = randomUUID();
    otherConnectionId = randomUUID();
    secondConnectionId = randomUUID();
    const metadata = idpMetadataXml([key.certificate]);
    await ctx.db
      .insertInto('ssoConnections')
      .values([
        { id: connectionId, organizationId: 1, protocol: 'saml', name: 'Acme SAML', state: 'on', idpMetadataXml: metadata, attributeEmail: 'nameID' },
        { id: otherConnectionId, organizationId: 2, protocol: 'saml', name: 'Other SAML', state: 'on', idpMetadataXml: metadata, attributeEmail: 'nameID' },
        { id: secondConnectionId, organizationId: 1, protocol: 'saml', name: 'Acme second SAML', state: 'on', idpMetadataXml: metadata, attributeEmail: 'nameID' },
      ])
      .execute();
    await ctx.db
      .insertInto('ssoDomains')
      .values([
        { id: randomUUID(), organizationId: 1, domain: DOMAIN, connectionId, verificationToken: 'token', verifiedAt: new Date() },
        { id: randomUUID(), organizationId: 2, domain: OTHER_DOMAIN, connectionId: otherConnectionId, verificationToken: 'token2', verifiedAt: new Date() },
        { id: randomUUID(), organizationId: 1, domain: ELSEWHERE, connectionId: secondConnectionId, verificationToken: 'token3', verifiedAt: new Date() },
      ])
      .execute();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const [email, organizationId] of [[`admin@${DOMAIN}`, 1], [`admin@${OTHER_DOMAIN}`, 2], [`admin@${ELSEWHERE}`, 1]] as const) {
      const admin = await ctx.db.insertInto('admins').values({ email, firstName: '花子', lastName: '佐藤', passwordHash, activatedAt: new Date() }).returning('id').executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values({ adminId: admin.id, organizationId, role: 'manager' }).execute();
    }
  });

  beforeEach(async () => {
    await ctx.db.updateTable('ssoConnections').set({ state: 'on', trustIdpMfa: false }).where('id', '=', connectionId).execute();
  });

  /** The sign-in page, 'Continue with single sign-on' for the e-mail: the browser and the IdP URL it is sent to. */
  async function continueWithSso(email: string) {
    const browser = new Browser(ctx.app);
    const codes = pkce();
    const first = await browser.get(authorizationPath(PUBLIC_URL, codes.challenge, { uiLocales: 'en' }));
    const answer = await browser.post(`${pathOf(first.headers.location as string)}/login`, { email, password: '', sso: '1' });
    return { browser, codes, idpUrl: idpUrlOf(answer), answer };
  }

  /** The IdP's signed answer to the request in `idpUrl`, for `connection`'s ACS. */
  function samlAnswer(idpUrl: string, connection: string, fields: Partial<ResponseFields> = {}) {
    const acsUrl = `${PUBLIC_URL}/saml/${connection}/acs`;
    const xml = sign(responseXml({ inResponseTo: requestIdOf(idpUrl), acsUrl, audience: `${PUBLIC_URL}/saml/${connection}`, nameId: `admin@${DOMAIN}`, ...fields }), key, 'Assertion');
    return { SAMLResponse: encode(xml), RelayState: new URL(idpUrl).searchParams.get('RelayState')! };
  }

  /** The IdP's auto-submitted form: a cross-site POST, so none of the portal's cookies come with it. */
  const postToAcs = (connection: string, form: Record<string, string>) =>
    ctx.app.inject({ method: 'POST', url: `/saml/${connection}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

  async function signedIn(browser: Browser, codes: ReturnType<typeof pkce>, acs: LightMyRequestResponse) {
    expect(acs.statusCode, acs.body.slice(0, 300)).to.equal(303);
    const back = await browser.follow(await browser.get(pathOf(acs.headers.location as string)));
    expect(back.statusCode, back.body.slice(0, 300)).to.equal(303);
    return exchangeCode(ctx.app, { browser, pkce: codes, redirect: new URL(back.headers.location as string, PUBLIC_URL), choiceShown: false });
  }

  async function fullSignIn(fields: Partial<ResponseFields> = {}) {
    const { browser, codes, idpUrl } = await continueWithSso(`admin@${DOMAIN}`);
    return signedIn(browser, codes, await postToAcs(connectionId, samlAnswer(idpUrl, connectionId, fields)));
  }

  const refused = (answer: LightMyRequestResponse) => {
    expect(answer.statusCode).to.equal(400);
    expect(answer.body).to.match(/シングルサインオン|Single sign-on could not be completed|has expired or was already used|有効期限/);
  };

  it('sends the address of a verified domain with a SAML connection to its IdP: a signed AuthnRequest and a RelayState', async () => {
    const { idpUrl, answer } = await continueWithSso(`Admin@${DOMAIN}`);
    expect(idpUrl.startsWith(`${IDP_SSO_URL}?`)).to.equal(true);
    // a page going on to the IdP, not a redirect of the form's POST: the pages' form-action stays 'self'
    expect(answer.body).to.contain('Continue to your organization');
    expect(answer.headers['content-security-policy']).to.contain("form-action 'self'");
    const params = new URL(idpUrl).searchParams;
    expect(params.get('SAMLRequest')).to.be.a('string').and.not.empty;
    expect(params.get('Signature')).to.be.a('string').and.not.empty;
    expect(params.get('RelayState')).to.match(/^[A-Za-z0-9_-]{16,80}$/);
  });

  it('signs the admin in for the connection’s organisation with amr fed and the connection, and records it', async () => {
    const claims = claimsOf((await fullSignIn()).access_token);
    expect(claims.amr).to.deep.equal(['fed']);
    expect(claims.glopla_id).to.equal('G0000001');
    expect(claims.sso_connection).to.equal(connectionId);
    const entry = await ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'signIn.succeeded').where('targetLabel', '=', `admin@${DOMAIN}`).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry.organizationId).to.equal(1);
    expect(JSON.stringify(entry.changes)).to.contain(connectionId);
  });

  it('counts the IdP’s multi-factor AuthnContextClassRef only when the connection trusts it', async () => {
    const classRef = MULTI_FACTOR_CONTEXTS[0]!;
    expect(claimsOf((await fullSignIn({ classRef })).access_token).amr).to.deep.equal(['fed']);
    await ctx.db.updateTable('ssoConnections').set({ trustIdpMfa: true }).where('id', '=', connectionId).execute();
    expect(claimsOf((await fullSignIn({ classRef })).access_token).amr).to.deep.equal(['fed', 'mfa']);
    expect(claimsOf((await fullSignIn()).access_token).amr).to.deep.equal(['fed']);
  });

  it('refuses a replayed POST of the answer', async () => {
    const { browser, codes, idpUrl } = await continueWithSso(`admin@${DOMAIN}`);
    const form = samlAnswer(idpUrl, connectionId);
    await signedIn(browser, codes, await postToAcs(connectionId, form));
    refused(await postToAcs(connectionId, form));
  });

  it('refuses an answer posted to another connection’s ACS, and one made for another connection', async () => {
    const first = await continueWithSso(`admin@${DOMAIN}`);
    refused(await postToAcs(otherConnectionId, samlAnswer(first.idpUrl, otherConnectionId)));
    const second = await continueWithSso(`admin@${DOMAIN}`);
    refused(await postToAcs(connectionId, samlAnswer(second.idpUrl, otherConnectionId)));
  });

  it('refuses an e-mail of another organisation’s domain, and one of the organisation’s domain routed to its other connection', async () => {
    const first = await continueWithSso(`admin@${DOMAIN}`);
    refused(await postToAcs(connectionId, samlAnswer(first.idpUrl, connectionId, { nameId: `admin@${OTHER_DOMAIN}` })));
    // the ACS takes it (a verified domain of the organisation); the sign-in does not (the domain routes elsewhere)
    const second = await continueWithSso(`admin@${DOMAIN}`);
    const acs = await postToAcs(connectionId, samlAnswer(second.idpUrl, connectionId, { nameId: `admin@${ELSEWHERE}` }));
    expect(acs.statusCode).to.equal(303);
    refused(await second.browser.follow(await second.browser.get(pathOf(acs.headers.location as string))));
  });

  it('refuses the way back from another browser (the interaction’s cookie)', async () => {
    const { idpUrl } = await continueWithSso(`admin@${DOMAIN}`);
    const acs = await postToAcs(connectionId, samlAnswer(idpUrl, connectionId));
    expect(acs.statusCode).to.equal(303);
    const stranger = new Browser(ctx.app);
    refused(await stranger.follow(await stranger.get(pathOf(acs.headers.location as string))));
  });

  it('refuses the answer once the connection is paused', async () => {
    const { idpUrl } = await continueWithSso(`admin@${DOMAIN}`);
    await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('id', '=', connectionId).execute();
    refused(await postToAcs(connectionId, samlAnswer(idpUrl, connectionId)));
  });

  it('shows the refusal page for an unsigned, malformed or unknown answer', async () => {
    const { idpUrl } = await continueWithSso(`admin@${DOMAIN}`);
    const relayState = new URL(idpUrl).searchParams.get('RelayState')!;
    refused(await postToAcs(connectionId, { SAMLResponse: encode('<not-saml/>'), RelayState: relayState }));
    refused(await postToAcs(connectionId, { SAMLResponse: 'x', RelayState: 'an-unknown-relay-state-of-somebody' }));
    refused(await postToAcs('not-a-uuid', {}));
    // larger than the ACS takes (512 KiB): the page, not an error of the server
    const tooLarge = await postToAcs(connectionId, { SAMLResponse: 'A'.repeat(600 * 1024), RelayState: relayState });
    expect(tooLarge.statusCode).to.equal(413);
    expect(tooLarge.body).to.contain('シングルサインオン');
  });
});
