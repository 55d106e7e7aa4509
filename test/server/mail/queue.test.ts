import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { solvedCaptcha } from '../support/captcha.js';
import { retryDelayMs } from '../../../src/server/mail/queue.js';
import { createTestApp, createTestDatabase, freePort, type TestApp, type TestDatabase } from '../support/testApp.js';

/** An SMTP server that holds every mail until `release()` (or refuses them while `refuse` is set). */
async function startSlowSmtp(port: number) {
  const received: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on('end', () => {
        void released.then(() => {
          received.push(session.envelope.rcptTo.map((recipient) => recipient.address).join(','));
          callback();
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { received, release, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const pending = 'pending@example.com';
const activated = 'active@example.com';

async function seedAdmins(app: TestApp) {
  await app.db.insertInto('admins').values([{ email: pending }, { email: activated, activatedAt: new Date() }]).execute();
}

const queued = (app: TestApp) => app.db.selectFrom('mailQueue').selectAll().orderBy('id').execute();
const outbox = (app: TestApp) => app.db.selectFrom('mails').selectAll().orderBy('id').execute();

describe('mails go out after the answer, through a queue in the database (issue 7 finding 11)', function () {
  this.timeout(60_000);

  describe('without the automatic worker (tests drain it)', () => {
    let app: TestApp;
    before(async () => {
      app = await createTestApp({ mailQueueWorker: false });
      await seedAdmins(app);
    });
    after(() => app.close());

    it('answers a known and an unknown address with the same work: one queued job each, no token, no mail yet', async () => {
      for (const email of [activated, 'nobody@example.com']) {
        const response = await app.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email, ...(await solvedCaptcha(app.app)) } });
        expect(response.statusCode).to.equal(200);
      }
      const jobs = await queued(app);
      expect(jobs.map((job) => job.kind)).to.deep.equal(['password_reset', 'password_reset']);
      expect(await app.db.selectFrom('adminTokens').selectAll().execute()).to.have.length(0);
      expect(await outbox(app)).to.have.length(0);

      await app.app.mailQueue.drain();
      expect((await outbox(app)).map((mail) => mail.recipients)).to.deep.equal([activated]);
      expect(await queued(app)).to.have.length(0);
    });

    it('the activation request likewise (only an activated address is answered at once: 409, SPEC §4)', async () => {
      for (const email of [pending, 'stranger@example.com']) {
        const response = await app.app.inject({ method: 'POST', url: '/api/v2/admin/account_activation_email', payload: { email, ...(await solvedCaptcha(app.app)) } });
        expect(response.statusCode).to.equal(200);
      }
      expect((await queued(app)).map((job) => job.kind)).to.deep.equal(['activation', 'activation']);
      await app.app.mailQueue.drain();
      expect((await outbox(app)).map((mail) => mail.recipients)).to.include(pending).and.not.include('stranger@example.com');
    });

    it('the outbox (/dev/mails.json) delivers what is queued before it lists the mails', async () => {
      const response = await app.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email: activated, ...(await solvedCaptcha(app.app)) } });
      expect(response.statusCode).to.equal(200);
      const before = (await outbox(app)).length;
      const mails = (await app.app.inject({ url: '/dev/mails.json' })).json() as unknown[];
      expect(mails).to.have.length(before + 1);
    });
  });

  describe('a crash loses no mail', () => {
    let database: TestDatabase;
    before(async () => {
      database = await createTestDatabase();
    });
    after(() => database.destroy());

    it('a queued mail left by an instance that stopped is delivered by the next one', async () => {
      const first = await createTestApp({ testDatabase: database, mailQueueWorker: false });
      await seedAdmins(first);
      await first.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email: activated, ...(await solvedCaptcha(first.app)) } });
      await first.close();
      expect(await queued(first)).to.have.length(1);

      const second = await createTestApp({ testDatabase: database, mailQueueWorker: false });
      try {
        await second.app.mailQueue.drain();
        expect((await outbox(second)).map((mail) => mail.recipients)).to.deep.equal([activated]);
      } finally {
        await second.close();
      }
    });
  });

  describe('with SMTP', () => {
    let app: TestApp;
    let port: number;
    before(async () => {
      port = await freePort();
      app = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}`, REGISTRATION_NOTIFY_TO: 'staff@provider.example.com' }, mailQueueWorker: false });
      await seedAdmins(app);
    });
    after(() => app.close());

    it('keeps a mail the server refused and retries it later with a growing delay', async () => {
      const response = await app.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email: activated, ...(await solvedCaptcha(app.app)) } });
      expect(response.statusCode).to.equal(200);
      await app.app.mailQueue.drain(); // nobody listens on the port yet
      const [job] = await queued(app);
      expect(job).to.include({ kind: 'password_reset', attempts: 1, failedAt: null });
      expect(job!.lastError).to.be.a('string');
      const delay = new Date(job!.nextAttemptAt).getTime() - Date.now();
      expect(delay).to.be.greaterThan(10_000);

      await app.app.mailQueue.drain(); // not due yet: nothing happens
      expect((await queued(app))[0]).to.include({ attempts: 1 });

      const smtp = await startSlowSmtp(port);
      try {
        smtp.release();
        await app.db.updateTable('mailQueue').set({ nextAttemptAt: new Date() }).execute();
        await app.app.mailQueue.drain();
        expect(smtp.received).to.deep.equal([activated]);
        expect(await queued(app)).to.have.length(0);
      } finally {
        await smtp.close();
      }
    });
  });

  it('waits 30 s, 1 min, 2 min … between attempts, at most an hour', () => {
    expect([1, 2, 3, 4, 8, 9, 20].map(retryDelayMs)).to.deep.equal([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  describe('giving up', () => {
    let app: TestApp;
    before(async () => {
      app = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` }, mailQueueWorker: false });
    });
    after(() => app.close());

    it('keeps a job that failed its tenth attempt, marked failed, and tries it no more', async () => {
      await app.app.mailQueue.enqueue('mail', { to: 'x@example.com', subject: 's', text: 't', html: '<p>t</p>' });
      await app.db.updateTable('mailQueue').set({ attempts: 9 }).execute();
      await app.app.mailQueue.drain();
      const [job] = await queued(app);
      expect(job).to.include({ attempts: 10 });
      expect(job!.failedAt).to.be.instanceOf(Date);
      await app.db.updateTable('mailQueue').set({ nextAttemptAt: new Date(0) }).execute();
      await app.app.mailQueue.drain();
      expect((await queued(app))[0]).to.include({ attempts: 10 });
    });
  });

  describe('with the worker running', () => {
    let app: TestApp;
    let smtp: Awaited<ReturnType<typeof startSlowSmtp>>;
    before(async () => {
      const port = await freePort();
      smtp = await startSlowSmtp(port);
      app = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
      await seedAdmins(app);
    });
    after(async () => {
      smtp.release();
      await app.close();
      await smtp.close();
    });

    it('answers while the mail server is still busy with the mail, which arrives afterwards without a drain', async () => {
      const response = await app.app.inject({ method: 'POST', url: '/api/v2/admin/reset_password_token_call', payload: { email: activated, ...(await solvedCaptcha(app.app)) } });
      expect(response.statusCode).to.equal(200);
      expect(smtp.received).to.deep.equal([]);
      smtp.release();
      for (let i = 0; i < 100 && smtp.received.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(smtp.received).to.deep.equal([activated]);
    });

    it("runs a retry due before the next half-minute sweep at its time (a webhook's first retry is 5 s after)", async () => {
      const attempts: number[] = [];
      let retried!: () => void;
      const done = new Promise<void>((resolve) => (retried = resolve));
      app.app.mailQueue.handle(
        'retry_probe',
        async () => {
          attempts.push(Date.now());
          if (attempts.length === 1) throw new Error('the first attempt fails');
          retried();
        },
        { delayMs: () => 1000 },
      );
      await app.app.mailQueue.enqueue('retry_probe', {});
      app.app.mailQueue.kick();
      // the app's sweep runs 30 s after it started: without a wake of its own the retry would wait for it
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 20_000))]);
      expect(attempts, 'the failed attempt and its retry').to.have.length(2);
      expect(attempts[1]! - attempts[0]!).to.be.at.least(900);
    });
  });
});
