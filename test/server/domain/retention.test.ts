/**
 * Retention (issue 11): for every table that grows with traffic, the clean-up deletes the old rows and keeps the fresh
 * ones; it deletes in batches, and one instance at a time (the advisory lock).
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { RETENTION_LOCK_KEY, deleteInBatches, runRetention, type RetentionSettings } from '../../../src/server/domain/retention.js';
import { createTestDatabase, createTestApp, TEST_ENV, type TestDatabase } from '../support/testApp.js';

const DAY = 86_400_000;
const config = loadConfig(TEST_ENV);
const settings: RetentionSettings = {
  retention: config.retention,
  rateLimitWindowSeconds: config.mailRateLimit.windowSeconds,
  signinLockoutSeconds: config.signinThrottle.lockoutSeconds,
};
const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms);
const later = (ms: number) => new Date(now.getTime() + ms);

describe('Retention clean-up', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let adminId: number;
  let otherAdminId: number;

  beforeEach(async () => {
    database = await createTestDatabase();
    const admins = await database.db
      .insertInto('admins')
      .values([{ email: 'one@example.com' }, { email: 'two@example.com' }])
      .returning('id')
      .execute();
    adminId = admins[0]!.id;
    otherAdminId = admins[1]!.id;
  });
  afterEach(async () => database.destroy());

  const run = async () => {
    const result = await runRetention(database.db, settings, { now });
    expect(result.ran).to.equal(true);
    return result.ran ? result.deleted : {};
  };

  it('admin_tokens: deletes links used or expired longer than TOKEN_RETENTION ago, keeps recent ones and an admin’s newest open invitation', async () => {
    const old = ago(31 * DAY);
    const token = (name: string, values: { purpose: 'activation' | 'password_reset'; expiresAt: Date; usedAt?: Date | null; admin?: number }) => ({
      adminId: values.admin ?? adminId,
      purpose: values.purpose,
      tokenHash: name,
      expiresAt: values.expiresAt,
      usedAt: values.usedAt ?? null,
    });
    await database.db
      .insertInto('adminTokens')
      .values([
        token('used-long-ago', { purpose: 'password_reset', expiresAt: old, usedAt: old }),
        token('expired-long-ago', { purpose: 'password_reset', expiresAt: old }),
        token('superseded-invitation', { purpose: 'activation', expiresAt: ago(40 * DAY) }),
        token('newest-open-invitation', { purpose: 'activation', expiresAt: old }),
        token('used-yesterday', { purpose: 'password_reset', expiresAt: ago(DAY), usedAt: ago(DAY) }),
        token('open', { purpose: 'password_reset', expiresAt: later(3600_000), admin: otherAdminId }),
      ])
      .execute();
    expect((await run()).admin_tokens).to.equal(3);
    const left = await database.db.selectFrom('adminTokens').select('tokenHash').orderBy('tokenHash').execute();
    expect(left.map((row) => row.tokenHash)).to.deep.equal(['newest-open-invitation', 'open', 'used-yesterday']);
  });

  it('captcha_solutions: deletes the solutions of expired challenges, keeps those that could still be replayed', async () => {
    await database.db
      .insertInto('captchaSolutions')
      .values([
        { challengeId: 'expired', expiresAt: ago(1000) },
        { challengeId: 'live', expiresAt: later(60_000) },
      ])
      .execute();
    expect((await run()).captcha_solutions).to.equal(1);
    expect(await database.db.selectFrom('captchaSolutions').select('challengeId').execute()).to.deep.equal([{ challengeId: 'live' }]);
  });

  it('rate_limit_counters: deletes the counters of windows that ended, keeps the current window’s', async () => {
    const windowMs = settings.rateLimitWindowSeconds * 1000;
    await database.db
      .insertInto('rateLimitCounters')
      .values([
        { key: 'mail:client:192.0.2.1', windowStart: ago(windowMs + 1000), hits: 3 },
        { key: 'mail:client:192.0.2.1', windowStart: ago(1000), hits: 1 },
      ])
      .execute();
    expect((await run()).rate_limit_counters).to.equal(1);
    expect(await database.db.selectFrom('rateLimitCounters').select('hits').execute()).to.deep.equal([{ hits: 1 }]);
  });

  it('signin_attempts: deletes failures older than the lockout, keeps recent ones and running locks', async () => {
    const lockoutMs = settings.signinLockoutSeconds * 1000;
    await database.db
      .insertInto('signinAttempts')
      .values([
        { scope: 'address', key: 'old', failures: 2, lastFailureAt: ago(lockoutMs + 1000), lockedUntil: null },
        { scope: 'account_address', key: 'old-lock-over', failures: 5, lastFailureAt: ago(lockoutMs + 1000), lockedUntil: ago(1000) },
        { scope: 'account_address', key: 'locked', failures: 5, lastFailureAt: ago(lockoutMs + 1000), lockedUntil: later(60_000) },
        { scope: 'account', key: 'recent', failures: 1, lastFailureAt: ago(1000), lockedUntil: null },
      ])
      .execute();
    expect((await run()).signin_attempts).to.equal(2);
    const left = await database.db.selectFrom('signinAttempts').select('key').orderBy('key').execute();
    expect(left.map((row) => row.key)).to.deep.equal(['locked', 'recent']);
  });

  it('idp_payloads: deletes payloads an hour past their expiry, keeps live ones and those without an expiry', async () => {
    const payload = (id: string, expiresAt: Date | null) => ({ model: 'Session', id, payload: sql`'{}'::jsonb`, expiresAt });
    await database.db
      .insertInto('idpPayloads')
      .values([payload('long-expired', ago(2 * 3600_000)), payload('just-expired', ago(60_000)), payload('live', later(60_000)), payload('forever', null)])
      .execute();
    expect((await run()).idp_payloads).to.equal(1);
    const left = await database.db.selectFrom('idpPayloads').select('id').orderBy('id').execute();
    expect(left.map((row) => row.id)).to.deep.equal(['forever', 'just-expired', 'live']);
  });

  it('single_sign_on_tokens: deletes tokens an hour past their expiry, used or not, keeps recent ones', async () => {
    await database.db
      .insertInto('partnerProducts')
      .values({ code: 'partner', productId: 1, name: 'Partner', authUrl: 'https://partner.example.com/', secret: 'x'.repeat(32) })
      .execute();
    const token = (id: string, expiresAt: Date, usedAt: Date | null) => ({ id, partnerCode: 'partner', adminId, gloplaId: 'G0000001', language: 'ja', expiresAt, usedAt });
    await database.db
      .insertInto('singleSignOnTokens')
      .values([token('old-used', ago(2 * 3600_000), ago(2 * 3600_000)), token('old-unused', ago(2 * 3600_000), null), token('just-expired', ago(60_000), null)])
      .execute();
    expect((await run()).single_sign_on_tokens).to.equal(2);
    expect(await database.db.selectFrom('singleSignOnTokens').select('id').execute()).to.deep.equal([{ id: 'just-expired' }]);
  });

  it('mails (the outbox): deletes mails older than OUTBOX_RETENTION, keeps recent ones', async () => {
    const mail = (subject: string, sentAt: Date) => ({ recipients: 'a@example.com', subject, textPart: '', htmlPart: '', links: sql`'[]'::jsonb`, sentAt });
    await database.db
      .insertInto('mails')
      .values([mail('old', ago(15 * DAY)), mail('recent', ago(13 * DAY))])
      .execute();
    expect((await run()).mails).to.equal(1);
    expect(await database.db.selectFrom('mails').select('subject').execute()).to.deep.equal([{ subject: 'recent' }]);
  });

  it('mail_queue: deletes jobs given up longer than FAILED_MAIL_RETENTION ago, never a job still to be done', async () => {
    const job = (kind: string, values: { failedAt: Date | null; createdAt: Date }) => ({ kind, payload: sql`'{}'::jsonb`, ...values });
    await database.db
      .insertInto('mailQueue')
      .values([
        job('given-up-long-ago', { failedAt: ago(31 * DAY), createdAt: ago(32 * DAY) }),
        job('given-up-recently', { failedAt: ago(DAY), createdAt: ago(2 * DAY) }),
        job('pending-for-long', { failedAt: null, createdAt: ago(60 * DAY) }),
      ])
      .execute();
    expect((await run()).mail_queue).to.equal(1);
    const left = await database.db.selectFrom('mailQueue').select('kind').orderBy('kind').execute();
    expect(left.map((row) => row.kind)).to.deep.equal(['given-up-recently', 'pending-for-long']);
  });

  it('registration_requests: deletes requests older than REGISTRATION_REQUEST_RETENTION, keeps recent ones', async () => {
    const request = (corporationName: string, createdAt: Date) => ({
      corporationName,
      departments: 'IT',
      personInCharge: 'Sato',
      phoneNumber: '0312345678',
      email: 'sato@example.com',
      zipCode: '1000001',
      address: 'Tokyo',
      scaleOfEmployees: '1-10',
      createdAt,
    });
    await database.db
      .insertInto('registrationRequests')
      .values([request('old', ago(366 * DAY)), request('recent', ago(364 * DAY))])
      .execute();
    expect((await run()).registration_requests).to.equal(1);
    expect(await database.db.selectFrom('registrationRequests').select('corporationName').execute()).to.deep.equal([{ corporationName: 'recent' }]);
  });

  it('audit_events: deletes entries older than AUDIT_RETENTION (the only delete the append-only trail lets through), keeps recent ones', async () => {
    expect(config.retention.auditSeconds).to.equal(400 * 86400);
    const entry = (targetLabel: string, occurredAt: Date) => ({ organizationId: 1, actorAdminId: adminId, action: 'contact.created', targetType: 'contact', targetId: '1', targetLabel, occurredAt });
    await database.db.insertInto('auditEvents').values([entry('old', ago(401 * DAY)), entry('recent', ago(399 * DAY))]).execute();
    expect((await run()).audit_events).to.equal(1);
    expect(await database.db.selectFrom('auditEvents').select('targetLabel').execute()).to.deep.equal([{ targetLabel: 'recent' }]);
    // the setting lasted for the clean-up's own transactions only
    const refused = await database.db.deleteFrom('auditEvents').execute().catch((error: Error) => error);
    expect(String(refused)).to.match(/append-only/);
  });

  it('idempotency_records: deletes the answers of keys used more than 24 hours ago, keeps recent ones', async () => {
    const organization = await database.db.insertInto('organizations').values({ gloplaId: 'G0000001', gloplaIdName: '', corporationAccountName: '', corporationOfficialName: '', corporationAccountCode: '' })
      .returning('id').executeTakeFirstOrThrow();
    const record = (key: string, createdAt: Date) => ({ organizationId: organization.id, adminId, key, requestHash: 'hash', answer: '{}', createdAt });
    await database.db
      .insertInto('idempotencyRecords')
      .values([record('old', ago(DAY + 60_000)), record('recent', ago(DAY - 60_000))])
      .execute();
    expect((await run()).idempotency_records).to.equal(1);
    expect(await database.db.selectFrom('idempotencyRecords').select('key').execute()).to.deep.equal([{ key: 'recent' }]);
  });

  it('deadline_reminders: deletes the reminders of deadlines more than 30 days past, keeps later ones (issue 30)', async () => {
    const organization = await database.db.insertInto('organizations').values({ gloplaId: 'G0000001', gloplaIdName: '', corporationAccountName: '', corporationOfficialName: '', corporationAccountCode: '' })
      .returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('serviceGroups').values({ id: 1, identifier: 'hodai', name: sql`'{"ja":"","en":""}'::jsonb`, selection: 'single', position: 0 }).execute();
    const application = await database.db.insertInto('corporateSubscriptions').values({ organizationId: organization.id, requestCode: 'A000000101', serviceGroupId: 1, startsOn: '2026-01-05' })
      .returning('id').executeTakeFirstOrThrow();
    const day = (date: Date) => date.toISOString().slice(0, 10);
    await database.db
      .insertInto('deadlineReminders')
      .values([{ subscriptionId: application.id, changeDeadline: day(ago(32 * DAY)) }, { subscriptionId: application.id, changeDeadline: day(ago(28 * DAY)) }])
      .execute();
    expect((await run()).deadline_reminders).to.equal(1);
    expect(await database.db.selectFrom('deadlineReminders').select(sql<string>`to_char(change_deadline, 'YYYY-MM-DD')`.as('deadline')).execute()).to.deep.equal([{ deadline: day(ago(28 * DAY)) }]);
  });

  it('deletes in batches of the given size until none is left', async () => {
    await database.db
      .insertInto('captchaSolutions')
      .values(Array.from({ length: 25 }, (_, index) => ({ challengeId: `c${index}`, expiresAt: ago(1000) })))
      .execute();
    const statements: string[] = [];
    const counting = database.db.withPlugin({
      transformQuery: (args) => (statements.push(args.node.kind), args.node),
      transformResult: async (args) => args.result,
    });
    expect(await deleteInBatches(counting, 'captcha_solutions', sql`expires_at < ${now}`, 10)).to.equal(25);
    expect(statements).to.have.length(3); // 10, 10, 5
    expect(await database.db.selectFrom('captchaSolutions').select('challengeId').execute()).to.deep.equal([]);
  });
});

describe('Retention clean-up on PostgreSQL: one instance at a time', function () {
  this.timeout(30_000);
  let database: TestDatabase | undefined;
  before(function () {
    if (!process.env.TEST_DATABASE_URL) this.skip();
  });
  after(async () => database?.destroy());

  it('skips the run while another connection holds the retention lock, and runs once it is released', async () => {
    database = await createTestDatabase();
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await runRetention(database.db, settings)).to.deep.equal({ ran: false });
      await holder.query('select pg_advisory_unlock($1)', [RETENTION_LOCK_KEY]);
      expect((await runRetention(database.db, settings)).ran).to.equal(true);
    } finally {
      await holder.end();
    }
  });
});

describe('Retention in the app', function () {
  this.timeout(30_000);

  it('runRetention deletes old rows and counts them in the metrics', async () => {
    const app = await createTestApp();
    try {
      await app.db.insertInto('captchaSolutions').values({ challengeId: 'expired', expiresAt: ago(1000) }).execute();
      await app.app.runRetention();
      const text = await app.app.metrics.registry.metrics();
      expect(text).to.contain('portal_retention_deleted_rows_total{table="captcha_solutions"} 1');
      expect(text).to.contain('portal_retention_runs_total{outcome="done"} 1');
    } finally {
      await app.close();
    }
  });

  it('runs by itself every RETENTION_INTERVAL', async () => {
    const database = await createTestDatabase();
    try {
      const app = await buildApp(loadConfig({ ...TEST_ENV, RETENTION_INTERVAL: '1s' }), { database: database.database });
      try {
        await database.db.insertInto('captchaSolutions').values({ challengeId: 'expired', expiresAt: ago(1000) }).execute();
        const deadline = Date.now() + 10_000;
        while ((await database.db.selectFrom('captchaSolutions').select('challengeId').execute()).length > 0 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(await database.db.selectFrom('captchaSolutions').select('challengeId').execute()).to.deep.equal([]);
      } finally {
        await app.close();
      }
    } finally {
      await database.destroy();
    }
  });
});
