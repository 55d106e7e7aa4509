import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { beginAttempt } from '../../../src/server/domain/signinThrottle.js';
import { authorizationPath, authorize, Browser, formAction, pkce, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ENV = { SEED: 'demo', PUBLIC_URL, SIGNIN_FAILURE_DELAY_MS: '0' };

/** The sign-in form's action of a new authorisation request, from the given client address. */
async function signinForm(app: Parameters<typeof authorize>[0], remoteAddress?: string) {
  const browser = new Browser(app, undefined, remoteAddress);
  const page = await browser.follow(await browser.get(authorizationPath(PUBLIC_URL, pkce().challenge)));
  return { browser, action: formAction(page.body) };
}

/** The sign-in events the app logs (signin_failed: a password checked and wrong; signin_refused: not checked). */
function signinEvents() {
  const events: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        const { event } = JSON.parse(line) as { event?: string };
        if (event) events.push(event);
      }
      callback();
    },
  });
  return { logger: pino({ level: 'info' }, stream), events };
}

describe('sign-in throttle: attempts are counted before the password is checked (issue 7 finding 5)', () => {
  const log = signinEvents();
  const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '5', SIGNIN_MAX_ADDRESS_FAILURES: '100' }, logger: log.logger });

  it('lets 20 parallel guesses check no more than SIGNIN_MAX_FAILURES passwords: the right one among them is refused', async function () {
    this.timeout(60_000);
    const { browser, action } = await signinForm(ctx.app);
    const guesses = Array.from({ length: 20 }, (_, index) => (index === 19 ? DEMO_PASSWORD : `Wrong-guess-${index}`));
    const answers = await Promise.all(guesses.map((password) => browser.post(action, { email: 'member@example.com', password })));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses, 'no guess signed in').to.not.include(303);
    // 401: a password checked and wrong before the lock; the rest were refused (429)
    expect(statuses.filter((status) => status === 401).length).to.be.at.most(4);
    expect(statuses.filter((status) => status === 429).length).to.be.at.least(16);
    expect(log.events.filter((event) => event === 'signin_failed').length, 'passwords checked').to.be.at.most(5);
    expect(log.events.filter((event) => event === 'signin_refused').length, 'refused unchecked').to.be.at.least(15);
  });

  it('counts parallel attempts atomically: of 20 at once, exactly SIGNIN_MAX_FAILURES are allowed', async () => {
    const keys = { account: 'parallel@example.com', address: '10.9.9.9' };
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => beginAttempt(ctx.db, keys, ctx.config.signinThrottle)));
    expect(verdicts.filter((verdict) => verdict.allowed)).to.have.length(5);
  });
});

describe('sign-in throttle: the lock is per account and client address (issue 7 finding 5)', () => {
  const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '3', SIGNIN_MAX_ADDRESS_FAILURES: '100', SIGNIN_FAILURE_DELAY_MS: '100' } });

  it('an account locked from one address still signs in from another', async () => {
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await authorize(ctx.app, { email: 'member@example.com', password: `Wrong-${attempt}`, browser: new Browser(ctx.app, undefined, '10.0.0.1') });
    }
    const locked = await authorize(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, browser: new Browser(ctx.app, undefined, '10.0.0.1') });
    expect(locked.lastStatus).to.equal(429);
    const elsewhere = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, browser: new Browser(ctx.app, undefined, '10.0.0.2') });
    expect(elsewhere.tokens.access_token).to.be.a('string');
    // the admin learns of the lock by mail, in their language (issue 44 finding 9)
    await ctx.app.mailQueue.drain();
    const mails = (await ctx.app.inject({ url: '/dev/mails.json' })).json() as Array<{ to: string; subject: string }>;
    expect(mails.filter((mail) => mail.to === 'member@example.com').map((mail) => mail.subject).join('\n')).to.contain('サインインがロックされました');
  });

  it('across addresses the account is slowed down, never locked', async function () {
    this.timeout(30_000);
    for (const address of ['10.0.1.1', '10.0.1.2', '10.0.1.3']) {
      for (let attempt = 1; attempt <= 2; attempt += 1) {
        const result = await authorize(ctx.app, { email: 'manager@example.com', password: `Wrong-${attempt}`, browser: new Browser(ctx.app, undefined, address) });
        expect(result.lastStatus).to.equal(401);
      }
    }
    // six failures of the account (more than SIGNIN_MAX_FAILURES): a wrong guess from yet another address waits
    const started = Date.now();
    const slowed = await authorize(ctx.app, { email: 'manager@example.com', password: 'Wrong-7', browser: new Browser(ctx.app, undefined, '10.0.1.4') });
    expect(slowed.lastStatus).to.equal(401);
    expect(Date.now() - started).to.be.at.least(400);
    // and the owner still gets in
    const owner = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000001', browser: new Browser(ctx.app, undefined, '10.0.1.5') });
    expect(owner.tokens.access_token).to.be.a('string');
  });
});

describe('sign-in throttle: successful sign-ins do not count toward the address limit', () => {
  const ctx = useTestApp({ env: { ...ENV, SIGNIN_MAX_FAILURES: '3', SIGNIN_MAX_ADDRESS_FAILURES: '3' } });

  it('signs in more often than SIGNIN_MAX_ADDRESS_FAILURES from one address', async function () {
    this.timeout(30_000);
    for (let round = 1; round <= 4; round += 1) {
      const result = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, browser: new Browser(ctx.app, undefined, '10.0.2.1') });
      expect(result.tokens.access_token, `round ${round}`).to.be.a('string');
    }
    const row = await ctx.db.selectFrom('signinAttempts').selectAll().where('scope', '=', 'address').where('key', '=', '10.0.2.1').executeTakeFirst();
    expect(row?.failures ?? 0).to.equal(0);
  });
});
