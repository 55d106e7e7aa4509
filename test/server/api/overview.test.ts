/**
 * The manager's overview and the change-deadline reminders (issue 30), on the demo data: G0000001 (id 1) has
 * A000000101 (emba, +30 days, 3 learners), A000000102 (started 30 days ago), A000000103 (gls class GLS-A, +21 days,
 * 12 learners), A000000104 (newhodaiplus, +42 days, 5 learners); manager@ (1) manages it, member@ (2) is its member,
 * pending@ (3) has not accepted the invitation. Each test that applies makes its own application starting on the
 * nearest start date whose change deadline is still to come: a business day or two away at most — near.
 */
import { expect } from 'chai';
import { addDays } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTokyoToday } from '../support/tokyoDay.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

describe('The overview and the deadline reminders (issue 30)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  const as = {} as Record<'manager' | 'member' | 'secondManager', Record<string, string>>;
  const today = useTokyoToday();
  const calendar = businessCalendar();
  /**
   * The first start date from the earliest one whose change deadline has not passed: on a weekend the earliest start
   * date (SPEC §9: Saturday +3, Sunday +2) already has its deadline behind it.
   */
  const nearest = () => {
    let startsOn = calendar.earliestStartsOn(today());
    while (!calendar.isUpdatable(startsOn, today())) startsOn = addDays(startsOn, 1);
    return startsOn;
  };

  before(async () => {
    await ctx.db.updateTable('services').set({ lastStartsOn: null }).where('id', '!=', 25).execute();
    // a second manager of G0000001 who reads English
    const second = await ctx.db
      .insertInto('admins')
      .values({ email: 'second-manager@example.com', firstName: 'Ann', lastName: 'Lee', kanaFirstName: 'あん', kanaLastName: 'りー', language: 'en', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: second.id, organizationId: 1, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.secondManager = bearer(await accessToken(ctx.app, { sub: String(second.id) }));
  });

  const call = (method: 'GET' | 'PUT' | 'POST' | 'PATCH', path: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/${path}`, headers, ...(payload ? { payload } : {}) });
  /** A newhodaiplus application of G0000001 starting on `startsOn` (default: the nearest with a deadline to come); its request code. */
  const apply = async (startsOn = nearest()) => {
    const learners = [0, 1].map((index) => ({ last_name: '山田', first_name: `花子${index}`, kana_last_name: 'やまだ', kana_first_name: 'はなこ', email: `hanako${index}-${startsOn}@example.com` }));
    const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, {
      service_group_id: 9,
      service_ids: [9],
      admin_ids: [1],
      users: learners,
      starts_on: startsOn,
      project_class_id: 0,
      billing_contact_id: ctx.app.publicIds.billingContact.toPublic(1),
      contact_id: ctx.app.publicIds.contact.toPublic(1),
    });
    expect(response.statusCode, response.body).to.equal(201);
    return response.json().corporate_subscription.request_code as string;
  };
  const overview = async (headers = as.manager) => {
    const response = await call('GET', 'organizations/1/overview?lang=en', headers);
    expect(response.statusCode, response.body).to.equal(200);
    return response.json() as Json;
  };
  /** The reminder mails (English or Japanese subject) of the application to exactly this address. */
  const remindersTo = async (address: string, requestCode: string) => {
    await ctx.app.mailQueue.drain();
    return ctx.db
      .selectFrom('mails')
      .select(['subject', 'textPart'])
      .where('recipients', '=', address)
      .where('subject', 'like', `%${requestCode}%`)
      .where((eb) => eb.or([eb('subject', 'like', 'Reminder:%'), eb('subject', 'like', '%変更期限%')]))
      .execute();
  };

  describe('GET organizations/{orgId}/overview', () => {
    it('lists the applications of the next 90 days soonest first, each with its change deadline and the business days left', async () => {
      const requestCode = await apply();
      const answer = await overview();
      expect(answer.today).to.equal(today());
      const upcoming = answer.upcoming_applications as Json[];
      const codes = upcoming.map((item) => item.request_code);
      expect(codes).to.include.members(['A000000101', 'A000000103', 'A000000104', requestCode]);
      expect(codes).not.to.include('A000000102'); // started already
      expect(upcoming.map((item) => item.starts_on)).to.deep.equal([...upcoming.map((item) => item.starts_on)].sort());
      for (const item of upcoming) {
        expect(item.starts_on >= today() && item.starts_on <= addDays(today(), 90), item.request_code).to.equal(true);
        expect(item.change_deadline).to.equal(calendar.changeDeadline(item.starts_on));
        expect(item.is_updatable).to.equal(today() <= item.change_deadline);
        expect(item.business_days_left).to.equal(item.is_updatable ? calendar.businessDaysLeft(today(), item.change_deadline) : 0);
      }
      const emba = upcoming.find((item) => item.request_code === 'A000000101')!;
      expect(emba).to.deep.include({ user_count: 3, service_group: { id: 2, name: 'Online MBA 2.0' }, deadline_near: false });
      const soon = upcoming.find((item) => item.request_code === requestCode)!;
      expect(soon).to.include({ user_count: 2, is_updatable: true, deadline_near: true });
      expect(soon.business_days_left).to.be.at.most(3);
    });

    it('counts the invitations not accepted, lists the open classes and the learners by month and service group', async () => {
      const answer = await overview();
      const pending = await ctx.db.selectFrom('affiliations').innerJoin('admins', 'admins.id', 'affiliations.adminId').select('admins.id').where('affiliations.organizationId', '=', 1).where('admins.activatedAt', 'is', null).execute();
      expect(pending.length).to.be.above(0);
      expect(answer.pending_invitations).to.equal(pending.length);

      const projects = (await call('GET', 'organizations/1/projects', as.manager)).json();
      const open = (projects.project_classes as Json[]).filter((projectClass) => projectClass.open && projectClass.starts_on >= today()).map((projectClass) => projectClass.id);
      expect((answer.open_classes as Json[]).map((projectClass) => projectClass.id).sort()).to.deep.equal(open.sort());

      const months = answer.learners_by_month as Json[];
      const emba = months.find((point) => point.month === addDays(today(), 30).slice(0, 7) && point.service_group_name === 'Online MBA 2.0');
      expect(emba?.learners).to.be.at.least(3);
      for (const point of months) expect(point.learners).to.be.above(0);
    });

    it('is read by a member too, and by nobody outside the organisation', async () => {
      expect((await overview(as.member)).upcoming_applications).to.be.an('array');
      const outsider = await call('GET', 'organizations/2/overview', as.manager);
      expect(outsider.statusCode).to.equal(403);
    });

    it("gives a member no manager's part: neither the invitations nor the open classes, which a manager gets (issue 44 finding 5)", async () => {
      const member = await overview(as.member);
      expect(member).to.include.keys('today', 'upcoming_applications', 'learners_by_month');
      expect(member).not.to.have.any.keys('pending_invitations', 'open_classes');
      const manager = await overview(as.manager);
      expect(manager.pending_invitations).to.be.above(0);
      expect(manager.open_classes).to.have.length.above(0);
    });

    it('lists the open classes even behind more than 50 classes that start soon but are closed for registration (issue 44 finding 11)', async () => {
      const project = await ctx.db.insertInto('projects').values({ organizationId: 1, projectCode: 'CLOSED-SOON', name: 'Closed soon' }).returning('id').executeTakeFirstOrThrow();
      try {
        // starting today: past their registration deadline, and first in start order
        const closed = Array.from({ length: 51 }, (_, index) => ({ projectId: project.id, code: `C${index}`, name: `Closed ${index}`, kind: 'gls' as const, startsOn: today(), endsOn: today() }));
        await ctx.db.insertInto('projectClasses').values(closed).execute();
        const open = await ctx.db
          .insertInto('projectClasses')
          .values({ projectId: project.id, code: 'OPEN', name: 'Open', kind: 'gls', startsOn: addDays(today(), 60), endsOn: addDays(today(), 61) })
          .returning('id')
          .executeTakeFirstOrThrow();
        const classes = (await overview()).open_classes as Json[];
        expect(classes.map((projectClass) => projectClass.id)).to.include(open.id);
        for (const projectClass of classes) expect(projectClass.registration_deadline >= today(), projectClass.name).to.equal(true);
      } finally {
        await ctx.db.deleteFrom('projectClasses').where('projectId', '=', project.id).execute();
        await ctx.db.deleteFrom('projects').where('id', '=', project.id).execute();
      }
    });
  });

  describe('the reminder job', () => {
    it('mails each manager once per application and deadline, in their language, never for one far away or confirmed', async () => {
      const requestCode = await apply();
      const first = await ctx.app.runDeadlineReminders(today());
      expect(first.ran).to.equal(true);
      const ja = await remindersTo('manager@example.com', requestCode);
      const en = await remindersTo('second-manager@example.com', requestCode);
      expect(ja).to.have.length(1);
      expect(ja[0]!.subject).to.match(/^【法人管理者ポータル】変更期限のお知らせ/);
      expect(en).to.have.length(1);
      const deadline = calendar.changeDeadline(nearest());
      expect(en[0]!.subject).to.equal(`Reminder: changes to application ${requestCode} are possible until ${deadline}`);
      expect(en[0]!.textPart).to.include(`Last day for changes and cancellation: ${deadline}`).and.include(`/subscription/${requestCode}?locale=en`);

      await ctx.app.runDeadlineReminders(today());
      expect(await remindersTo('second-manager@example.com', requestCode), 'once only').to.have.length(1);
      for (const far of ['A000000101', 'A000000102']) expect(await remindersTo('second-manager@example.com', far), far).to.have.length(0);
    });

    it('leaves out a manager who turned reminders off on My Account', async () => {
      const off = await call('PUT', 'admins/me/notification_settings', as.secondManager, { deadline_reminders: false });
      expect(off.json()).to.deep.equal({ deadline_reminders: false });
      expect((await call('GET', 'admins/me/notification_settings', as.secondManager)).json()).to.deep.equal({ deadline_reminders: false });
      const requestCode = await apply(addDays(nearest(), 1));
      await ctx.app.runDeadlineReminders(today());
      expect(await remindersTo('second-manager@example.com', requestCode)).to.have.length(0);
      await call('PUT', 'admins/me/notification_settings', as.secondManager, { deadline_reminders: true });
    });

    it('reminds again when a change of the start date moves the deadline', async () => {
      // the nearest start date's deadline, then a start date whose deadline is the next business day
      const startsOn = nearest();
      const requestCode = await apply(addDays(startsOn, 2));
      await ctx.db.updateTable('corporateSubscriptions').set({ startsOn }).where('requestCode', '=', requestCode).execute();
      await ctx.app.runDeadlineReminders(today());
      expect(await remindersTo('second-manager@example.com', requestCode)).to.have.length(1);
      let moved = addDays(startsOn, 1);
      while (calendar.changeDeadline(moved) === calendar.changeDeadline(startsOn)) moved = addDays(moved, 1);
      await ctx.db.updateTable('corporateSubscriptions').set({ startsOn: moved }).where('requestCode', '=', requestCode).execute();
      await ctx.app.runDeadlineReminders(today());
      expect(await remindersTo('second-manager@example.com', requestCode)).to.have.length(2);
    });
  });

  describe('GET …/corporate_subscriptions/{requestCode}/calendar', () => {
    const compact = (date: string) => date.replaceAll('-', '');
    it('answers an .ics with the start date and the change deadline as all-day entries, in the language asked for', async () => {
      const response = await call('GET', 'organizations/1/corporate_subscriptions/A000000101/calendar?lang=en', as.manager);
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.headers['content-type']).to.equal('text/calendar; charset=utf-8');
      expect(response.headers['content-disposition']).to.equal('attachment; filename="A000000101.ics"');
      const text = response.body.replace(/\r\n[ \t]/g, ''); // unfolded (RFC 5545 §3.1)
      const startsOn = addDays(today(), 30);
      const deadline = calendar.changeDeadline(startsOn);
      expect(text).to.match(/^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\n/);
      expect(text.match(/BEGIN:VEVENT/g)).to.have.length(2);
      expect(text).to.include(`DTSTART;VALUE=DATE:${compact(startsOn)}`).and.include(`DTEND;VALUE=DATE:${compact(addDays(startsOn, 1))}`);
      expect(text).to.include(`DTSTART;VALUE=DATE:${compact(deadline)}`);
      expect(text).to.include('SUMMARY:Last day to change A000000101 (Online MBA 2.0)').and.include('SUMMARY:Online MBA 2.0 starts (A000000101)');
      expect(text).to.include(`UID:A000000101-deadline-${deadline}@`);
      const japanese = await call('GET', 'organizations/1/corporate_subscriptions/A000000101/calendar?lang=ja', as.manager);
      expect(japanese.body.replace(/\r\n[ \t]/g, '')).to.include('の変更期限');
    });

    it("is a manager's, of the organisation's own applications only", async () => {
      expect((await call('GET', 'organizations/1/corporate_subscriptions/A000000101/calendar', as.member)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/1/corporate_subscriptions/A000000105/calendar', as.manager)).statusCode).to.equal(404);
    });
  });
});
