/**
 * Two-step sign-in with an authenticator app and recovery codes (issue 29), through the API and the provider's pages:
 * the admin sets the app up on their own account (a recent password entry), verifies it with a code computed from the
 * shown secret, gets ten recovery codes once; from then on the sign-in asks for a code after the password (a code is
 * taken once; a recovery code once), the tokens say `amr` pwd+otp+mfa; the admin is mailed; the trail has each change.
 */
import { expect } from 'chai';
import { CALLBACK_PATH } from '../../../src/common/identity.js';
import { ACR } from '../../../src/server/idp/constants.js';
import { Secret, TOTP } from 'otpauth';
import { authorize, bearer, claimsOf, exchangeCode } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

const PUBLIC_URL = 'http://localhost:3000';
const MEMBER = { email: 'member@example.com', password: 'DemoPassw0rd!', uiLocales: 'en' };

/** The code an authenticator app shows for the secret, at a moment (now by default). */
const appCode = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

describe('Two-step sign-in: authenticator app and recovery codes (issue 29)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let member: Record<string, string>;
  let secret: string;
  let recoveryCodes: string[];

  before(async () => {
    // signed in a while ago: a session the changes below end (they end the tokens of the second they happen in too)
    member = bearer(await accessToken(ctx.app, { sub: '2', issuedAt: Math.floor(Date.now() / 1000) - 60 }));
    // account events reach the organisations the admin has signed in to
    await ctx.db.updateTable('affiliations').set({ firstSignedInAt: new Date() }).where('adminId', '=', 2).execute();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = member, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/admins/me/${url}`, headers, ...(payload ? { payload } : {}) });
  /** Mails to the address so far, newest first (the outbox of demo mode; the queue sends them a moment later). */
  async function mailsTo(address: string, count: number): Promise<Json[]> {
    for (;;) {
      const mails = ((await ctx.app.inject({ url: '/dev/mails.json' })).json() as Json[]).filter((mail) => mail.to === address);
      if (mails.length >= count) return mails;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const trail = async (action: string) =>
    ctx.db.selectFrom('auditEvents').select(['action', 'organizationId']).where('action', '=', action).where('targetId', '=', '2').execute();

  it("sets the app up: a secret and its QR code, verified by a code of it; the first factor brings ten recovery codes, shown once; the admin is mailed", async () => {
    const NO_RULE = { two_step_required: false, enrolment_link_required: false };
    expect((await call('GET', 'two_step')).json()).to.deep.equal({ passkeys: [], authenticator_app: false, recovery_codes_left: 0, ...NO_RULE });
    const setup = await call('POST', 'authenticator_app');
    expect(setup.statusCode, setup.body).to.equal(201);
    ({ secret } = setup.json());
    expect(secret).to.match(/^[A-Z2-7]{32}$/);
    expect(setup.json().uri).to.match(/^otpauth:\/\/totp\/Corporate%20Admin%20Portal:member%40example\.com\?issuer=Corporate%20Admin%20Portal&secret=[A-Z2-7]+&algorithm=SHA1&digits=6&period=30$/);
    expect(setup.json().qr_code).to.match(/^data:image\/svg\+xml;base64,/);

    const wrong = await call('PUT', 'authenticator_app', member, { code: appCode(secret, Date.now() - 10 * 60_000) });
    expect(wrong.statusCode).to.equal(422);
    expect(wrong.json().errors).to.deep.equal([{ field: 'code', code: 'invalid', meta: {} }]);
    const malformed = await call('PUT', 'authenticator_app', member, { code: 'abc' });
    expect(malformed.statusCode, 'the form schema').to.equal(422);

    const passwordOnly = member;
    const verified = await call('PUT', 'authenticator_app', member, { code: appCode(secret) });
    expect(verified.statusCode, verified.body).to.equal(200);
    recoveryCodes = verified.json().recovery_codes;
    // the admin's other sessions end; the caller's goes on, now with the factor it just proved (issue 44 finding 1)
    expect((await call('GET', 'two_step', passwordOnly)).statusCode, 'the session before the factor').to.equal(401);
    member = bearer(verified.json().session.access_token);
    expect(claimsOf(verified.json().session.access_token).amr).to.deep.equal(['pwd', 'otp', 'mfa']);
    expect(claimsOf(verified.json().session.access_token).mfa_time).to.be.closeTo(Date.now() / 1000, 60);
    expect(recoveryCodes).to.have.length(10);
    for (const code of recoveryCodes) expect(code).to.match(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
    expect(new Set(recoveryCodes).size).to.equal(10);
    expect((await call('GET', 'two_step')).json()).to.deep.equal({ passkeys: [], authenticator_app: true, recovery_codes_left: 10, ...NO_RULE });
    // never kept readable: the secret encrypted, the codes hashed
    const stored = await ctx.db.selectFrom('adminAuthenticatorApps').select('secretEncrypted').where('adminId', '=', 2).executeTakeFirstOrThrow();
    expect(stored.secretEncrypted).to.not.contain(secret);
    const hashes = await ctx.db.selectFrom('adminRecoveryCodes').select('codeHash').where('adminId', '=', 2).execute();
    expect(hashes.map((row) => row.codeHash)).to.not.include.members(recoveryCodes);

    expect((await call('POST', 'authenticator_app')).statusCode, 'a second app while one is on').to.equal(403);
    const [mail] = await mailsTo(MEMBER.email, 1);
    expect(mail!.subject).to.equal('【法人管理者ポータル】2段階認証に認証アプリを追加しました');
    expect(mail!.text).to.contain(`${PUBLIC_URL}/account/security`);
    expect(await trail('account.twoStepAdded')).to.deep.equal([{ action: 'account.twoStepAdded', organizationId: 1 }]);
    expect(await trail('account.recoveryCodesGenerated')).to.have.length(1);
  });

  it('asks for a code after the password; a code of the app signs in once (no replay), and the tokens say pwd, otp, mfa', async () => {
    const stopped = await authorize(ctx.app, MEMBER);
    expect(stopped.lastPage, 'the second step, not a sign-in').to.contain('<label for="code">Authentication code</label>');
    expect(stopped.lastPage).to.contain('autocomplete="one-time-code"');

    const code = appCode(secret, Date.now() + 30_000); // the next step: the set-up's step is taken
    const wrong = await authorize(ctx.app, { ...MEMBER, code: () => '000000' });
    expect(wrong.lastStatus).to.equal(401);
    expect(wrong.lastPage).to.contain('role="alert"');

    const signedIn = await authorize(ctx.app, { ...MEMBER, code: () => code });
    expect(signedIn.redirect.pathname, signedIn.lastPage).to.equal(CALLBACK_PATH);
    const tokens = await exchangeCode(ctx.app, signedIn);
    expect(claimsOf(tokens.access_token).amr).to.deep.equal(['pwd', 'otp', 'mfa']);
    expect(claimsOf(tokens.id_token!).amr).to.deep.equal(['pwd', 'otp', 'mfa']);

    const replayed = await authorize(ctx.app, { ...MEMBER, code: () => code });
    expect(replayed.lastStatus, 'the same code again').to.equal(401);
  });

  it('takes each recovery code once, and says how many are left', async () => {
    const [first] = recoveryCodes;
    const signedIn = await authorize(ctx.app, { ...MEMBER, code: () => first!.toLowerCase().replace('-', ' ') });
    expect(signedIn.redirect.pathname, signedIn.lastPage).to.equal(CALLBACK_PATH);
    expect((await call('GET', 'two_step')).json().recovery_codes_left).to.equal(9);
    expect((await authorize(ctx.app, { ...MEMBER, code: () => first! })).lastStatus, 'used').to.equal(401);
    expect(await trail('signIn.recoveryCodeUsed')).to.have.length(1);

    const renewed = await call('POST', 'recovery_codes');
    expect(renewed.json().recovery_codes).to.have.length(10);
    // both told by mail (issue 44 finding 9): the code used to sign in, the new codes
    const [generated, used] = await mailsTo(MEMBER.email, 3);
    expect(used!.subject).to.contain('リカバリーコードでアカウントにサインインしました');
    expect(generated!.subject).to.contain('リカバリーコードが新しく作成されました');
    expect((await authorize(ctx.app, { ...MEMBER, code: () => recoveryCodes[1]! })).lastStatus, 'an old one').to.equal(401);
    expect((await call('GET', 'two_step')).json().recovery_codes_left).to.equal(10);
  });

  it('changes the factors of an account that has one only from a recent second step: never from a password-only session, however fresh (issue 44 finding 1)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const sessions = {
      'a stale sign-in': bearer(await accessToken(ctx.app, { sub: '2', authTime: now - 3600 })),
      // signed in with the password before the app was set up, or by someone who has only the password
      'a fresh password-only session': bearer(await accessToken(ctx.app, { sub: '2' })),
      // an old two-step session whose password entry a password change renewed
      'a fresh password entry after an old second step': bearer(await accessToken(ctx.app, { sub: '2', amr: ['pwd', 'otp', 'mfa'], mfaTime: now - 3600 })),
    };
    for (const [name, headers] of Object.entries(sessions)) {
      for (const [method, url] of [['POST', 'recovery_codes'], ['DELETE', 'authenticator_app'], ['POST', 'authenticator_app'], ['POST', 'passkeys/registration_options']] as const) {
        const response = await call(method, url, headers);
        expect(response.statusCode, `${name}: ${method} ${url}`).to.equal(403);
        expect(response.json()).to.deep.equal({ error: 'reauthentication_expired' });
      }
      const reauthentication = await ctx.app.inject({ url: '/api/v2/admin/re_authentication_expiration', headers });
      expect(reauthentication.json(), `${name}: the page's guard asks for both steps again`).to.deep.equal({ is_re_authentication_expired: true });
    }
    expect((await ctx.app.inject({ url: '/api/v2/admin/re_authentication_expiration', headers: member })).json()).to.deep.equal({ is_re_authentication_expired: false });
  });

  it('turns the app off: the sign-in is one step again; the admin is mailed', async () => {
    const other = bearer(await accessToken(ctx.app, { sub: '2', amr: ['pwd', 'otp', 'mfa'], issuedAt: Math.floor(Date.now() / 1000) - 60 }));
    const removed = await call('DELETE', 'authenticator_app');
    expect(removed.statusCode, removed.body).to.equal(200);
    // the other sessions end; without a factor left the caller's session says a password only (issue 44 finding 8)
    expect((await call('GET', 'two_step', other)).statusCode, 'another two-step session').to.equal(401);
    member = bearer(removed.json().session.access_token);
    expect(claimsOf(removed.json().session.access_token).amr).to.deep.equal(['pwd']);
    expect((await call('DELETE', 'authenticator_app')).statusCode, 'none left').to.equal(404);
    const signedIn = await authorize(ctx.app, MEMBER);
    expect(signedIn.redirect.pathname, signedIn.lastPage).to.equal(CALLBACK_PATH);
    expect(claimsOf((await exchangeCode(ctx.app, signedIn)).access_token).amr).to.deep.equal(['pwd']);
    const [mailed] = await mailsTo(MEMBER.email, 4);
    expect(mailed!.subject).to.equal('【法人管理者ポータル】2段階認証の認証アプリを削除しました');
    expect(await trail('account.twoStepRemoved')).to.have.length(1);
  });
});

