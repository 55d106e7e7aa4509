/**
 * Signing in through an organisation's own OpenID Connect identity provider (issue 45): a second oidc-provider,
 * started here on a loopback port over http (customerIdp.ts; demo mode allows it), is the customer's IdP with a client registered for
 * the portal's redirect_uri. Its interaction signs in at once whichever account the test names (`idpUser`); its token
 * endpoint can be made to answer a forged ID token (`trap`) to prove each of the relying party's checks.
 *
 * G0000001 (id 1) has the connection and the verified domain acme.example; its admins there are made below.
 */
import { createHash, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { expect } from 'chai';
import { SignJWT } from 'jose';
import { sealClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { guardedCustomFetch } from '../../../src/server/idp/federation.js';
import { startCustomerIdp, throughIdp } from './customerIdp.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorize, authorizationPath, bearer, Browser, claimsOf, exchangeCode, idpUrlOf, pathOf, pkce, type Pkce } from '../support/oidc.js';
import { solvedCaptcha } from '../support/captcha.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const CLIENT_ID = 'corporate-admin-portal';
const CLIENT_SECRET = 'a-client-secret-of-the-customers-idp';
const DOMAIN = 'acme.example';

/** How the next ID tokens are forged; 'resigned' changes nothing but the signature (the forgery's control). */
type Trap = 'resigned' | 'nonce' | 'issuer' | 'audience' | 'azp' | 'hs256' | 'none' | undefined;

/** The customer's IdP (customerIdp.ts) whose next ID tokens are forged the way `trap.next` says. */
async function startTrappedIdp(trap: { next: Trap }) {
  const idp: Awaited<ReturnType<typeof startCustomerIdp>> = await startCustomerIdp({
    publicUrl: PUBLIC_URL,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    onToken: (response) => {
      if (trap.next) forgeIdToken(response, trap.next, idp.signing);
    },
  });
  return idp;
}

/** Replaces the token answer's ID token by one broken the trap's way. */
function forgeIdToken(response: ServerResponse, trap: NonNullable<Trap>, signing: { privateKey: CryptoKey; kid: string }) {
  const end = response.end.bind(response);
  response.end = ((chunk: unknown, ...rest: unknown[]) => {
    void (async () => {
      const body = JSON.parse(String(chunk)) as Record<string, unknown>;
      const claims = JSON.parse(Buffer.from(String(body.id_token).split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
      if (trap === 'nonce') claims.nonce = 'another-nonce';
      if (trap === 'issuer') claims.iss = 'http://127.0.0.1:1';
      if (trap === 'audience') claims.aud = 'another-client';
      if (trap === 'azp') Object.assign(claims, { aud: [CLIENT_ID, 'another-client'], azp: 'another-client' });
      if (trap === 'none') body.id_token = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`;
      else if (trap === 'hs256') body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(CLIENT_SECRET));
      else body.id_token = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: signing.kid }).sign(signing.privateKey);
      const text = JSON.stringify(body);
      if (!response.headersSent) response.setHeader('content-length', Buffer.byteLength(text));
      (end as (...args: unknown[]) => void)(text, ...rest.filter((argument) => typeof argument === 'function'));
    })();
    return response;
  }) as typeof response.end;
}

/** A passkey of this machine (a software authenticator): its stored public key (COSE) and its answers to a challenge. */
function softPasskey(credentialId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const [x, y] = [Buffer.from(jwk.x!, 'base64url'), Buffer.from(jwk.y!, 'base64url')];
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}, in CBOR
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  let signatures = 0;
  return {
    publicKey: cose.toString('base64url'),
    /** The browser's answer to `challenge` for the portal at PUBLIC_URL (user present and verified). */
    answer(challenge: string) {
      const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: new URL(PUBLIC_URL).origin, crossOrigin: false }));
      // user present and verified; the signature counter grows with each use, as an authenticator's does
      signatures += 1;
      const flagsAndCounter = Buffer.from([0x05, 0, 0, 0, signatures]);
      const authenticatorData = Buffer.concat([createHash('sha256').update(new URL(PUBLIC_URL).hostname).digest(), flagsAndCounter]);
      const signature = sign('sha256', Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]), privateKey);
      const b64 = (buffer: Buffer) => buffer.toString('base64url');
      return JSON.stringify({
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authenticatorData), signature: b64(signature) },
        clientExtensionResults: {},
      });
    },
  };
}

describe('identity provider: signing in through the organisation’s OpenID Connect IdP (issue 45)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let idp: Awaited<ReturnType<typeof startCustomerIdp>>;
  const trap: { next: Trap } = { next: undefined };
  let connectionId: string;
  let domainId: string;

  before(async () => {
    idp = await startTrappedIdp(trap);
    connectionId = randomUUID();
    await ctx.db
      .insertInto('ssoConnections')
      .values({ id: connectionId, organizationId: 1, protocol: 'oidc', name: 'Acme Okta', state: 'on', issuer: idp.issuer, clientId: CLIENT_ID, clientSecretEncrypted: await sealClientSecret({ db: ctx.db, configuredKeys: ctx.config.secretKeys }, connectionId, CLIENT_SECRET), attributeEmail: 'email' })
      .execute();
    domainId = randomUUID();
    await ctx.db.insertInto('ssoDomains').values({ id: domainId, organizationId: 1, domain: DOMAIN, connectionId: null, verificationToken: 'token', verifiedAt: new Date() }).execute();
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    for (const [email, organizationId, activated] of [[`admin@${DOMAIN}`, 1, true], [`invited@${DOMAIN}`, 1, false], [`other-org@${DOMAIN}`, 2, true]] as const) {
      const admin = await ctx.db
        .insertInto('admins')
        .values({ email, firstName: '太郎', lastName: '山田', passwordHash: activated ? passwordHash : null, activatedAt: activated ? new Date() : null })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values({ adminId: admin.id, organizationId, role: 'manager' }).execute();
    }
  });

  after(async () => {
    await idp?.close();
  });

  beforeEach(async () => {
    Object.assign(idp.state, { user: { email: `admin@${DOMAIN}` }, amr: undefined, acr: undefined });
    trap.next = undefined;
    await ctx.db.updateTable('ssoConnections').set({ state: 'on', trustIdpMfa: false }).where('id', '=', connectionId).execute();
    await ctx.db.updateTable('ssoDomains').set({ requireSso: false }).where('id', '=', domainId).execute();
  });

  /** The portal's sign-in page in a new browser, and its interaction's path. */
  async function openSignin() {
    const browser = new Browser(ctx.app);
    const codes = pkce();
    const first = await browser.get(authorizationPath(PUBLIC_URL, codes.challenge, { uiLocales: 'en' }));
    const interaction = pathOf(first.headers.location as string);
    const page = await browser.get(interaction);
    return { browser, codes, interaction, page };
  }

  /**
   * The portal's sign-in page, 'Continue with single sign-on' for the e-mail (or `form`: 'Sign in' with no password,
   * home-realm discovery): the answer (a redirect to the IdP).
   */
  async function continueWithSso(email: string, form: Record<string, string> = { password: '', sso: '1' }) {
    const { browser, codes, interaction, page } = await openSignin();
    expect(page.body).to.contain('Continue with single sign-on');
    const answer = await browser.post(`${interaction}/login`, { email, ...form });
    return { browser, codes, answer };
  }

  /** 'Sign in' with the e-mail and no password, as the page's script sends it once the password is hidden. */
  const NO_PASSWORD = { password: '' };

  /** Through the IdP and back: the portal's answer to the IdP's redirect, and that redirect's URL. */
  async function federatedSignIn(email = `admin@${DOMAIN}`, beforeCallback?: () => Promise<void>, form?: Record<string, string>) {
    const { browser, codes, answer } = await continueWithSso(email, form);
    expect(idpUrlOf(answer)).to.match(new RegExp(`^${idp.issuer}/auth\\?`));
    const callback = await throughIdp(idpUrlOf(answer), PUBLIC_URL);
    await beforeCallback?.();
    const back = await browser.follow(await browser.get(pathOf(callback)));
    return { browser, codes, back, callback };
  }

  async function tokensOf(result: { browser: Browser; codes: Pkce; back: Awaited<ReturnType<Browser['get']>> }) {
    expect(result.back.statusCode, result.back.body.slice(0, 500)).to.equal(303);
    const redirect = new URL(result.back.headers.location as string, PUBLIC_URL);
    return exchangeCode(ctx.app, { browser: result.browser, pkce: result.codes, redirect, choiceShown: false });
  }

  const refused = (answer: { statusCode: number; body: string }) => {
    expect(answer.statusCode).to.equal(400);
    // the callback knows no language but the browser's (Japanese by default); the interaction's pages are in English
    expect(answer.body).to.match(/Single sign-on could not be completed|has expired or was already used|ログインページは有効期限が切れたか/);
  };

  it('sends the address of a verified domain to its IdP with PKCE S256, state and nonce', async () => {
    const { answer } = await continueWithSso(`Admin@${DOMAIN}`);
    const url = new URL(idpUrlOf(answer));
    expect(url.searchParams.get('client_id')).to.equal(CLIENT_ID);
    expect(url.searchParams.get('redirect_uri')).to.equal(`${PUBLIC_URL}/oidc/federation/callback`);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('nonce')).to.match(/^[A-Za-z0-9_-]{20,}$/);
  });

  it("signs in through the IdP with 'Sign in' and no password: home-realm discovery of the address's domain", async () => {
    const tokens = await tokensOf(await federatedSignIn(`admin@${DOMAIN}`, undefined, NO_PASSWORD));
    expect([claimsOf(tokens.access_token).amr, claimsOf(tokens.access_token).sso_connection]).to.deep.equal([['fed'], connectionId]);
    // what the script sends: the hidden, disabled password is no field of the form at all
    expect(idpUrlOf((await continueWithSso(`admin@${DOMAIN}`, {})).answer)).to.match(new RegExp(`^${idp.issuer}/auth\\?`));
  });

  it("asks for the password, as before, when 'Sign in' has none and the domain signs in through no connection that is on", async () => {
    for (const email of ['member@example.com', 'nobody@unverified.example']) {
      const { answer } = await continueWithSso(email, NO_PASSWORD);
      expect(answer.statusCode, email).to.equal(400);
      expect(answer.body).to.contain('Please enter your e-mail address and password.');
    }
    await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('id', '=', connectionId).execute();
    const { answer } = await continueWithSso(`admin@${DOMAIN}`, NO_PASSWORD);
    expect(answer.statusCode).to.equal(400);
    expect(answer.body).to.contain('Please enter your e-mail address and password.');
  });

  it('still signs an admin at the domain in with the password when the domain does not require single sign-on', async () => {
    const result = await authorize(ctx.app, { email: `admin@${DOMAIN}`, password: DEMO_PASSWORD, uiLocales: 'en' });
    expect(result.redirect.searchParams.get('code')).to.be.a('string');
  });

  describe("the sign-in page's question: does this address's domain sign in through single sign-on? (POST …/realm)", () => {
    async function ask(email: string, browser?: Awaited<ReturnType<typeof openSignin>>) {
      const opened = browser ?? (await openSignin());
      const answer = await opened.browser.post(`${opened.interaction}/realm`, { email });
      expect(answer.statusCode, answer.body).to.equal(200);
      expect(answer.headers['cache-control']).to.equal('no-store');
      return answer.json() as { sso: boolean; required: boolean };
    }

    it('answers sso for an address at a verified domain whose connection is on, and not for other addresses', async () => {
      const opened = await openSignin();
      expect(opened.page.body).to.contain(`data-realm="${opened.interaction}/realm"`);
      expect(await ask(`Admin@${DOMAIN.toUpperCase()}`, opened)).to.deep.equal({ sso: true, required: false });
      expect(await ask('member@example.com', opened)).to.deep.equal({ sso: false, required: false });
      expect(await ask('not an address', opened)).to.deep.equal({ sso: false, required: false });
      expect(await ask('', opened)).to.deep.equal({ sso: false, required: false });
    });

    it('says when the domain requires it, and no longer offers it once the connection is paused', async () => {
      await ctx.db.updateTable('ssoDomains').set({ requireSso: true }).where('id', '=', domainId).execute();
      expect(await ask(`admin@${DOMAIN}`)).to.deep.equal({ sso: true, required: true });
      await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('id', '=', connectionId).execute();
      expect(await ask(`admin@${DOMAIN}`)).to.deep.equal({ sso: false, required: true });
    });

    it("answers the domain's rule alone: an address with no account gets the same answer as an admin's", async () => {
      const opened = await openSignin();
      const admin = await opened.browser.post(`${opened.interaction}/realm`, { email: `admin@${DOMAIN}` });
      const nobody = await opened.browser.post(`${opened.interaction}/realm`, { email: `nobody-here@${DOMAIN}` });
      expect(nobody.body).to.equal(admin.body);
    });

    it('answers only the browser of a sign-in page that is still open', async () => {
      const opened = await openSignin();
      const stranger = new Browser(ctx.app);
      expect((await stranger.post(`${opened.interaction}/realm`, { email: `admin@${DOMAIN}` })).statusCode).to.equal(400);
      expect((await opened.browser.post('/oidc/interaction/unknown-uid/realm', { email: `admin@${DOMAIN}` })).statusCode).to.equal(400);
    });
  });

  it('keeps an address of no verified domain on the password page', async () => {
    const { answer } = await continueWithSso('member@example.com');
    expect(answer.statusCode).to.equal(400);
    expect(answer.body).to.contain('Single sign-on is not set up for this e-mail address');
  });

  it('signs the admin in for the connection’s organisation with amr fed and the connection, and records it', async () => {
    const tokens = await tokensOf(await federatedSignIn());
    const claims = claimsOf(tokens.access_token);
    expect(claims.amr).to.deep.equal(['fed']);
    expect(claims.glopla_id).to.equal('G0000001');
    expect(claims.sso_connection).to.equal(connectionId);
    expect(claims).to.not.have.property('mfa_time');
    const entry = await ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'signIn.succeeded').where('targetLabel', '=', `admin@${DOMAIN}`).orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry.organizationId).to.equal(1);
    expect(JSON.stringify(entry.changes)).to.contain(connectionId);
  });

  it('gives a session that may require single sign-on for the connection’s domain (its sso_connection)', async () => {
    const tokens = await tokensOf(await federatedSignIn());
    const required = await ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/1/sso_domains/${domainId}`, headers: bearer(tokens.access_token), payload: { require_sso: true } });
    expect(required.statusCode, required.body).to.equal(200);
    expect(required.json().sso_domain.require_sso).to.equal(true);
  });

  it('counts the IdP’s second factor only when the connection trusts it', async () => {
    idp.state.amr = ['pwd', 'mfa'];
    expect(claimsOf((await tokensOf(await federatedSignIn())).access_token).amr).to.deep.equal(['fed']);
    await ctx.db.updateTable('ssoConnections').set({ trustIdpMfa: true }).where('id', '=', connectionId).execute();
    expect(claimsOf((await tokensOf(await federatedSignIn())).access_token).amr).to.deep.equal(['fed', 'mfa']);
    idp.state.amr = ['pwd'];
    expect(claimsOf((await tokensOf(await federatedSignIn())).access_token).amr).to.deep.equal(['fed']);
    // or its acr (OpenID PAPE's multi-factor policy)
    idp.state.acr = 'http://schemas.openid.net/pape/policies/2007/06/multi-factor';
    const withAcr = claimsOf((await tokensOf(await federatedSignIn())).access_token);
    expect(withAcr.amr).to.deep.equal(['fed', 'mfa']);
    expect(withAcr.mfa_time).to.be.a('number');
  });

  it('activates an invited admin of the organisation without a password', async () => {
    idp.state.user = { email: `invited@${DOMAIN}` };
    const tokens = await tokensOf(await federatedSignIn(`invited@${DOMAIN}`));
    expect(claimsOf(tokens.access_token).glopla_id).to.equal('G0000001');
    const admin = await ctx.db.selectFrom('admins').select(['activatedAt', 'passwordHash']).where('email', '=', `invited@${DOMAIN}`).executeTakeFirstOrThrow();
    expect(admin.activatedAt).to.not.equal(null);
    expect(admin.passwordHash).to.equal(null);
  });

  it('refuses an answer whose state names no request, and one from another browser', async () => {
    const { browser, answer } = await continueWithSso(`admin@${DOMAIN}`);
    refused(await browser.get('/oidc/federation/callback?code=abc&state=an-unknown-state-of-somebody'));
    const callback = await throughIdp(idpUrlOf(answer), PUBLIC_URL);
    const stranger = new Browser(ctx.app);
    refused(await stranger.follow(await stranger.get(pathOf(callback))));
  });

  it('shows the refusal, not an error of the server, when the IdP answers an error', async () => {
    const { browser, answer } = await continueWithSso(`admin@${DOMAIN}`);
    const state = new URL(idpUrlOf(answer)).searchParams.get('state')!;
    const back = await browser.follow(await browser.get(`/oidc/federation/callback?error=access_denied&state=${state}&iss=${encodeURIComponent(idp.issuer)}`));
    refused(back);
    expect(back.body).to.contain('Single sign-on could not be completed');
  });

  it('refuses a replayed answer (the state and the code are used once)', async () => {
    const first = await federatedSignIn();
    await tokensOf(first);
    refused(await first.browser.follow(await first.browser.get(pathOf(first.callback))));
  });

  it('accepts an ID token re-signed with the IdP’s key and nothing changed (the traps below change one thing each)', async () => {
    trap.next = 'resigned';
    expect(claimsOf((await tokensOf(await federatedSignIn())).access_token).amr).to.deep.equal(['fed']);
  });

  for (const kind of ['nonce', 'issuer', 'audience', 'azp', 'hs256', 'none'] as const) {
    it(`refuses an ID token with the trap: ${kind}`, async () => {
      trap.next = kind;
      refused((await federatedSignIn()).back);
    });
  }

  it('refuses an e-mail outside the connection’s verified domains, even an admin’s of its organisation', async () => {
    idp.state.user = { email: 'manager@example.com' };
    refused((await federatedSignIn()).back);
  });

  it('refuses an e-mail the IdP says is not verified', async () => {
    idp.state.user = { email: `admin@${DOMAIN}`, email_verified: false };
    refused((await federatedSignIn()).back);
  });

  it('refuses an address with no admin, and an admin of another organisation', async () => {
    idp.state.user = { email: `nobody@${DOMAIN}` };
    refused((await federatedSignIn()).back);
    idp.state.user = { email: `other-org@${DOMAIN}` };
    refused((await federatedSignIn()).back);
  });

  it('creates a member just in time only when the connection says so: a new address, named by the IdP’s claims, audited', async () => {
    idp.state.user = { email: `jit@${DOMAIN}`, family_name: '鈴木', given_name: '一郎' };
    refused((await federatedSignIn(`jit@${DOMAIN}`)).back);
    expect(await ctx.db.selectFrom('admins').select('id').where('email', '=', `jit@${DOMAIN}`).executeTakeFirst()).to.equal(undefined);
    await ctx.db.updateTable('ssoConnections').set({ jitProvisioning: true, attributeFamilyName: 'family_name', attributeGivenName: 'given_name' }).where('id', '=', connectionId).execute();
    try {
      const claims = claimsOf((await tokensOf(await federatedSignIn(`jit@${DOMAIN}`))).access_token);
      expect([claims.amr, claims.glopla_id, claims.sso_connection]).to.deep.equal([['fed'], 'G0000001', connectionId]);
      const admin = await ctx.db.selectFrom('admins').selectAll().where('email', '=', `jit@${DOMAIN}`).executeTakeFirstOrThrow();
      expect([admin.lastName, admin.firstName, admin.kanaLastName, admin.kanaFirstName, admin.passwordHash]).to.deep.equal(['鈴木', '一郎', 'jit', 'jit', null]);
      expect(await ctx.db.selectFrom('affiliations').select(['organizationId', 'role']).where('adminId', '=', admin.id).execute()).to.deep.equal([{ organizationId: 1, role: 'member' }]);
      const entry = await ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'membership.provisioned').where('targetId', '=', String(admin.id)).executeTakeFirstOrThrow();
      expect([entry.organizationId, entry.actorAdminId]).to.deep.equal([1, null]);
      // an admin of another organisation at a domain of this one is still refused, and gets no affiliation here
      idp.state.user = { email: `other-org@${DOMAIN}` };
      refused((await federatedSignIn(`other-org@${DOMAIN}`)).back);
      const other = await ctx.db.selectFrom('admins').select('id').where('email', '=', `other-org@${DOMAIN}`).executeTakeFirstOrThrow();
      expect(await ctx.db.selectFrom('affiliations').select('organizationId').where('adminId', '=', other.id).execute()).to.deep.equal([{ organizationId: 2 }]);
      // nor an address outside the verified domains
      idp.state.user = { email: 'newcomer@unverified.example' };
      refused((await federatedSignIn(`jit@${DOMAIN}`)).back);
      expect(await ctx.db.selectFrom('admins').select('id').where('email', '=', 'newcomer@unverified.example').executeTakeFirst()).to.equal(undefined);
    } finally {
      await ctx.db.updateTable('ssoConnections').set({ jitProvisioning: false }).where('id', '=', connectionId).execute();
    }
  });

  it('refuses the answer once the connection is paused', async () => {
    const pause = async () => {
      await ctx.db.updateTable('ssoConnections').set({ state: 'paused' }).where('id', '=', connectionId).execute();
    };
    refused((await federatedSignIn(`admin@${DOMAIN}`, pause)).back);
  });

  describe('a domain that requires single sign-on', () => {
    beforeEach(async () => {
      await ctx.db.updateTable('ssoDomains').set({ requireSso: true }).where('id', '=', domainId).execute();
    });

    it('refuses the password with a message leading to single sign-on', async () => {
      const result = await authorize(ctx.app, { email: `admin@${DOMAIN}`, password: DEMO_PASSWORD, uiLocales: 'en' });
      expect(result.lastStatus).to.equal(403);
      expect(result.lastPage).to.contain('requires single sign-on');
      expect(result.lastPage).to.contain('Continue with single sign-on');
    });

    it('says so in Japanese by default, beside シングルサインオンで続ける', async () => {
      const result = await authorize(ctx.app, { email: `admin@${DOMAIN}`, password: DEMO_PASSWORD });
      expect(result.lastStatus).to.equal(403);
      expect(result.lastPage).to.contain('シングルサインオンでのログインが必要です');
      expect(result.lastPage).to.match(/<button type="submit" class="idp-button" name="sso" value="1" formnovalidate>シングルサインオンで続ける<\/button>/);
    });

    it('still signs in through the IdP', async () => {
      expect(claimsOf((await tokensOf(await federatedSignIn())).access_token).amr).to.deep.equal(['fed']);
    });

    it("sends 'Sign in' with no password to the IdP, and still refuses it with a password", async () => {
      expect(claimsOf((await tokensOf(await federatedSignIn(`admin@${DOMAIN}`, undefined, NO_PASSWORD))).access_token).amr).to.deep.equal(['fed']);
      const { answer } = await continueWithSso(`admin@${DOMAIN}`, { password: DEMO_PASSWORD });
      expect(answer.statusCode).to.equal(403);
      expect(answer.body).to.contain('requires single sign-on');
    });

    it('refuses a passkey of an address at the domain, with the message leading to single sign-on', async () => {
      const passkey = softPasskey('acme-admin-passkey');
      const admin = await ctx.db.selectFrom('admins').select('id').where('email', '=', `admin@${DOMAIN}`).executeTakeFirstOrThrow();
      await ctx.db.deleteFrom('adminPasskeys').where('credentialId', '=', 'acme-admin-passkey').execute();
      await ctx.db.insertInto('adminPasskeys').values({ adminId: admin.id, credentialId: 'acme-admin-passkey', publicKey: passkey.publicKey, name: 'Laptop' }).execute();
      const passkeySignIn = async () => {
        const browser = new Browser(ctx.app);
        const first = await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge, { uiLocales: 'en' }));
        const interaction = pathOf(first.headers.location as string);
        const options = JSON.parse((await browser.post(`${interaction}/passkey/options`, {})).json().options as string) as { challenge: string };
        return browser.post(`${interaction}/passkey`, { credential: passkey.answer(options.challenge) });
      };
      const refusedAnswer = await passkeySignIn();
      expect(refusedAnswer.statusCode).to.equal(403);
      expect(refusedAnswer.body).to.contain('requires single sign-on');
      // the same passkey signs in once the domain no longer requires it (the refusal is the rule's, not the passkey's)
      await ctx.db.updateTable('ssoDomains').set({ requireSso: false }).where('id', '=', domainId).execute();
      const accepted = await passkeySignIn();
      expect(accepted.statusCode, accepted.body.slice(0, 300)).to.equal(303);
    });

    it('answers a password reset for an address at the domain as for any address, and sends no mail', async () => {
      const outbox = async (): Promise<Array<{ to: string }>> => (await ctx.app.inject({ url: '/dev/mails.json' })).json();
      const requestReset = async (email: string) =>
        ctx.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call?lang=en', payload: { email, ...(await solvedCaptcha(ctx.app)) } });
      const unknown = await requestReset(`nobody@${DOMAIN}`);
      const required = await requestReset(`admin@${DOMAIN}`);
      expect(required.statusCode).to.equal(unknown.statusCode);
      expect(required.body).to.equal(unknown.body);
      expect((await outbox()).filter((mail) => mail.to === `admin@${DOMAIN}`)).to.have.length(0);
      await ctx.db.updateTable('ssoDomains').set({ requireSso: false }).where('id', '=', domainId).execute();
      await requestReset(`admin@${DOMAIN}`);
      expect((await outbox()).filter((mail) => mail.to === `admin@${DOMAIN}`)).to.have.length(1);
    });

    it('leaves other addresses’ passwords alone', async () => {
      const result = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      expect(result.redirect.searchParams.get('code')).to.be.a('string');
    });
  });
});

