import { expect } from 'chai';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { failureDelay } from '../../../src/server/domain/signinThrottle.js';
import { authorize, authorizationPath, Browser, claimsOf, formAction, organizationButtons, pkce, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };

/** Opens the sign-in page of a new authorisation request. */
async function openSignin(app: Parameters<typeof authorize>[0], options: Parameters<typeof authorizationPath>[2] = {}, headers: Record<string, string> = {}) {
  const browser = new Browser(app);
  const first = await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge, options));
  expect(first.statusCode).to.equal(303);
  const page = await app.inject({ url: first.headers.location as string, headers: { cookie: browser.jar.header(), ...headers } });
  return { browser, page, interactionUrl: first.headers.location as string };
}

describe('identity provider: sign-in page', () => {
  const ctx = useTestApp({ env: ENV });

  it('shows Email, Password, Sign in and the two links, in English with ui_locales=en', async () => {
    const { page } = await openSignin(ctx.app, { uiLocales: 'en' });
    expect(page.statusCode).to.equal(200);
    expect(page.headers['content-type']).to.match(/^text\/html/);
    const html = page.body;
    expect(html).to.match(/<html lang="en">/);
    expect(html).to.match(/<label for="email">Email<\/label>/);
    expect(html).to.match(/<label for="password">Password<\/label>/);
    expect(html).to.match(/<input id="password" name="password" type="password" autocomplete="current-password"/);
    expect(html).to.match(/<button type="submit"[^>]*>Sign in<\/button>/);
    expect(html).to.contain(`<a href="${PUBLIC_URL}/password/reset/start">Forgot your password?</a>`);
    expect(html).to.contain(`<a href="${PUBLIC_URL}/registration">Apply for a corporate account</a>`);
    expect(html).to.contain('<link rel="stylesheet" href="/oidc/assets/signin.css">');
  });

  it('has no inline script or style and is served under the strict CSP', async () => {
    const { page } = await openSignin(ctx.app, { uiLocales: 'en' });
    // one script, of this origin, and nothing inline
    expect(page.body.match(/<script[^>]*>/gi)).to.deep.equal(['<script src="/oidc/assets/signin.js" defer>']);
    expect(page.body).to.not.match(/<script[^>]*>[^<]|<style|\sstyle=|\son[a-z]+=/i);
    const script = await ctx.app.inject({ url: '/oidc/assets/signin.js' });
    expect(script.statusCode).to.equal(200);
    expect(script.headers['content-type']).to.match(/^text\/javascript/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).to.contain("script-src 'self'");
    expect(csp).to.contain("style-src 'self'");
    expect(csp).to.not.contain('unsafe-inline');
    const css = await ctx.app.inject({ url: '/oidc/assets/signin.css' });
    expect(css.statusCode).to.equal(200);
    expect(css.headers['content-type']).to.match(/^text\/css/);
  });

  it("has the home-realm discovery's parts for its script, in English and Japanese: 'Continue', 'Use my password instead' (hidden) and a polite status", async () => {
    const english = (await openSignin(ctx.app, { uiLocales: 'en' })).page.body;
    expect(english).to.match(/<button type="submit" class="idp-button idp-button--primary" id="signin-submit" data-sign-in="Sign in" data-continue="Continue">Sign in<\/button>/);
    expect(english).to.contain('<button type="button" class="idp-link-button" id="use-password" hidden>Use my password instead</button>');
    expect(english).to.match(/<p class="idp-realm" id="realm-status" role="status" data-sso="This address signs in with your organization&#39;s single sign-on\./);
    const japanese = (await openSignin(ctx.app)).page.body;
    expect(japanese).to.contain('data-continue="続ける"');
    expect(japanese).to.contain('hidden>代わりにパスワードを使う</button>');
    expect(japanese).to.contain('data-required="このメールアドレスは、組織の設定によりシングルサインオンでのログインが必要です。');
  });

  it("does not make the password a required field (an address of a single sign-on domain signs in without one); the server asks for it", async () => {
    const { page } = await openSignin(ctx.app, { uiLocales: 'en' });
    const input = /<input id="password"[^>]*>/.exec(page.body)?.[0];
    expect(input).to.be.a('string').and.not.match(/\srequired/);
    expect(/<input id="email"[^>]*>/.exec(page.body)?.[0]).to.match(/\srequired/);
  });

  it('is in Japanese by default and switches language with its links', async () => {
    const { page, browser, interactionUrl } = await openSignin(ctx.app);
    expect(page.body).to.match(/<html lang="ja">/);
    expect(page.body).to.contain('メールアドレス');
    expect(page.body).to.contain(`href="${interactionUrl}?lang=en"`);
    const english = await browser.get(`${interactionUrl}?lang=en`);
    expect(english.body).to.contain('>Email</label>');
    expect(formAction(english.body)).to.match(/\/login\?lang=en$/);
  });

  it('follows Accept-Language when the request names no language', async () => {
    const { page } = await openSignin(ctx.app, {}, { 'accept-language': 'en-US,en;q=0.9' });
    expect(page.body).to.match(/<html lang="en">/);
  });

  it('shows the message of error_message_key', async () => {
    const { page } = await openSignin(ctx.app, { uiLocales: 'en', errorMessageKey: 'no_organization_affiliation' });
    expect(page.body).to.contain('does not belong to an organization');
  });

  it('answers a wrong password with the message and keeps the e-mail', async () => {
    const result = await authorize(ctx.app, { email: 'member@example.com', password: 'Wrong-passw0rd', uiLocales: 'en' });
    expect(result.lastStatus).to.equal(401);
    expect(result.lastPage).to.contain('role="alert">Invalid user name or password</p>');
    expect(result.lastPage).to.contain('value="member@example.com"');
    expect(result.lastPage).to.contain('aria-invalid="true"');
  });

  it('gives an unknown e-mail the same answer', async () => {
    const result = await authorize(ctx.app, { email: 'nobody@example.com', password: DEMO_PASSWORD, uiLocales: 'en' });
    expect(result.lastStatus).to.equal(401);
    expect(result.lastPage).to.contain('Invalid user name or password');
  });

  it('does not sign in an admin who is not activated', async () => {
    await ctx.db
      .updateTable('admins')
      .set({ passwordHash: await hashPassword(DEMO_PASSWORD) })
      .where('email', '=', 'pending@example.com')
      .execute();
    const result = await authorize(ctx.app, { email: 'pending@example.com', password: DEMO_PASSWORD, uiLocales: 'en' });
    expect(result.lastStatus).to.equal(401);
    expect(result.lastPage).to.contain('Invalid user name or password');
  });

  it('asks for both fields', async () => {
    const result = await authorize(ctx.app, { email: 'member@example.com', password: '', uiLocales: 'en' });
    expect(result.lastStatus).to.equal(400);
    expect(result.lastPage).to.contain('Please enter your e-mail address and password.');
  });

  it('answers an unknown or finished interaction with an error page', async () => {
    const page = await ctx.app.inject({ url: '/oidc/interaction/unknown-uid' });
    expect(page.statusCode).to.equal(400);
    expect(page.body).to.contain('<a href="http://localhost:3000/">');
  });
});

describe('identity provider: organisation choice', () => {
  const ctx = useTestApp({ env: ENV });

  before(async () => {
    await ctx.db
      .insertInto('admins')
      .values({ email: 'lonely@example.com', lastName: '孤独', firstName: '一人', passwordHash: await hashPassword(DEMO_PASSWORD), activatedAt: new Date() })
      .execute();
  });

  it('chooses the only affiliation directly', async () => {
    const result = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    expect(result.choiceShown).to.equal(false);
    expect(claimsOf(result.tokens.id_token!).glopla_id).to.equal('G0000001');
  });

  it('lets a manager of two organisations choose: each one a button with its official name and gloplaId', async () => {
    const browser = new Browser(ctx.app);
    const first = await browser.follow(await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge, { uiLocales: 'en' })));
    const afterLogin = await browser.follow(await browser.post(formAction(first.body), { email: 'manager@example.com', password: DEMO_PASSWORD }));
    expect(afterLogin.statusCode).to.equal(200);
    expect(afterLogin.body).to.contain('<h1>Select Your Organization</h1>');
    expect(organizationButtons(afterLogin.body).map((button) => button.label)).to.deep.equal(['株式会社デモ [G0000001]', 'サンプル商事株式会社 [G0000002]']);

    const result = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, choose: 'G0000002' });
    expect(result.choiceShown).to.equal(true);
    expect(claimsOf(result.tokens.id_token!).glopla_id).to.equal('G0000002');
    expect(claimsOf(result.tokens.access_token).glopla_id).to.equal('G0000002');
  });

  it('takes a requested glopla_id the admin belongs to without asking', async () => {
    const result = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000002' });
    expect(result.choiceShown).to.equal(false);
    expect(claimsOf(result.tokens.id_token!).glopla_id).to.equal('G0000002');
  });

  it('asks when the requested glopla_id is not one of the admin’s', async () => {
    const result = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G9999999', choose: 'G0000001' });
    expect(result.choiceShown).to.equal(true);
    expect(claimsOf(result.tokens.id_token!).glopla_id).to.equal('G0000001');
  });

  it('shows the choice again with prompt=select_account, without the password', async () => {
    const first = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
    const again = await signIn(ctx.app, { email: 'x', password: 'x', prompt: 'select_account', choose: 'G0000002', browser: first.browser });
    expect(again.choiceShown).to.equal(true);
    expect(claimsOf(again.tokens.id_token!).glopla_id).to.equal('G0000002');
  });

  it('refuses an organisation that is not offered', async () => {
    const browser = new Browser(ctx.app);
    const first = await browser.follow(await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge)));
    const choice = await browser.follow(await browser.post(formAction(first.body), { email: 'manager@example.com', password: DEMO_PASSWORD }));
    const refused = await browser.post(formAction(choice.body), { organization_id: '999' });
    expect(refused.statusCode).to.equal(400);
    expect(organizationButtons(refused.body)).to.have.length(2);
  });

  it('sends an admin without affiliation back to the portal with error_message_key and ends the interaction', async () => {
    const browser = new Browser(ctx.app);
    const first = await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge));
    const interactionUrl = first.headers.location as string;
    const page = await browser.get(interactionUrl);
    const response = await browser.post(formAction(page.body), { email: 'lonely@example.com', password: DEMO_PASSWORD });
    expect(response.statusCode).to.equal(303);
    expect(response.headers.location).to.equal(`${PUBLIC_URL}/signin?error_message_key=no_organization_affiliation`);
    expect((await browser.get(interactionUrl)).statusCode).to.equal(400);
  });
});

