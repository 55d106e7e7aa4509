/**
 * Two options of a single-sign-on connection (issue 45), both off by default, through SAML answers signed here
 * (test/server/saml/testIdp.ts):
 * - IdP-initiated sign-in: the ACS takes an unsolicited answer (no InResponseTo, no RelayState of a stored request)
 *   only when the connection allows it, checks it as any other, and sends the browser to the portal's /signin with a
 *   one-time key in a cookie; the interaction the portal's authorisation request opens takes it and signs in.
 * - Just-in-time creation of members: an address at a verified domain routed to the connection that no admin has
 *   becomes a member of the connection's organisation (never a manager), named from the IdP's attributes, audited.
 *
 * G0000001 (id 1) has the connection and the verified domain jit-saml.example, and a second connection that
 * elsewhere-jit.example routes to; G0000002 (id 2) has an admin at jit-saml.example.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { LightMyRequestResponse } from 'fastify';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { authorizationPath, Browser, claimsOf, confirmLogout, exchangeCode, idpUrlOf, pathOf, pkce, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';
import { encode, idpMetadataXml, requestIdOf, responseXml, sign, testIdpKey, type ResponseFields, type TestIdpKey } from '../saml/testIdp.js';

const PUBLIC_URL = 'http://localhost:3000';
const DOMAIN = 'jit-saml.example';
const ELSEWHERE = 'elsewhere-jit.example';
const SURNAME = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname';
const GIVEN_NAME = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname';
const COOKIE = 'sso_idp_initiated';

describe('identity provider: IdP-initiated SAML sign-in and just-in-time members (issue 45)', function () {
  this.timeout(60_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let key: TestIdpKey;
  let connectionId: string;
  let secondConnectionId: string;

  before(async () => {
    key = await testIdpKey();
    connectionId = randomUUID();
    secondConnectionId = randomUUID();
    const metadata = idpMetadataXml([key.certificate]);
    const mapping = { attributeEmail: 'nameID', attributeFamilyName: SURNAME, attributeGivenName: GIVEN_NAME };
    await ctx.db
      .insertInto('ssoConnections')
      .values([
        { id: connectionId, organizationId: 1, protocol: 'saml', name: 'Acme JIT SAML', state: 'on', idpMetadataXml: metadata, ...mapping },
        { id: secondConnectionId, organizationId: 1, protocol: 'saml', name: 'Acme other SAML', state: 'on', idpMetadataXml: metadata, ...mapping, jitProvisioning: true },
      ])
      .execute();
    await ctx.db
      .insertInto('ssoDomains')
      .values([
        { id: randomUUID(), organizationId: 1, domain: DOMAIN, connectionId, verificationToken: 'token-jit', verifiedAt: new Date() },
        { id: randomUUID(), organizationId: 1, domain: ELSEWHERE, connectionId: secondConnectionId, verificationToken: 'token-elsewhere', verifiedAt: new Date() },
      ])
      .execute();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const [email, organizationId] of [[`admin@${DOMAIN}`, 1], [`other-org@${DOMAIN}`, 2]] as const) {
      const admin = await ctx.db.insertInto('admins').values({ email, firstName: '花子', lastName: '佐藤', passwordHash, activatedAt: new Date() }).returning('id').executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values({ adminId: admin.id, organizationId, role: 'manager' }).execute();
    }
  });

  beforeEach(async () => {
    await ctx.db.updateTable('ssoConnections').set({ state: 'on', idpInitiated: false, jitProvisioning: false }).where('id', '=', connectionId).execute();
  });

  const setConnection = (settings: { idpInitiated?: boolean; jitProvisioning?: boolean }) => ctx.db.updateTable('ssoConnections').set(settings).where('id', '=', connectionId).execute();

  /** An answer of the IdP signed for `connection`'s ACS: unsolicited unless `fields.inResponseTo` names a request. */
  function signedAnswer(fields: Partial<ResponseFields> = {}, connection = connectionId) {
    const acsUrl = `${PUBLIC_URL}/saml/${connection}/acs`;
    return encode(sign(responseXml({ acsUrl, audience: `${PUBLIC_URL}/saml/${connection}`, nameId: `admin@${DOMAIN}`, ...fields }), key, 'Assertion'));
  }

  /** The IdP's auto-submitted form: a cross-site POST, none of the portal's cookies with it. */
  const postToAcs = (form: Record<string, string>, connection = connectionId) =>
    ctx.app.inject({ method: 'POST', url: `/saml/${connection}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });

  const refused = (answer: LightMyRequestResponse) => {
    expect(answer.statusCode, answer.body.slice(0, 300)).to.equal(400);
    expect(answer.body).to.match(/シングルサインオン|Single sign-on could not be completed|has expired or was already used|有効期限/);
  };

  /** The portal's /signin in a browser holding the ACS's cookie: its authorisation request, and the interaction's first page. */
  async function portalSignIn(browser: Browser, prompt?: string) {
    const codes = pkce();
    const first = await browser.get(authorizationPath(PUBLIC_URL, codes.challenge, { uiLocales: 'en', ...(prompt ? { prompt } : {}) }));
    const page = await browser.follow(await browser.get(pathOf(first.headers.location as string)));
    return { codes, page };
  }

  /** An unsolicited answer through the ACS into a new browser, and the portal's sign-in that follows. */
  async function idpInitiated(fields: Partial<ResponseFields> = {}) {
    const browser = new Browser(ctx.app);
    const acs = await browser.post(`/saml/${connectionId}/acs`, { SAMLResponse: signedAnswer(fields), RelayState: 'https://portal.example/anything' });
    expect(acs.statusCode, acs.body.slice(0, 300)).to.equal(303);
    expect(acs.headers.location).to.equal(`${PUBLIC_URL}/signin`);
    const cookie = String(acs.headers['set-cookie']);
    expect(cookie).to.match(new RegExp(`^${COOKIE}=[A-Za-z0-9_-]{16,}; Path=/oidc/interaction; Max-Age=300; SameSite=Lax; HttpOnly`));
    return { browser, cookie, ...(await portalSignIn(browser)) };
  }

  const tokensOf = (browser: Browser, codes: ReturnType<typeof pkce>, page: LightMyRequestResponse) => {
    expect(page.statusCode, page.body.slice(0, 300)).to.equal(303);
    return exchangeCode(ctx.app, { browser, pkce: codes, redirect: new URL(page.headers.location as string, PUBLIC_URL), choiceShown: false });
  };

  describe('IdP-initiated sign-in', () => {
    it('refuses an unsolicited answer while the connection does not take them (the default), as an unknown request', async () => {
      const answer = await postToAcs({ SAMLResponse: signedAnswer() });
      expect(answer.statusCode).to.equal(400);
      expect(answer.body).to.match(/has expired or was already used|有効期限/);
      expect(answer.headers['set-cookie'] ?? '').to.not.contain(COOKIE);
      expect((await postToAcs({ SAMLResponse: signedAnswer(), RelayState: 'some-relay-state-of-the-idp' })).statusCode).to.equal(400);
    });

    it('signs in through /signin once the connection takes them: amr fed, the connection, the organisation', async () => {
      await setConnection({ idpInitiated: true });
      const { browser, codes, page } = await idpInitiated();
      const claims = claimsOf((await tokensOf(browser, codes, page)).access_token);
      expect(claims.amr).to.deep.equal(['fed']);
      expect(claims.glopla_id).to.equal('G0000001');
      expect(claims.sso_connection).to.equal(connectionId);
      // the cookie is spent: the next sign-in of this browser shows the sign-in page
      expect(browser.jar.has(COOKIE)).to.equal(false);
      const again = await portalSignIn(browser, 'login');
      expect(again.page.statusCode).to.equal(200);
      expect(again.page.body).to.contain('Continue with single sign-on');
    });

    it('uses the key once: the same cookie in another browser is refused', async () => {
      await setConnection({ idpInitiated: true });
      const { browser, codes, page, cookie } = await idpInitiated();
      await tokensOf(browser, codes, page);
      const copy = new Browser(ctx.app);
      copy.jar.store({ headers: { 'set-cookie': cookie } } as unknown as LightMyRequestResponse);
      refused((await portalSignIn(copy)).page);
    });

    it('refuses a replayed assertion, and an answer once the option is turned off between the ACS and the sign-in', async () => {
      await setConnection({ idpInitiated: true });
      const form = { SAMLResponse: signedAnswer() };
      expect((await postToAcs(form)).statusCode).to.equal(303);
      refused(await postToAcs(form));
      const { page } = await (async () => {
        const browser = new Browser(ctx.app);
        expect((await browser.post(`/saml/${connectionId}/acs`, { SAMLResponse: signedAnswer() })).statusCode).to.equal(303);
        await setConnection({ idpInitiated: false });
        return portalSignIn(browser);
      })();
      refused(page);
    });

    it('still runs every other check: an answer to a request, a wrong audience or recipient, an expired one, an unsigned one', async () => {
      await setConnection({ idpInitiated: true });
      // an answer naming a request (the Response's InResponseTo, or only its assertion's: the Response is not signed)
      refused(await postToAcs({ SAMLResponse: signedAnswer({ inResponseTo: '_somebody-elses-request' }) }));
      refused(await postToAcs({ SAMLResponse: signedAnswer({ subjectInResponseTo: '_somebody-elses-request' }) }));
      refused(await postToAcs({ SAMLResponse: signedAnswer({ audience: `${PUBLIC_URL}/saml/${secondConnectionId}` }) }));
      refused(await postToAcs({ SAMLResponse: signedAnswer({ recipient: `${PUBLIC_URL}/saml/${secondConnectionId}/acs` }) }));
      refused(await postToAcs({ SAMLResponse: signedAnswer({ notBefore: new Date(Date.now() - 20 * 60_000), notOnOrAfter: new Date(Date.now() - 10 * 60_000) }) }));
      const unsigned = encode(responseXml({ acsUrl: `${PUBLIC_URL}/saml/${connectionId}/acs`, audience: `${PUBLIC_URL}/saml/${connectionId}`, nameId: `admin@${DOMAIN}` }));
      refused(await postToAcs({ SAMLResponse: unsigned }));
      // the control: the same answer, nothing changed, is taken
      expect((await postToAcs({ SAMLResponse: signedAnswer() })).statusCode).to.equal(303);
    });

    it('signs a browser already signed in with a password in through the connection: the answer is not left for a later sign-in', async () => {
      await setConnection({ idpInitiated: true });
      const browser = new Browser(ctx.app);
      const before = await signIn(ctx.app, { email: `admin@${DOMAIN}`, password: DEMO_PASSWORD, browser });
      expect(claimsOf(before.tokens.access_token).amr).to.deep.equal(['pwd']);
      expect((await browser.post(`/saml/${connectionId}/acs`, { SAMLResponse: signedAnswer() })).statusCode).to.equal(303);
      const { codes, page } = await portalSignIn(browser);
      const claims = claimsOf((await tokensOf(browser, codes, page)).access_token);
      expect(claims.amr).to.deep.equal(['fed']);
      expect(claims.sso_connection).to.equal(connectionId);
      expect(browser.jar.has(COOKIE)).to.equal(false);
    });

    it("ends another admin's session in the browser (oidc-provider's logout), then signs the answer's admin in", async () => {
      await setConnection({ idpInitiated: true });
      const browser = new Browser(ctx.app);
      await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001', browser });
      expect((await browser.post(`/saml/${connectionId}/acs`, { SAMLResponse: signedAnswer() })).statusCode).to.equal(303);
      const { codes, page } = await portalSignIn(browser);
      expect(browser.jar.has(COOKIE)).to.equal(false);
      // the provider's own confirmation of the logout (its page posts it at once), then the sign-in resumes
      const resumed = await browser.follow(await confirmLogout(browser, page));
      const claims = claimsOf((await tokensOf(browser, codes, resumed)).access_token);
      expect(claims.amr).to.deep.equal(['fed']);
      expect(claims.sub).to.not.equal(claimsOf((await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' })).tokens.access_token).sub);
    });

    it('refuses an address outside the connection’s verified domains', async () => {
      await setConnection({ idpInitiated: true });
      refused(await postToAcs({ SAMLResponse: signedAnswer({ nameId: 'someone@unverified.example' }) }));
    });
  });

  describe('just-in-time members', () => {
    /** The SP-initiated sign-in of `email` through the connection, with the IdP's `attributes`. */
    async function signInAs(email: string, attributes: Record<string, string> = {}) {
      const browser = new Browser(ctx.app);
      const codes = pkce();
      const first = await browser.get(authorizationPath(PUBLIC_URL, codes.challenge, { uiLocales: 'en' }));
      const idpUrl = idpUrlOf(await browser.post(`${pathOf(first.headers.location as string)}/login`, { email, password: '', sso: '1' }));
      const acs = await postToAcs({ SAMLResponse: signedAnswer({ inResponseTo: requestIdOf(idpUrl), nameId: email, attributes }), RelayState: new URL(idpUrl).searchParams.get('RelayState')! });
      expect(acs.statusCode, acs.body.slice(0, 300)).to.equal(303);
      const page = await browser.follow(await browser.get(pathOf(acs.headers.location as string)));
      return { browser, codes, page };
    }

    const adminAt = (email: string) => ctx.db.selectFrom('admins').selectAll().where('email', '=', email).executeTakeFirst();

    it('refuses an address no admin has while the connection does not create members (the default), and creates nobody', async () => {
      refused((await signInAs(`new-off@${DOMAIN}`)).page);
      expect(await adminAt(`new-off@${DOMAIN}`)).to.equal(undefined);
    });

    it('creates a member (never a manager), activated without a password, named by the IdP, audited, and signs them in', async () => {
      await setConnection({ jitProvisioning: true });
      const email = `new-member@${DOMAIN}`;
      const { browser, codes, page } = await signInAs(email, { [SURNAME]: '山田', [GIVEN_NAME]: '太郎' });
      const claims = claimsOf((await tokensOf(browser, codes, page)).access_token);
      expect(claims.amr).to.deep.equal(['fed']);
      expect(claims.glopla_id).to.equal('G0000001');
      const admin = (await adminAt(email))!;
      expect({ lastName: admin.lastName, firstName: admin.firstName, passwordHash: admin.passwordHash }).to.deep.equal({ lastName: '山田', firstName: '太郎', passwordHash: null });
      // kana names the IdP does not send: the e-mail's Latin words, which the admin name's rule accepts
      expect({ kanaLastName: admin.kanaLastName, kanaFirstName: admin.kanaFirstName }).to.deep.equal({ kanaLastName: 'member', kanaFirstName: 'new' });
      expect(admin.activatedAt).to.not.equal(null);
      const affiliations = await ctx.db.selectFrom('affiliations').select(['organizationId', 'role']).where('adminId', '=', admin.id).execute();
      expect(affiliations).to.deep.equal([{ organizationId: 1, role: 'member' }]);
      const entry = await ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'membership.provisioned').where('targetId', '=', String(admin.id)).executeTakeFirstOrThrow();
      expect({ organizationId: entry.organizationId, actor: entry.actorAdminId, label: entry.targetLabel }).to.deep.equal({ organizationId: 1, actor: null, label: email });
      expect(JSON.stringify(entry.changes)).to.contain(connectionId).and.to.contain('"member"');
      // the next sign-in finds the member: no second creation
      const next = await signInAs(email);
      expect(claimsOf((await tokensOf(next.browser, next.codes, next.page)).access_token).glopla_id).to.equal('G0000001');
      expect(await ctx.db.selectFrom('auditEvents').select('id').where('action', '=', 'membership.provisioned').where('targetId', '=', String(admin.id)).execute()).to.have.length(1);
    });

    it('names a member without the IdP’s names (or with names the rule refuses) from the e-mail', async () => {
      await setConnection({ jitProvisioning: true });
      const { browser, codes, page } = await signInAs(`taro.yamada@${DOMAIN}`, { [SURNAME]: 'O&apos;Brien' });
      await tokensOf(browser, codes, page);
      const admin = (await adminAt(`taro.yamada@${DOMAIN}`))!;
      expect([admin.lastName, admin.firstName, admin.kanaLastName, admin.kanaFirstName]).to.deep.equal(['yamada', 'taro', 'yamada', 'taro']);
    });

    it('never adds an admin of another organisation at the address, nor an address of a domain routed to another connection', async () => {
      await setConnection({ jitProvisioning: true });
      refused((await signInAs(`other-org@${DOMAIN}`)).page);
      const other = (await adminAt(`other-org@${DOMAIN}`))!;
      expect(await ctx.db.selectFrom('affiliations').select('organizationId').where('adminId', '=', other.id).execute()).to.deep.equal([{ organizationId: 2 }]);
      // a verified domain of the organisation, but routed to its other connection (which creates members): not through this one
      const acs = await (async () => {
        const browser = new Browser(ctx.app);
        const codes = pkce();
        const first = await browser.get(authorizationPath(PUBLIC_URL, codes.challenge, { uiLocales: 'en' }));
        const idpUrl = idpUrlOf(await browser.post(`${pathOf(first.headers.location as string)}/login`, { email: `admin@${DOMAIN}`, password: '', sso: '1' }));
        const answer = await postToAcs({ SAMLResponse: signedAnswer({ inResponseTo: requestIdOf(idpUrl), nameId: `new@${ELSEWHERE}` }), RelayState: new URL(idpUrl).searchParams.get('RelayState')! });
        return browser.follow(await browser.get(pathOf(answer.headers.location as string)));
      })();
      refused(acs);
      expect(await adminAt(`new@${ELSEWHERE}`)).to.equal(undefined);
    });

    it('signs a new member in through an IdP-initiated answer too', async () => {
      await setConnection({ jitProvisioning: true, idpInitiated: true });
      const { browser, codes, page } = await idpInitiated({ nameId: `unsolicited@${DOMAIN}`, attributes: { [GIVEN_NAME]: 'Hanako' } });
      expect(claimsOf((await tokensOf(browser, codes, page)).access_token).glopla_id).to.equal('G0000001');
      const admin = (await adminAt(`unsolicited@${DOMAIN}`))!;
      expect([admin.firstName, admin.lastName]).to.deep.equal(['Hanako', 'unsolicited']);
    });
  });
});