describe("An organisation's rule: two-step sign-in required of every admin (issue 29)", function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });
  const TWO_STEPS = ['pwd', 'otp', 'mfa'];
  const rule = (headers: Record<string, string>, twoStepRequired: boolean) =>
    ctx.app.inject({ method: 'PUT', url: '/api/v2/organizations/1/sign_in_rule', headers, payload: { two_step_required: twoStepRequired } });

  it("is turned on only by a manager signed in in two steps; then the organisation's calls refuse password-only sessions, and the admin's own account calls stay open", async () => {
    const passwordOnly = bearer(await accessToken(ctx.app, { sub: '1' }));
    const twoStep = bearer(await accessToken(ctx.app, { sub: '1', amr: TWO_STEPS }));
    const member = bearer(await accessToken(ctx.app, { sub: '2', amr: TWO_STEPS }));
    expect((await ctx.app.inject({ url: '/api/v2/organizations/1/sign_in_rule', headers: passwordOnly })).json()).to.deep.include({ two_step_required: false });

    const notYet = await rule(passwordOnly, true);
    expect(notYet.statusCode).to.equal(403);
    expect(notYet.json()).to.deep.equal({ error: 'mfa_required' });
    expect((await rule(member, true)).statusCode, 'a member').to.equal(403);
    const on = await rule(twoStep, true);
    expect(on.statusCode, on.body).to.equal(200);
    // its admins are told, each in their language (issue 44 finding 9)
    await ctx.app.mailQueue.drain();
    const told = ((await ctx.app.inject({ url: '/dev/mails.json' })).json() as Json[]).filter((mail) => /two-step sign-in|2段階サインインが必須/.test(mail.subject));
    expect(told.map((mail) => mail.to)).to.include.members(['manager@example.com', 'member@example.com', 'manager2@example.com']);
    expect(told.map((mail) => mail.to), 'not an admin of another organisation only').to.not.include('pending@example.com');
    expect(on.json()).to.deep.include({ two_step_required: true });

    for (const url of ['/api/v2/organizations/1/affiliations', '/api/v2/organizations/1/contacts', '/api/v2/services', '/api/v2/organizations/1/users?per_page=10']) {
      const refused = await ctx.app.inject({ url, headers: passwordOnly });
      expect(refused.statusCode, url).to.equal(403);
      expect(refused.json(), url).to.deep.equal({ error: 'mfa_required' });
      expect((await ctx.app.inject({ url, headers: twoStep })).statusCode, `${url} in two steps`).to.equal(200);
    }
    // where the admin sets a factor up, and the header's organisation list
    for (const url of ['/api/v2/admins/me/two_step', '/api/v2/admins/me/affiliations']) expect((await ctx.app.inject({ url, headers: passwordOnly })).statusCode, url).to.equal(200);
    // another organisation's sessions are not its business
    const ofTwo = bearer(await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
    expect((await ctx.app.inject({ url: '/api/v2/organizations/2/affiliations', headers: ofTwo })).statusCode).to.equal(200);

    const entries = await ctx.db.selectFrom('auditEvents').select(['action', 'targetType', 'targetLabel', 'changes']).where('action', '=', 'organization.twoStepRuleChanged').execute();
    expect(entries).to.deep.equal([{ action: 'organization.twoStepRuleChanged', targetType: 'organization', targetLabel: 'G0000001', changes: { twoStepRequired: { before: false, after: true } } }]);
    expect((await rule(twoStep, false)).json()).to.deep.include({ two_step_required: false });
    expect((await ctx.app.inject({ url: '/api/v2/organizations/1/contacts', headers: passwordOnly })).statusCode, 'off again').to.equal(200);
  });

  it('shows in the admin list who signs in in two steps', async () => {
    await ctx.db.insertInto('adminAuthenticatorApps').values({ adminId: 2, secretEncrypted: 'v1.x.y.z', confirmedAt: new Date() }).execute();
    const headers = bearer(await accessToken(ctx.app, { sub: '1' }));
    const list = (await ctx.app.inject({ url: '/api/v2/organizations/1/affiliations', headers })).json().affiliations as Json[];
    const twoStep = Object.fromEntries(list.map((row) => [row.admin.email, row.admin.two_step]));
    expect(twoStep).to.include({ 'member@example.com': true, 'manager@example.com': false });
    // a passkey is two-step sign-in too
    await ctx.db.insertInto('adminPasskeys').values({ adminId: 1, credentialId: 'manager-passkey', publicKey: 'AAAA', name: 'Laptop' }).execute();
    const again = (await ctx.app.inject({ url: '/api/v2/organizations/1/affiliations', headers })).json().affiliations as Json[];
    expect(again.find((row) => row.admin.email === 'manager@example.com')!.admin.two_step).to.equal(true);
  });

  it('keeps a two-step session two-step through a password change', async () => {
    const headers = bearer(await accessToken(ctx.app, { sub: '1', amr: TWO_STEPS }));
    const changed = await ctx.app.inject({ method: 'PUT', url: '/api/v2/admins/1/password', headers, payload: { current: 'DemoPassw0rd!', new: 'An0ther-Passw0rd-2026' } });
    expect(changed.statusCode, changed.body).to.equal(200);
    expect(claimsOf(changed.json().access_token).amr).to.deep.equal(TWO_STEPS);
    // the admin is told (issue 44 finding 9)
    await ctx.app.mailQueue.drain();
    const mails = (await ctx.app.inject({ url: '/dev/mails.json' })).json() as Json[];
    expect(mails.filter((mail) => mail.to === 'manager@example.com').map((mail) => mail.subject).join('\n')).to.contain('パスワードが変更されました');
  });

  it("never makes an old second step recent through a password change: the new session's mfa_time is the old one, and it changes no factor (issue 44 finding 1)", async () => {
    const { id } = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'manager2@example.com').executeTakeFirstOrThrow();
    await ctx.db.insertInto('adminAuthenticatorApps').values({ adminId: id, secretEncrypted: 'v1.x.y.z', confirmedAt: new Date() }).execute();
    const longAgo = Math.floor(Date.now() / 1000) - 6 * 3600;
    const headers = bearer(await accessToken(ctx.app, { sub: String(id), authTime: longAgo, amr: TWO_STEPS }));
    const changed = await ctx.app.inject({ method: 'PUT', url: `/api/v2/admins/${id}/password`, headers, payload: { current: 'DemoPassw0rd!', new: 'An0ther-Passw0rd-2026' } });
    expect(changed.statusCode, changed.body).to.equal(200);
    const claims = claimsOf(changed.json().access_token);
    expect(claims.auth_time, 'the password was just entered').to.be.greaterThan(longAgo);
    expect(claims.mfa_time, 'the second step was not').to.equal(longAgo);
    expect(claimsOf(changed.json().id_token).acr, 'the ID token says its class').to.equal(ACR.twoStep);
    const fresh = bearer(changed.json().access_token);
    const refused = await ctx.app.inject({ method: 'POST', url: '/api/v2/admins/me/recovery_codes', headers: fresh });
    expect(refused.statusCode).to.equal(403);
    expect(refused.json()).to.deep.equal({ error: 'reauthentication_expired' });
  });
});

