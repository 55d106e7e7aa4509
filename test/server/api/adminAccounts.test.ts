import { expect } from 'chai';
import { hashToken } from '../../../src/server/domain/adminTokens.js';
import { hashPassword, verifyPassword } from '../../../src/server/domain/passwords.js';
import type { Db } from '../../../src/server/db/index.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { solvedCaptcha } from '../support/captcha.js';
import { authorize, refresh, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PASSWORD = 'NewPassw0rd!x';

async function addAdmin(db: Db, email: string, activated: boolean): Promise<number> {
  const { id } = await db
    .insertInto('admins')
    .values({
      email,
      ...(activated ? { passwordHash: await hashPassword('OldPassw0rd!'), activatedAt: new Date(), firstName: '一郎', lastName: '鈴木' } : {}),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sentAt: string;
}

describe('Activation and password reset API (SPEC §7 account, activation and reset)', function () {
  const ctx = useTestApp({ env: { PUBLIC_URL: 'https://portal.example.com', MAIL_RATE_LIMIT_PER_EMAIL: '3', MAIL_RATE_LIMIT_PER_CLIENT: '100' } });
  let pendingId: number;
  let activeId: number;

  before(async () => {
    pendingId = await addAdmin(ctx.db, 'pending@example.com', false);
    activeId = await addAdmin(ctx.db, 'active@example.com', true);
  });

  const outbox = async (): Promise<OutboxMail[]> => (await ctx.app.inject({ url: '/dev/mails.json' })).json();
  const latestLink = async (to: string): Promise<string> => {
    const mail = (await outbox()).find((candidate) => candidate.to === to);
    if (!mail) throw new Error(`no mail to ${to}`);
    return mail.links[0]!;
  };
  const requestActivation = async (email: string, extra: Record<string, unknown> = {}, query = '') =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v2/admin/account_activation_email${query}`,
      payload: { email, ...(await solvedCaptcha(ctx.app)), ...extra },
      remoteAddress: '10.0.0.1',
    });
  const requestReset = async (email: string, remoteAddress = '10.0.0.2') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v2/admin/reset_password_token_call?lang=en',
      payload: { email, ...(await solvedCaptcha(ctx.app)) },
      remoteAddress,
    });
  const tokenOf = (link: string) => link.match(/\/activate\/([^?]+)/)?.[1] ?? new URL(link).searchParams.get('token')!;

  describe('activation', () => {
    it('an unknown address gets the same status and body as a known one, and no mail', async () => {
      const before = (await outbox()).length;
      const unknown = await requestActivation('nobody@example.com');
      expect(unknown.statusCode).to.equal(200);
      expect((await outbox()).length).to.equal(before);

      const known = await requestActivation('Pending@Example.com', { cc: 'boss@example.com' }, '?lang=ja');
      expect(known.statusCode).to.equal(unknown.statusCode);
      expect(known.body).to.equal(unknown.body);
      const [notice, mail] = await outbox();
      expect(mail!.to).to.equal('pending@example.com');
      expect(mail).not.to.have.property('cc');
      expect(mail!.subject).to.contain('有効化');
      expect(mail!.links[0]).to.match(new RegExp(`^https://portal\\.example\\.com/admins/${pendingId}/activate/[A-Za-z0-9_-]{43}\\?locale=ja$`));
      expect(mail!.text).to.contain(mail!.links[0]).and.contain('72時間');
      expect(mail!.html).to.contain(`href="${mail!.links[0]!.replace(/&/g, '&amp;')}"`);
      // the cc gets a notice without the link: whoever asked must not be able to activate the admin
      expect(notice!.to).to.equal('boss@example.com');
      expect(notice!.subject).to.contain('pending@example.com');
      expect(notice!.links).to.deep.equal([]);
      const token = tokenOf(mail!.links[0]!);
      expect(notice!.text).not.to.contain(token);
      expect(notice!.html).not.to.contain(token);
    });

    it('keeps only a SHA-256 hash of the token', async () => {
      const token = tokenOf(await latestLink('pending@example.com'));
      const rows = await ctx.db.selectFrom('adminTokens').selectAll().where('adminId', '=', pendingId).execute();
      expect(rows.length).to.be.greaterThan(0);
      for (const row of rows) expect(row.tokenHash).to.match(/^[0-9a-f]{64}$/).and.not.contain(token);
      expect(rows.map((row) => row.tokenHash)).to.include(hashToken(token));
      const dump = JSON.stringify(await ctx.db.selectFrom('adminTokens').selectAll().execute());
      expect(dump).not.to.contain(token);
    });

    it('validates the token (x-v2-admin-activate-token) and answers the admin', async () => {
      const token = tokenOf(await latestLink('pending@example.com'));
      const response = await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${token}` } });
      expect(response.statusCode).to.equal(200);
      expect(response.json().admin).to.include({ id: pendingId, email: 'pending@example.com' });

      for (const header of [undefined, 'Bearer', `Basic ${token}`, 'Bearer not-a-token-at-all-but-long-enough']) {
        const refused = await ctx.app.inject({
          url: '/api/v2/admin/validate_confirm_email_token',
          headers: header === undefined ? {} : { 'x-v2-admin-activate-token': header },
        });
        expect(refused.statusCode, String(header)).to.equal(401);
        expect(refused.json()).to.deep.equal({ error: 'invalid_token' });
      }
    });

    it('rejects names and password that break the rules with 422 field errors', async () => {
      const token = tokenOf(await latestLink('pending@example.com'));
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v2/admins/${pendingId}`,
        headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
        payload: { first_name: '花子', last_name: '', kana_first_name: 'ハナコ', kana_last_name: 'たなか', password: 'short' },
      });
      expect(response.statusCode).to.equal(422);
      const fields = response.json().errors.map((error: { field: string }) => error.field);
      expect(fields).to.have.members(['last_name', 'kana_first_name', 'password']);
    });

    it('a token of another admin is refused', async () => {
      const token = tokenOf(await latestLink('pending@example.com'));
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v2/admins/${activeId}`,
        headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
        payload: { first_name: '花子', last_name: '田中', kana_first_name: 'はなこ', kana_last_name: 'たなか', password: PASSWORD },
      });
      expect(response.statusCode).to.equal(401);
      expect(response.json()).to.deep.equal({ error: 'invalid_token' });
    });

    it('activates once: names, password and activatedAt are set; the link then answers already_activated', async () => {
      const token = tokenOf(await latestLink('pending@example.com'));
      const activate = () =>
        ctx.app.inject({
          method: 'PUT',
          url: `/api/v2/admins/${pendingId}`,
          headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
          payload: { first_name: '花子', last_name: '田中', kana_first_name: 'はなこ', kana_last_name: 'たなか', password: PASSWORD },
        });
      const first = await activate();
      expect(first.statusCode).to.equal(200);
      expect(first.json().admin).to.include({ id: pendingId, first_name: '花子', last_name: '田中' });
      const admin = await ctx.db.selectFrom('admins').selectAll().where('id', '=', pendingId).executeTakeFirstOrThrow();
      expect(admin.activatedAt).to.be.instanceOf(Date);
      expect(await verifyPassword(admin.passwordHash, PASSWORD)).to.equal(true);
      expect(admin).to.include({ kanaFirstName: 'はなこ', kanaLastName: 'たなか' });

      const second = await activate();
      expect(second.statusCode).to.equal(401);
      expect(second.json()).to.deep.equal({ error: 'already_activated' });
      const check = await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${token}` } });
      expect(check.json()).to.deep.equal({ error: 'already_activated' });
    });

    it('an activated address answers 409 already_activated and gets no mail', async () => {
      const before = (await outbox()).length;
      const response = await requestActivation('pending@example.com');
      expect(response.statusCode).to.equal(409);
      expect(response.json()).to.deep.equal({ error: 'already_activated' });
      expect((await outbox()).length).to.equal(before);
    });

    it('an expired activation token is refused with token_expired', async () => {
      const id = await addAdmin(ctx.db, 'late@example.com', false);
      await requestActivation('late@example.com');
      const token = tokenOf(await latestLink('late@example.com'));
      await ctx.db.updateTable('adminTokens').set({ expiresAt: new Date(Date.now() - 1000) }).where('adminId', '=', id).execute();
      const check = await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${token}` } });
      expect(check.statusCode).to.equal(401);
      expect(check.json()).to.deep.equal({ error: 'token_expired' });
      const activate = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v2/admins/${id}`,
        headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
        payload: { first_name: '花子', last_name: '田中', kana_first_name: 'はなこ', kana_last_name: 'たなか', password: PASSWORD },
      });
      expect(activate.statusCode).to.equal(401);
      expect(activate.json()).to.deep.equal({ error: 'token_expired' });
    });

    it('the mail language follows lang, else the admin language', async () => {
      const id = await addAdmin(ctx.db, 'english@example.com', false);
      await ctx.db.updateTable('admins').set({ language: 'en-US' }).where('id', '=', id).execute();
      await requestActivation('english@example.com');
      const [mail] = await outbox();
      expect(mail!.subject).to.equal('Activate your administrator account');
      expect(mail!.links[0]).to.match(/\?locale=en$/);
      expect(mail!.text).to.contain('72 hours');
    });
  });

  describe('captcha', () => {
    it('a request without a solved captcha answers 401 captcha_invalid', async () => {
      const missing = await ctx.app.inject({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: { email: 'x@example.com' } });
      expect(missing.statusCode).to.equal(401);
      expect(missing.json()).to.deep.equal({ error: 'captcha_invalid' });
      const garbage = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/reset_password_token_call',
        payload: { email: 'x@example.com', capy_challengekey: 'abc', capy_answer: 'bm90IGEgcGF5bG9hZA==' },
      });
      expect(garbage.statusCode).to.equal(401);
    });

    it('a solution works once: the replay is refused', async () => {
      const captcha = await solvedCaptcha(ctx.app);
      const post = () => ctx.app.inject({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: { email: 'someone@example.com', ...captcha } });
      expect((await post()).statusCode).to.equal(200);
      const replay = await post();
      expect(replay.statusCode).to.equal(401);
      expect(replay.json()).to.deep.equal({ error: 'captcha_invalid' });
    });

    it('a solution sent with another challenge key is refused', async () => {
      const captcha = await solvedCaptcha(ctx.app);
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/account_activation_email',
        payload: { email: 'someone@example.com', ...captcha, capy_challengekey: 'another-challenge' },
      });
      expect(response.statusCode).to.equal(401);
    });

    it('the ignore-captcha flag is stripped, not obeyed', async () => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/account_activation_email',
        payload: { email: 'someone@example.com', ignore_captcha: true },
      });
      expect(response.statusCode).to.equal(401);
    });
  });

  describe('password reset', () => {
    it('unknown, not activated and known addresses get the same answer; only the known one gets a mail', async () => {
      const before = (await outbox()).length;
      const unknown = await requestReset('ghost@example.com');
      const notActivated = await requestReset('late@example.com');
      expect((await outbox()).length).to.equal(before);
      const known = await requestReset('active@example.com');
      for (const response of [unknown, notActivated]) {
        expect(response.statusCode).to.equal(known.statusCode).and.equal(200);
        expect(response.body).to.equal(known.body);
      }
      const [mail] = await outbox();
      expect(mail!.to).to.equal('active@example.com');
      expect(mail!.subject).to.equal('Reset your password');
      expect(mail!.links[0]).to.match(new RegExp(`^https://portal\\.example\\.com/password/reset\\?admin_id=${activeId}&token=[A-Za-z0-9_-]{43}&locale=en$`));
      expect(mail!.text).to.contain('1 hour');
    });

    it('the token works once, sets the new password and revokes the admin sessions', async () => {
      const token = tokenOf(await latestLink('active@example.com'));
      const headers = { 'x-v2-admin-reset-password-token': `Bearer ${token}` };
      const check = await ctx.app.inject({ url: '/api/v2/admin/validate_reset_password_token', headers });
      expect(check.statusCode).to.equal(200);
      expect(check.json()).to.deep.equal({ admin: { id: activeId } });

      const revoked: number[] = [];
      const original = ctx.app.identityProvider.revokeAdmin;
      ctx.app.identityProvider.revokeAdmin = async (adminId: number) => {
        revoked.push(adminId);
      };
      try {
        const reset = () => ctx.app.inject({ method: 'POST', url: `/api/v2/admins/${activeId}/password`, headers, payload: { new: PASSWORD } });
        const first = await reset();
        expect(first.statusCode).to.equal(200);
        expect(revoked).to.deep.equal([activeId]);
        const admin = await ctx.db.selectFrom('admins').selectAll().where('id', '=', activeId).executeTakeFirstOrThrow();
        expect(await verifyPassword(admin.passwordHash, PASSWORD)).to.equal(true);

        const second = await reset();
        expect(second.statusCode).to.equal(401);
        expect(second.json()).to.deep.equal({ error: 'token_used' });
        expect(revoked).to.have.length(1);
        const again = await ctx.app.inject({ url: '/api/v2/admin/validate_reset_password_token', headers });
        expect(again.json()).to.deep.equal({ error: 'token_used' });
      } finally {
        ctx.app.identityProvider.revokeAdmin = original;
      }
    });

    it('refuses a weak new password with 422, an expired token with token_expired, an activation token with invalid_token', async () => {
      await requestReset('active@example.com', '10.0.0.3');
      const token = tokenOf(await latestLink('active@example.com'));
      const headers = { 'x-v2-admin-reset-password-token': `Bearer ${token}` };
      const weak = await ctx.app.inject({ method: 'POST', url: `/api/v2/admins/${activeId}/password`, headers, payload: { new: 'password' } });
      expect(weak.statusCode).to.equal(422);
      expect(weak.json().errors[0]).to.include({ field: 'new', code: 'invalid' });

      await ctx.db.updateTable('adminTokens').set({ expiresAt: new Date(Date.now() - 1) }).where('tokenHash', '=', hashToken(token)).execute();
      const expired = await ctx.app.inject({ method: 'POST', url: `/api/v2/admins/${activeId}/password`, headers, payload: { new: PASSWORD } });
      expect(expired.statusCode).to.equal(401);
      expect(expired.json()).to.deep.equal({ error: 'token_expired' });

      const activationToken = tokenOf(await latestLink('late@example.com'));
      const wrongPurpose = await ctx.app.inject({
        url: '/api/v2/admin/validate_reset_password_token',
        headers: { 'x-v2-admin-reset-password-token': `Bearer ${activationToken}` },
      });
      expect(wrongPurpose.json()).to.deep.equal({ error: 'invalid_token' });
    });
  });

  describe('rate limits', () => {
    it('per e-mail address: past the limit 429 too_many_requests with Retry-After, also for an unknown address', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await requestReset('limited@example.com', `10.1.0.${i}`)).statusCode);
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      const limited = await requestReset('LIMITED@example.com', '10.1.0.9');
      expect(limited.statusCode).to.equal(429);
      expect(limited.json()).to.deep.equal({ error: 'too_many_requests' });
      expect(Number(limited.headers['retry-after'])).to.be.within(1, 3600);
      // the counter is in the database
      const counters = await ctx.db.selectFrom('rateLimitCounters').selectAll().where('key', '=', 'mail:email:limited@example.com').execute();
      expect(counters.map((row) => row.hits)).to.deep.equal([5]);
    });
  });
});

