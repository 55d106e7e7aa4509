/**
 * The change-deadline reminders' claim and mails (domain/deadlineReminders.ts): one transaction, so a failure between
 * them neither loses a reminder nor mails a manager twice (issue 44 finding 11). The job's mailing rules themselves are
 * proved on the demo data in test/server/api/overview.test.ts.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import sinon from 'sinon';
import { addDays } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { CANDIDATE_BATCH_ROWS } from '../../../src/server/domain/deadlineReminders.js';
import { useTokyoToday } from '../support/tokyoDay.js';
import { useTestApp } from '../support/testApp.js';

describe('domain/deadlineReminders', function () {
  this.timeout(30_000);
  // the queued mails stay in mail_queue until the test drains it
  const ctx = useTestApp({ env: { SEED: 'demo' }, mailQueueWorker: false });
  const today = useTokyoToday();
  const calendar = businessCalendar();
  const requestCode = 'A000000104';
  const second = 'second-manager@example.com';

  before(async () => {
    // one more manager of G0000001, after the demo's manager@ and manager2@ in the job's order
    const admin = await ctx.db
      .insertInto('admins')
      .values({ email: second, firstName: 'Ann', lastName: 'Lee', kanaFirstName: 'あん', kanaLastName: 'りー', language: 'en', activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: admin.id, organizationId: 1, role: 'manager' }).execute();
    // G0000001's application, moved to the nearest start date whose change deadline is still to come: near
    let startsOn = calendar.earliestStartsOn(today());
    while (!calendar.isUpdatable(startsOn, today())) startsOn = addDays(startsOn, 1);
    await ctx.db.updateTable('corporateSubscriptions').set({ startsOn, projectClassId: null }).where('requestCode', '=', requestCode).execute();
  });

  const claimed = () =>
    ctx.db
      .selectFrom('deadlineReminders')
      .innerJoin('corporateSubscriptions', 'corporateSubscriptions.id', 'deadlineReminders.subscriptionId')
      .select('deadlineReminders.subscriptionId')
      .where('corporateSubscriptions.requestCode', '=', requestCode)
      .execute();
  const queued = () => ctx.db.selectFrom('mailQueue').select(sql<string>`payload->>'to'`.as('to')).where(sql<string>`payload->>'subject'`, 'like', `%${requestCode}%`).orderBy('id').execute();

  it("claims a reminder and queues every manager's mail in one transaction: a failed enqueue leaves it unclaimed with nothing queued, and the next run mails each manager once", async () => {
    // the second manager's mail cannot be queued: the first one's is already in
    await sql`create function refuse_reminder() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(ctx.db);
    await sql`create trigger refuse_reminder before insert on mail_queue for each row when (new.payload->>'to' = 'second-manager@example.com') execute function refuse_reminder()`.execute(ctx.db);
    try {
      let failure: unknown;
      await ctx.app.runDeadlineReminders(today()).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.include('refused by the test');
      expect(await claimed(), 'claimed').to.deep.equal([]);
      expect(await queued(), 'queued').to.deep.equal([]);
    } finally {
      await sql`drop trigger refuse_reminder on mail_queue`.execute(ctx.db);
      await sql`drop function refuse_reminder()`.execute(ctx.db);
    }

    const retry = await ctx.app.runDeadlineReminders(today());
    expect(retry).to.deep.include({ ran: true });
    expect(await claimed()).to.have.length(1);
    expect((await queued()).map((mail) => mail.to)).to.deep.equal(['manager@example.com', 'manager2@example.com', second]);
    await ctx.app.runDeadlineReminders(today());
    expect(await queued(), 'once only').to.have.length(3);
  });

  it('skips, without a transaction, every application whose deadline was claimed before; a deadline not yet claimed still gets its own', async () => {
    const transactions = sinon.spy(ctx.db, 'transaction');
    try {
      await ctx.app.runDeadlineReminders(today());
      expect(transactions.callCount, 'every deadline claimed').to.equal(0);
      await ctx.db.deleteFrom('deadlineReminders').execute();
      await ctx.app.runDeadlineReminders(today());
      expect(transactions.callCount, 'the reminders claimed again').to.be.greaterThan(0);
      expect(await claimed()).to.have.length(1);
    } finally {
      transactions.restore();
    }
  });

  it('reads its candidates a batch at a time and reminds every one of them (more than a batch)', async () => {
    const { startsOn } = await ctx.db.selectFrom('corporateSubscriptions').select(sql<string>`starts_on::text`.as('startsOn')).where('requestCode', '=', requestCode).executeTakeFirstOrThrow();
    // a batch and three more (each claimed in a transaction of its own, ~7 ms on PGlite)
    const APPLICATIONS = CANDIDATE_BATCH_ROWS + 3;
    // an organisation without managers: each application is claimed, no mail queued
    const organization = await ctx.db
      .insertInto('organizations')
      .values({ gloplaId: 'G0777777', gloplaIdName: 'batch', corporationAccountName: 'Batch', corporationOfficialName: 'Batch', corporationAccountCode: 'B999' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`insert into corporate_subscriptions (organization_id, request_code, service_group_id, starts_on, applied_at)
      select ${organization.id}, 'A7' || lpad(n::text, 8, '0'), (select id from service_groups where identifier = 'hodai'), ${startsOn}::date, now()
      from generate_series(1, ${APPLICATIONS}) n`.execute(ctx.db);
    await ctx.app.runDeadlineReminders(today());
    const { count } = await ctx.db
      .selectFrom('deadlineReminders')
      .innerJoin('corporateSubscriptions', 'corporateSubscriptions.id', 'deadlineReminders.subscriptionId')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('corporateSubscriptions.organizationId', '=', organization.id)
      .executeTakeFirstOrThrow();
    expect(Number(count)).to.equal(APPLICATIONS);
  });
});