describe('identity provider: repeated sign-in failures', () => {
  describe('per account', () => {
    const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '3', SIGNIN_MAX_ADDRESS_FAILURES: '100', SIGNIN_LOCKOUT: '900' } });

    it('refuses the account for a while after the maximum of failures, even with the right password', async () => {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const result = await authorize(ctx.app, { email: 'member@example.com', password: `Wrong-${attempt}`, uiLocales: 'en' });
        expect(result.lastStatus, `attempt ${attempt}`).to.equal(401);
      }
      const third = await authorize(ctx.app, { email: 'member@example.com', password: 'Wrong-3', uiLocales: 'en' });
      expect(third.lastStatus).to.equal(429);
      expect(third.lastPage).to.contain('Too many failed sign-in attempts');
      expect(third.lastPage).to.contain('try again in 15 minutes');

      const right = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, uiLocales: 'en' });
      expect(right.lastStatus).to.equal(429);

      const rows = await ctx.db.selectFrom('signinAttempts').selectAll().where('scope', '=', 'account_address').execute();
      expect(rows).to.have.length(1);
      expect(rows[0]).to.include({ key: 'member@example.com 127.0.0.1', failures: 4 });
    });

    it('leaves other accounts alone', async () => {
      const result = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001' });
      expect(result.tokens.access_token).to.be.a('string');
    });

    it('lets the account in again once the lock has passed', async () => {
      await ctx.db.updateTable('signinAttempts').set({ lockedUntil: new Date(Date.now() - 1000), lastFailureAt: new Date(Date.now() - 1000_000) }).execute();
      const result = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
      expect(result.tokens.access_token).to.be.a('string');
      const rows = await ctx.db.selectFrom('signinAttempts').selectAll().where('scope', 'in', ['account', 'account_address']).execute();
      expect(rows, 'a success clears the account counters').to.have.length(0);
    });
  });

  describe('per client address', () => {
    const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '100', SIGNIN_MAX_ADDRESS_FAILURES: '3' } });

    it('refuses every account from an address that failed too often', async () => {
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
        await authorize(ctx.app, { email, password: 'Wrong-passw0rd', uiLocales: 'en' });
      }
      const result = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, uiLocales: 'en' });
      expect(result.lastStatus).to.equal(429);
      expect(result.lastPage).to.contain('Too many failed sign-in attempts');
    });
  });

  describe('slowing down', () => {
    const ctx = useTestApp({ env: { ...ENV, SIGNIN_FAILURE_DELAY_MS: '150' } });

    it('waits longer with each failure from the third on, up to 3 s', async () => {
      expect([1, 2, 3, 4, 5, 100].map((failures) => failureDelay(failures, 500))).to.deep.equal([0, 0, 500, 1000, 1500, 3000]);
      await authorize(ctx.app, { email: 'member@example.com', password: 'Wrong-1' });
      await authorize(ctx.app, { email: 'member@example.com', password: 'Wrong-2' });
      const started = Date.now();
      await authorize(ctx.app, { email: 'member@example.com', password: 'Wrong-3' });
      expect(Date.now() - started).to.be.at.least(150);
    });
  });
});