describe('Passkeys and acr_values through the API and the provider (issue 29)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' } });
  let member: Record<string, string>;

  before(async () => {
    member = bearer(await accessToken(ctx.app, { sub: '2' }));
  });
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json, headers = member) =>
    ctx.app.inject({ method, url: `/api/v2/admins/me/${url}`, headers, ...(payload ? { payload } : {}) });

  it('offers creation options for a discoverable passkey with user verification, and refuses an answer that is no credential of that ceremony', async () => {
    const answer = await call('POST', 'passkeys/registration_options');
    expect(answer.statusCode, answer.body).to.equal(200);
    const options = JSON.parse(answer.json().options);
    expect(options.rp).to.deep.equal({ name: 'Corporate Admin Portal', id: 'localhost' });
    expect(options.user.name).to.equal('member@example.com');
    expect(options.authenticatorSelection).to.include({ residentKey: 'required', userVerification: 'required' });
    expect(options.challenge).to.be.a('string').with.length.greaterThan(20);
    for (const credential of ['{}', 'not json', JSON.stringify({ id: 'x', rawId: 'x', type: 'public-key', response: {} })]) {
      const refused = await call('POST', 'passkeys', { name: 'Laptop', credential });
      expect(refused.statusCode, credential).to.equal(422);
      expect(refused.json().errors).to.deep.equal([{ field: 'credential', code: 'invalid', meta: {} }]);
    }
  });

  it("lists, renames and removes the admin's own passkeys only; a passkey makes the sign-in two steps, offering 'Use a passkey'", async () => {
    const [stored] = await ctx.db
      .insertInto('adminPasskeys')
      .values({ adminId: 2, credentialId: 'cred-1', publicKey: 'AAAA', name: 'Phone' })
      .returning('id')
      .execute();
    const listed = (await call('GET', 'two_step')).json().passkeys as Json[];
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: stored!.id, name: 'Phone', last_used_at: null });
    // with a factor, changes need a recent second step (issue 44 finding 1)
    expect((await call('PATCH', `passkeys/${stored!.id}`, { name: 'Work phone' })).statusCode, 'password only').to.equal(403);
    const twoStep = bearer(await accessToken(ctx.app, { sub: '2', amr: ['pwd', 'hwk', 'mfa'] }));
    expect((await call('PATCH', `passkeys/${stored!.id}`, { name: 'Work phone' }, twoStep)).statusCode).to.equal(204);
    expect((await call('GET', 'two_step')).json().passkeys[0].name).to.equal('Work phone');

    const stopped = await authorize(ctx.app, MEMBER);
    expect(stopped.lastPage, 'the second step').to.contain('id="passkey-button"').and.contain('Use a passkey').and.contain('/oidc/assets/webauthn.js');
    expect(stopped.lastPage, 'no app: recovery codes only').to.contain('enter one of your recovery codes');

    const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    const notTheirs = await ctx.app.inject({ method: 'DELETE', url: `/api/v2/admins/me/passkeys/${stored!.id}`, headers: manager });
    expect(notTheirs.statusCode, "another admin's passkey").to.equal(404);
    const removed = await call('DELETE', `passkeys/${stored!.id}`, undefined, twoStep);
    expect(removed.statusCode, removed.body).to.equal(200);
    member = bearer(removed.json().session.access_token);
    expect((await call('GET', 'two_step')).json().passkeys).to.deep.equal([]);
  });

  it("serves the WebAuthn library and the passkey page's script under the strict CSP, and a passkey page from the sign-in page's link", async () => {
    for (const asset of ['webauthn.js', 'passkey.js']) {
      const response = await ctx.app.inject({ url: `/oidc/assets/${asset}` });
      expect(response.statusCode, asset).to.equal(200);
      expect(response.headers['content-type']).to.match(/^text\/javascript/);
    }
    const stopped = await authorize(ctx.app, { ...MEMBER, password: 'not the password' });
    expect(stopped.lastPage).to.match(/<a href="\/oidc\/interaction\/[^"]+\/passkey">Sign in with a passkey<\/a>/);
  });

  it('signs in again, in two steps, a session of a password only when the client asks acr_values two-step; the ID token says acr', async () => {
    const first = await authorize(ctx.app, MEMBER);
    expect(first.redirect.pathname, first.lastPage).to.equal(CALLBACK_PATH);
    expect(claimsOf((await exchangeCode(ctx.app, first)).id_token!).acr).to.equal(ACR.password);
    // the same browser: without acr_values the session signs in at once (the wrong password is never asked for)
    const again = await authorize(ctx.app, { ...MEMBER, browser: first.browser, password: 'not the password' });
    expect(again.redirect.pathname, 'no prompt').to.equal(CALLBACK_PATH);
    // with it, the sign-in page comes again
    const stronger = await authorize(ctx.app, { ...MEMBER, browser: first.browser, password: 'not the password', acrValues: ACR.twoStep });
    expect(stronger.lastStatus, 'the password asked for again').to.equal(401);
    expect(stronger.lastPage).to.contain('<label for="password">Password</label>');
  });
});