describe('Mail request rate limit per client address', () => {
  const ctx = useTestApp({ env: { MAIL_RATE_LIMIT_PER_CLIENT: '2' } });

  it('holds across e-mail addresses, and before the captcha is even looked at', async () => {
    const post = async (email: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/account_activation_email',
        payload: { email, ...(await solvedCaptcha(ctx.app)) },
        remoteAddress: '192.0.2.7',
      });
    expect((await post('a@example.com')).statusCode).to.equal(200);
    expect((await post('b@example.com')).statusCode).to.equal(200);
    const third = await post('c@example.com');
    expect(third.statusCode).to.equal(429);
    const noCaptcha = await ctx.app.inject({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: { email: 'd@example.com' }, remoteAddress: '192.0.2.7' });
    expect(noCaptcha.statusCode).to.equal(429);
    const otherClient = await ctx.app.inject({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: { email: 'd@example.com' }, remoteAddress: '192.0.2.8' });
    expect(otherClient.statusCode).to.equal(401);
  });
});

describe('CAPTCHA=off', () => {
  const ctx = useTestApp({ env: { CAPTCHA: 'off' } });

  it('accepts mail requests without a solved captcha and still serves (trivial) challenges', async () => {
    const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email: 'x@example.com' } });
    expect(response.statusCode).to.equal(200);
    const challenge = await ctx.app.inject({ url: '/api/v2/captcha/challenge' });
    expect(challenge.json().parameters.cost).to.equal(1);
  });
});

