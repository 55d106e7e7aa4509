/**
 * Second-step codes are limited per account, not only per address (issue 44 finding 2): three codes are valid at any
 * moment, so a thief who has the password and many addresses would otherwise guess them in hours. A few wrong codes at
 * one step spend that password entry; the account's wrong codes from every address lock its second step; the admin
 * is mailed.
 */
import { expect } from 'chai';
import { Secret, TOTP } from 'otpauth';
import { authorizationPath, authorize, Browser, formAction, pkce } from '../support/oidc.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const MEMBER = { email: 'member@example.com', password: 'DemoPassw0rd!', uiLocales: 'en' };
const appCode = (secret: string, timestamp = Date.now()) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

/** The member's authenticator app, set up through the API; its secret. */
async function appOfMember(ctx: ReturnType<typeof useTestApp>): Promise<string> {
  const member = bearer(await accessToken(ctx.app, { sub: '2' }));
  const { secret } = (await ctx.app.inject({ method: 'POST', url: '/api/v2/admins/me/authenticator_app', headers: member })).json();
  const verified = await ctx.app.inject({ method: 'PUT', url: '/api/v2/admins/me/authenticator_app', headers: member, payload: { code: appCode(secret) } });
  expect(verified.statusCode, verified.body).to.equal(200);
  return secret;
}

describe('Second-step codes are limited per account (issue 44 finding 2)', function () {
  this.timeout(60_000);
  const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };

  describe('at one step', () => {
    const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '20', SECOND_STEP_MAX_TRIES: '5' } });
    let secret: string;
    before(async () => {
      secret = await appOfMember(ctx);
    });

  it('spends the password entry after SECOND_STEP_MAX_TRIES wrong codes at one step: the password is asked for again', async () => {
    const browser = new Browser(ctx.app, undefined, '198.51.100.1');
    const signin = await browser.follow(await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge, { uiLocales: 'en' })));
    let page = await browser.follow(await browser.post(formAction(signin.body), { email: MEMBER.email, password: MEMBER.password }));
    const secondStep = formAction(page.body);
    expect(secondStep).to.match(/\/two_step/);
    for (let tries = 1; tries < 5; tries += 1) {
      page = await browser.post(secondStep, { code: '000000' });
      expect(page.statusCode).to.equal(401);
      expect(formAction(page.body), `try ${tries}: the code again`).to.match(/\/two_step/);
    }
    page = await browser.post(secondStep, { code: '000000' });
    expect(page.statusCode).to.equal(401);
    expect(formAction(page.body), 'the fifth: the password page').to.match(/\/login/);
    expect(page.body).to.contain('Too many wrong codes');
    // the step is gone: even the right code no longer continues it
    expect((await browser.post(secondStep, { code: appCode(secret, Date.now() + 30_000) })).statusCode).to.equal(400);
  });
  });

  describe('across addresses', () => {
    const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '5', SIGNIN_MAX_SECOND_STEP_FAILURES: '10' } });
    let secret: string;
    before(async () => {
      secret = await appOfMember(ctx);
    });

  it("locks the account's second step after SIGNIN_MAX_SECOND_STEP_FAILURES wrong codes from any number of addresses; the right code from a new address then waits too; the admin is mailed", async () => {
    // two sign-ins from each address (a password and a wrong code each: below the address's own lock of 5)
    const statuses: Array<number | undefined> = [];
    for (let address = 10; address < 16; address += 1) {
      const browser = new Browser(ctx.app, undefined, `203.0.113.${address}`);
      for (let round = 0; round < 2; round += 1) statuses.push((await authorize(ctx.app, { ...MEMBER, browser, code: () => '000000' })).lastStatus);
    }
    expect(statuses.slice(0, 9), 'wrong codes').to.deep.equal(Array(9).fill(401));
    expect(statuses.slice(9), 'the tenth locks').to.deep.equal([429, 429, 429]);
    const fresh = new Browser(ctx.app, undefined, '192.0.2.200');
    const right = await authorize(ctx.app, { ...MEMBER, browser: fresh, code: () => appCode(secret, Date.now() + 30_000) });
    expect(right.lastStatus, 'locked whatever the address').to.equal(429);
    await ctx.app.mailQueue.drain();
    const mails = ((await ctx.app.inject({ url: '/dev/mails.json' })).json() as Array<{ to: string; subject: string }>).filter((mail) => mail.to === MEMBER.email);
    expect(mails.map((mail) => mail.subject).join('\n')).to.contain('2段階目がロックされました');
  });
});
});