describe('Two-step sign-in: codes are counted with the password (issue 29)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0', SIGNIN_MAX_FAILURES: '3' } });

  it('locks the account after wrong codes, though the password before each was right, and a right code then waits too', async () => {
    const member = bearer(await accessToken(ctx.app, { sub: '2' }));
    const { secret } = (await ctx.app.inject({ method: 'POST', url: '/api/v2/admins/me/authenticator_app', headers: member })).json();
    await ctx.app.inject({ method: 'PUT', url: '/api/v2/admins/me/authenticator_app', headers: member, payload: { code: appCode(secret) } });
    const statuses: Array<number | undefined> = [];
    for (let round = 0; round < 3; round += 1) statuses.push((await authorize(ctx.app, { ...MEMBER, code: () => '000000' })).lastStatus);
    expect(statuses, 'wrong codes, then locked').to.include(429);
    const right = await authorize(ctx.app, { ...MEMBER, code: () => appCode(secret, Date.now() + 30_000) });
    expect(right.redirect.pathname, 'locked: not signed in').to.not.equal(CALLBACK_PATH);
  });
});

describe("The first factor under an organisation's rule: a mailed link opens the set-up (issue 44 finding 3)", function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/admins/me/${url}`, headers, ...(payload ? { payload } : {}) });
  const earlier = () => Math.floor(Date.now() / 1000) - 60;

  it("refuses a password-only session the set-up of a first factor without the link mailed to the admin, and opens it with the link's token", async () => {
    await ctx.db.updateTable('organizations').set({ twoStepRequired: true }).where('gloplaId', '=', 'G0000001').execute();
    const member = bearer(await accessToken(ctx.app, { sub: '2', issuedAt: earlier() }));
    expect((await call('GET', 'two_step', member)).json()).to.include({ two_step_required: true, enrolment_link_required: true });
    // the password alone (all a thief of it has) starts nothing
    for (const [url, payload] of [['authenticator_app', undefined], ['passkeys/registration_options', undefined], ['authenticator_app', { enrolment: 'a'.repeat(43) }]] as const) {
      const refused = await call('POST', url, member, payload);
      expect(refused.statusCode, url).to.equal(403);
      expect(refused.json()).to.deep.equal({ error: 'enrolment_link_required' });
    }

    expect((await call('POST', 'two_step/enrolment_link', member)).statusCode).to.equal(204);
    await ctx.app.mailQueue.drain();
    const mail = ((await ctx.app.inject({ url: '/dev/mails.json' })).json() as Json[]).find((candidate) => candidate.to === 'member@example.com');
    const link = new URL((mail!.links as string[]).find((url) => url.includes('enrolment='))!);
    expect(link.pathname).to.equal('/account/security');
    const token = link.searchParams.get('enrolment')!;
    const stored = await ctx.db.selectFrom('adminTokens').select('tokenHash').where('purpose', '=', 'two_step_enrolment').execute();
    expect(stored.map((row) => row.tokenHash), 'only its hash is kept').to.not.include(token);

    // the link is the admin's own: another admin's session gets nothing from it
    const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    expect((await call('POST', 'authenticator_app', manager, { enrolment: token })).json()).to.deep.equal({ error: 'enrolment_link_required' });
    expect((await call('POST', 'passkeys/registration_options', member, { enrolment: token })).statusCode, 'a passkey too').to.equal(200);
    const setup = await call('POST', 'authenticator_app', member, { enrolment: token });
    expect(setup.statusCode, setup.body).to.equal(201);
    const verified = await call('PUT', 'authenticator_app', member, { code: appCode(setup.json().secret) });
    expect(verified.statusCode, verified.body).to.equal(200);
    // the new session satisfies the rule at once; the link is spent
    expect(claimsOf(verified.json().session.access_token).amr).to.include('mfa');
    const twoStep = bearer(verified.json().session.access_token);
    expect((await ctx.app.inject({ url: '/api/v2/services', headers: twoStep })).statusCode).to.equal(200);
    const open = await ctx.db.selectFrom('adminTokens').select('id').where('purpose', '=', 'two_step_enrolment').where('usedAt', 'is', null).execute();
    expect(open).to.deep.equal([]);
  });

  it('mails no link to an admin the rule does not bind, nor to one who has a factor', async () => {
    await ctx.db.updateTable('organizations').set({ twoStepRequired: false }).where('gloplaId', '=', 'G0000001').execute();
    const unbound = await call('POST', 'two_step/enrolment_link', bearer(await accessToken(ctx.app, { sub: '1' })));
    expect(unbound.statusCode).to.equal(403);
    await ctx.db.updateTable('organizations').set({ twoStepRequired: true }).where('gloplaId', '=', 'G0000001').execute();
    const withFactor = await call('POST', 'two_step/enrolment_link', bearer(await accessToken(ctx.app, { sub: '2', amr: ['pwd', 'otp', 'mfa'] })));
    expect(withFactor.statusCode).to.equal(403);
  });

  it("says in the access token whether the session's organisation requires two steps, so that the portal's pages hold a password-only session at set-up", async () => {
    await ctx.db.updateTable('organizations').set({ twoStepRequired: true }).where('gloplaId', '=', 'G0000001').execute();
    const signedIn = await authorize(ctx.app, { email: 'manager@example.com', password: 'DemoPassw0rd!', gloplaId: 'G0000001' });
    const claims = claimsOf((await exchangeCode(ctx.app, signedIn)).access_token);
    expect(claims).to.include({ two_step_required: true, glopla_id: 'G0000001' });
    expect(claims.amr).to.deep.equal(['pwd']);
    const other = await authorize(ctx.app, { email: 'manager@example.com', password: 'DemoPassw0rd!', gloplaId: 'G0000002', prompt: 'login' });
    expect(claimsOf((await exchangeCode(ctx.app, other)).access_token)).to.not.have.property('two_step_required');
  });
});