describe('identity provider: the home-realm question is counted per client address, as the sign-in (issue 45)', () => {
  // the limit follows the sign-in's address limit: five lookups per failure it allows
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_MAX_ADDRESS_FAILURES: '2' } });

  it('refuses the eleventh question of an address in the window with 429 and Retry-After; another address is still answered', async () => {
    const ask = async (browser: Browser) => {
      const first = await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge, { uiLocales: 'en' }));
      return browser.post(`${pathOf(first.headers.location as string)}/realm`, { email: 'someone@example.com' });
    };
    const browser = new Browser(ctx.app, undefined, '192.0.2.10');
    for (let lookup = 1; lookup <= 10; lookup += 1) expect((await ask(browser)).statusCode, `lookup ${lookup}`).to.equal(200);
    const refused = await ask(browser);
    expect(refused.statusCode).to.equal(429);
    expect(Number(refused.headers['retry-after'])).to.be.greaterThan(0);
    expect((await ask(new Browser(ctx.app, undefined, '192.0.2.11'))).statusCode).to.equal(200);
  });
});

describe('identity provider: the fetches to a customer’s IdP (issue 45)', () => {
  it('go to public addresses over https only; loopback http only in demo mode', async () => {
    const refusal = (promise: Promise<unknown>) => promise.then(() => 'fetched', (error: Error) => error.message);
    expect(await refusal(guardedCustomFetch(false)('http://127.0.0.1:9/.well-known/openid-configuration', {} as never))).to.contain('https required');
    for (const url of ['https://127.0.0.1:9/', 'https://10.0.0.1/', 'https://[::1]/', 'https://169.254.169.254/latest/meta-data', 'https://[::ffff:10.0.0.1]/']) {
      expect(await refusal(guardedCustomFetch(false)(url, {} as never)), url).to.contain('private address');
    }
    // demo mode: still no private network beyond this machine
    expect(await refusal(guardedCustomFetch(true)('https://10.0.0.1/', {} as never))).to.contain('private address');
    expect(await refusal(guardedCustomFetch(true)('http://10.0.0.1/', {} as never))).to.contain('https required');
  });
});