describe('A password reset ends the sessions (identity provider grants)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://portal.test', SIGNIN_FAILURE_DELAY_MS: '0' } });

  it("the admin's refresh token stops working; the new password signs in, the old one does not", async () => {
    const before = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect((await refresh(ctx.app, before.tokens.refresh_token)).statusCode).to.equal(200);
    const second = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });

    const mailRequest = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/admin/reset_password_token_call',
      payload: { email: 'member@example.com', ...(await solvedCaptcha(ctx.app)) },
    });
    expect(mailRequest.statusCode).to.equal(200);
    const [mail] = (await ctx.app.inject({ url: '/dev/mails.json' })).json() as OutboxMail[];
    const link = new URL(mail!.links[0]!);
    const reset = await ctx.app.inject({
      method: 'POST',
      url: `/api/v2/admins/${link.searchParams.get('admin_id')}/password`,
      headers: { 'x-v2-admin-reset-password-token': `Bearer ${link.searchParams.get('token')}` },
      payload: { new: PASSWORD },
    });
    expect(reset.statusCode).to.equal(200);

    const refused = await refresh(ctx.app, second.tokens.refresh_token);
    expect(refused.statusCode).to.equal(400);
    expect(refused.json().error).to.equal('invalid_grant');
    const oldPassword = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(oldPassword.redirect.href).to.equal('about:blank');
    const after = await signIn(ctx.app, { email: 'member@example.com', password: PASSWORD });
    expect(after.tokens.access_token).to.be.a('string');
  });
});
