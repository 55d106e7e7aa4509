/**
 * Corporate subscriptions API (SPEC §7 'Corporate subscriptions', §5 'Application', §8 'Application errors'), on the
 * demo data: G0000001 (id 1) has A000000101 (emba, 2 subjects, +30 days, 3 learners), A000000102 (newemba, started 30
 * days ago), A000000103 (gls, class GLS-A, +21 days, 12 learners), A000000104 (newhodaiplus, +42 days, 5 learners);
 * G0000002 (id 2) has A000000105. manager@ (1) manages G0000001; member@ (2) is its member; pending@ (3) is not
 * activated. The services' last start dates are lifted (emba's 2026-05-01 has passed) so that the window is today's.
 * G0000001's first contact and billing contact are stored as 1; the API shows public ids (domain/publicIds.ts).
 */
import { expect } from 'chai';
import sinon from 'sinon';
import { sql } from 'kysely';
import { addDays, latestStartsOn, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTokyoToday } from '../support/tokyoDay.js';
import { useTestApp } from '../support/testApp.js';
import { withTriggersOff } from '../support/triggers.js';

type Json = Record<string, any>;

const learner = (index: number, extra: Json = {}) => ({
  last_name: '山田',
  first_name: `太郎${'一二三四五六七八九十'[index % 10]}`,
  kana_last_name: 'やまだ',
  kana_first_name: 'たろう',
  email: `learner${index}@example.com`,
  ...extra,
});
const learners = (count: number) => Array.from({ length: count }, (_, index) => learner(index));

describe('Corporate subscriptions API (SPEC §7 Corporate subscriptions)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  const as = {} as Record<'manager' | 'member' | 'otherManager', Record<string, string>>;
  const today = useTokyoToday();
  /** A start date inside the window, this many days after its first day. */
  const startsOn = (days = 14) => addDays(businessCalendar().earliestStartsOn(today()), days);
  /** The public ids of G0000001's first contact and billing contact. */
  const contact1 = () => ctx.app.publicIds.contact.toPublic(1);
  const billingContact1 = () => ctx.app.publicIds.billingContact.toPublic(1);
  /** A valid newhodaiplus application (service 9) with the organisation's first contact and billing contact. */
  const application = (extra: Json = {}) => ({
    service_group_id: 9,
    service_ids: [9],
    admin_ids: [1],
    users: learners(2),
    starts_on: startsOn(),
    billing_contact_id: billingContact1(),
    contact_id: contact1(),
    billing_note: 'PO-1',
    project_class_id: 0,
    ...extra,
  });
  /** A class of G0000001's gls project (GLS-A … GLS-D): its id and first day. */
  const glsClass = (code: string) =>
    ctx.db.selectFrom('projectClasses').select(['id', sql<string>`to_char(starts_on, 'YYYY-MM-DD')`.as('startsOn')]).where('code', '=', code).executeTakeFirstOrThrow();
  /** A valid gls application (service 4) for the class, on its first day unless told: no contacts (a class has none). */
  const classApplication = (projectClass: { id: number; startsOn: string }, extra: Json = {}) => ({
    ...application({ service_group_id: 4, service_ids: [4], project_class_id: projectClass.id, users: learners(10), starts_on: projectClass.startsOn, ...extra }),
    billing_contact_id: undefined,
    contact_id: undefined,
    billing_note: undefined,
  });

  before(async () => {
    await ctx.db.updateTable('services').set({ lastStartsOn: null }).where('id', '!=', 25).execute();
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/${path}`, headers, ...(payload ? { payload } : {}) });
  const count = async (table: 'corporateSubscriptions' | 'subscriptionLearners') =>
    Number((await ctx.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const errorsOf = (body: Json) => Object.fromEntries((body.errors as Json[]).map((error) => [error.field, error.code]));

  describe('reading', () => {
    it("lists the organisation's applications, newest start first, each with its services, class and counts", async () => {
      const response = await call('GET', 'organizations/1/corporate_subscriptions?per_page=999&lang=en', as.manager);
      expect(response.statusCode, response.body).to.equal(200);
      const list = response.json().corporate_subscriptions as Json[];
      expect(list.map((item) => item.request_code)).to.deep.equal(['A000000104', 'A000000101', 'A000000103', 'A000000106', 'A000000107', 'A000000102']);
      const emba = list.find((item) => item.request_code === 'A000000101')!;
      expect(emba).to.have.all.keys('id', 'request_code', 'etag', 'is_updatable', 'change_deadline', 'applied_at', 'starts_on', 'user_count', 'services', 'project', 'project_class');
      expect(emba).to.include({ is_updatable: true, user_count: 3, project: null, project_class: null });
      // issue 30: the last day a change is allowed, counted in business days (holidays and the closure not counted)
      expect(emba.change_deadline).to.equal(businessCalendar().changeDeadline(addDays(today(), 30)));
      for (const item of list) expect(item.is_updatable, item.request_code).to.equal(today() <= item.change_deadline);
      expect(emba.starts_on).to.deep.equal([addDays(today(), 30)]);
      expect(emba.services.map((service: Json) => service.id)).to.deep.equal([2, 13]);
      expect(emba.services[0].service_group).to.deep.equal({ id: 2, name: 'Online MBA 2.0' });
      const gls = list.find((item) => item.request_code === 'A000000103')!;
      expect(gls.project).to.deep.equal({ project_code: 'PJ2026-001', name: '2026年度 新任管理職研修' });
      expect(gls.project_class.name).to.equal('クラスA（4月開講）');
      expect(list.find((item) => item.request_code === 'A000000102')!.is_updatable).to.equal(false);
    });

    it('sorts by starts_on ascending on request and filters by service group', async () => {
      const ascending = (await call('GET', 'organizations/1/corporate_subscriptions?order_by=starts_on', as.manager)).json().corporate_subscriptions as Json[];
      expect(ascending.map((item) => item.request_code)).to.deep.equal(['A000000102', 'A000000107', 'A000000106', 'A000000103', 'A000000101', 'A000000104']);
      const gls = (await call('GET', 'organizations/1/corporate_subscriptions?service_group_id=4', as.manager)).json().corporate_subscriptions as Json[];
      expect(gls.map((item) => item.request_code)).to.deep.equal(['A000000103', 'A000000106', 'A000000107']);
    });

    it('pages the list (per_page, page) and names the next page until the last, each page with its own counts (issue 27)', async () => {
      const all = (await call('GET', 'organizations/1/corporate_subscriptions', as.manager)).json();
      expect(all.next_page).to.equal(null);
      const pages = [];
      for (let page = 1; page <= 3; page += 1) {
        const answer = (await call('GET', `organizations/1/corporate_subscriptions?per_page=2&page=${page}`, as.manager)).json();
        expect(answer.next_page).to.equal(page < 3 ? page + 1 : null);
        pages.push(...(answer.corporate_subscriptions as Json[]));
      }
      expect(pages).to.deep.equal(all.corporate_subscriptions);
      expect((await call('GET', 'organizations/1/corporate_subscriptions?per_page=2&page=4', as.manager)).json()).to.deep.equal({ corporate_subscriptions: [], next_page: null });
      for (const query of ['per_page=1000', 'per_page=0', 'page=0', 'page=x']) {
        expect((await call('GET', `organizations/1/corporate_subscriptions?${query}`, as.manager)).statusCode, query).to.be.oneOf([400, 422]);
      }
    });

    it('writes each application as the answer of its changes does (the database writes the list): the same fields in the same order, values and timestamps', async () => {
      // a time with microseconds, as PostgreSQL's now() writes them, and a class name JSON must escape
      await sql`update corporate_subscriptions set applied_at = '2026-03-04T05:06:07.891234Z' where request_code = 'A000000101'`.execute(ctx.db);
      const glsA = await ctx.db.selectFrom('projectClasses').select(['id', 'name']).where('code', '=', 'GLS-A').executeTakeFirstOrThrow();
      await ctx.db.updateTable('projectClasses').set({ name: 'クラス "A"\\\n\t' }).where('id', '=', glsA.id).execute();
      try {
        for (const lang of ['ja', 'en']) {
          const listed = (await call('GET', `organizations/1/corporate_subscriptions?per_page=999&lang=${lang}`, as.manager)).json().corporate_subscriptions as Json[];
          const changes = (await call('GET', `organizations/1/corporate_subscriptions?updated_since=1970-01-01T00:00:00Z&per_page=999&lang=${lang}`, as.manager)).json();
          const changed = new Map((changes.corporate_subscriptions as Json[]).map(({ updated_at: _, ...item }) => [item.request_code, item]));
          expect(listed).to.have.length(changed.size);
          // as text: the keys' order too
          for (const item of listed) expect(JSON.stringify(item), `${lang} ${item.request_code}`).to.equal(JSON.stringify(changed.get(item.request_code)));
          expect(listed.find((item) => item.request_code === 'A000000101')!.applied_at).to.equal('2026-03-04T05:06:07.891Z');
          expect(listed.find((item) => item.request_code === 'A000000103')!.project_class.name).to.equal('クラス "A"\\\n\t');
        }
      } finally {
        await ctx.db.updateTable('projectClasses').set({ name: glsA.name }).where('id', '=', glsA.id).execute();
      }
    });

    describe('a page kept between its changes (issue 47, migration 0113)', () => {
      const appliedAt = async (headers = as.manager) =>
        ((await call('GET', 'organizations/1/corporate_subscriptions?per_page=999&lang=en', headers)).json().corporate_subscriptions as Json[]).find((item) => item.request_code === 'A000000101')!.applied_at;
      // applied_at is never changed by the portal: the statement of an operator's SQL
      const setAppliedAt = (at: string, db = ctx.db) => sql`update corporate_subscriptions set applied_at = ${at}::timestamptz where request_code = 'A000000101'`.execute(db);
      const moveCatalogue = async () => {
        for (const step of [1, -1]) await ctx.db.updateTable('services').set({ position: sql`position + ${step}` }).where('id', '=', 2).execute();
      };

      it("answers the page kept while the list's version stands, and a change to an application or the catalogue at once", async () => {
        const original = await appliedAt();
        try {
          // a write past the domain, as another instance or an operator makes it
          await setAppliedAt('2026-01-02T03:04:05.000Z');
          expect(await appliedAt()).to.equal('2026-01-02T03:04:05.000Z');
          // the same write with the triggers off leaves the version: the page kept is answered as it was
          await withTriggersOff(ctx.db, (connection) => setAppliedAt('2026-02-03T04:05:06.000Z', connection));
          expect(await appliedAt()).to.equal('2026-01-02T03:04:05.000Z');
          // a change to the catalogue moves every organisation's list
          await moveCatalogue();
          expect(await appliedAt()).to.equal('2026-02-03T04:05:06.000Z');
        } finally {
          await setAppliedAt(original);
        }
      });

      it('ends the page kept when the day ends in Tokyo (whether an application may be changed is the day’s)', async () => {
        const original = await appliedAt();
        const nextDay = Date.parse(`${addDays(tokyoToday(), 1)}T00:00:00+09:00`);
        const clock = sinon.useFakeTimers({ now: nextDay - 60_000, toFake: ['Date'] });
        try {
          const manager = bearer(await accessToken(ctx.app, { sub: '1' }));
          await moveCatalogue(); // the page read afresh, under this day
          expect(await appliedAt(manager)).to.equal(original);
          await withTriggersOff(ctx.db, (connection) => setAppliedAt('2026-03-04T05:06:07.000Z', connection));
          expect(await appliedAt(manager)).to.equal(original);
          clock.setSystemTime(nextDay + 60_000);
          expect(await appliedAt(manager)).to.equal('2026-03-04T05:06:07.000Z');
        } finally {
          clock.restore();
          await setAppliedAt(original);
        }
      });
    });

    it('answers one application with its admins, learners, contacts and the group’s links', async () => {
      const response = await call('GET', 'organizations/1/corporate_subscriptions/A000000101?lang=en', as.manager);
      expect(response.statusCode, response.body).to.equal(200);
      const subscription = response.json().corporate_subscription;
      expect(subscription).to.include({ type: 'standard', term: null, billing_contact_id: billingContact1(), contact_id: contact1(), billing_note: '発注番号 PO-2026-0042' });
      expect(subscription.admins.map((admin: Json) => admin.email)).to.deep.equal(['manager@example.com', 'manager2@example.com']);
      expect(subscription.users).to.have.length(3);
      expect(subscription.users[0]).to.have.all.keys('id', 'first_name', 'last_name', 'kana_first_name', 'kana_last_name', 'email');
      expect(subscription.billing_contact).to.include({ id: billingContact1(), email: 'accounting@example.com' });
      expect(subscription.contact).to.include({ id: contact1(), postal_code: '100-0005' });
      expect(subscription.services[0].service_group.urls).to.be.an('array').that.is.not.empty;
      const gls = (await call('GET', 'organizations/1/corporate_subscriptions/A000000103', as.manager)).json().corporate_subscription;
      expect(gls).to.include({ type: 'class', billing_contact: null, contact: null });
      expect(gls.term).to.be.a('string');
    });

    it("keeps organisations apart: another organisation's requestCode and an unknown one answer 404", async () => {
      for (const code of ['A000000105', 'A999999999', 'nonsense']) {
        const response = await call('GET', `organizations/1/corporate_subscriptions/${code}`, as.manager);
        expect(response.statusCode, code).to.equal(404);
        expect(response.json()).to.deep.equal({ error: 'not_found' });
      }
      const theirs = (await call('GET', 'organizations/2/corporate_subscriptions', as.otherManager)).json().corporate_subscriptions as Json[];
      expect(theirs.map((item) => item.request_code)).to.deep.equal(['A000000105']);
    });

    it('refuses a member (403): applications are a manager’s', async () => {
      expect((await call('GET', 'organizations/1/corporate_subscriptions', as.member)).statusCode).to.equal(403);
      expect((await call('POST', 'organizations/1/corporate_subscriptions', as.member, application())).statusCode).to.equal(403);
    });
  });

  describe('applying (POST)', () => {
    it('answers a dry run with the application as it would be (id 0, requestCode \'\') and stores nothing', async () => {
      const before = [await count('corporateSubscriptions'), await count('subscriptionLearners')];
      const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application());
      expect(response.statusCode, response.body).to.equal(200);
      const { corporate_subscription: subscription, warnings } = response.json();
      expect(subscription).to.include({ id: 0, request_code: '', user_count: 2, billing_note: 'PO-1', type: 'standard' });
      expect(subscription.users.map((user: Json) => user.id)).to.deep.equal([0, 0]);
      expect(warnings).to.deep.equal({ users: [[], []], codes: [] });
      expect([await count('corporateSubscriptions'), await count('subscriptionLearners')]).to.deep.equal(before);
    });

    it('stores a real run with a new requestCode (201), dropping learner rows with all five fields blank', async () => {
      const blank = { last_name: '', first_name: ' ', kana_last_name: '', kana_first_name: '', email: '' };
      const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, application({ users: [learner(0), blank, learner(1), blank], starts_on: startsOn(40) }));
      expect(response.statusCode, response.body).to.equal(201);
      const subscription = response.json().corporate_subscription;
      expect(subscription.request_code).to.match(/^A\d{9}$/);
      expect(subscription.id).to.be.above(0);
      expect(subscription.users.map((user: Json) => user.email)).to.deep.equal(['learner0@example.com', 'learner1@example.com']);
      expect(subscription.is_updatable).to.equal(businessCalendar().isUpdatable(startsOn(40), today()));
      expect(subscription.change_deadline).to.equal(businessCalendar().changeDeadline(startsOn(40)));
      const read = await call('GET', `organizations/1/corporate_subscriptions/${subscription.request_code}`, as.manager);
      expect(read.json().corporate_subscription).to.deep.equal(subscription);
    });

    it('with a class: no contacts nor billing note (given ones are refused by the form)', async () => {
      const withClass = classApplication(await glsClass('GLS-A'));
      const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, withClass);
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().corporate_subscription).to.include({ type: 'class', billing_contact_id: null, contact_id: null, billing_note: null });
      const refused = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, { ...withClass, contact_id: contact1() });
      expect(refused.statusCode).to.equal(422);
      expect(errorsOf(refused.json())).to.have.property('contact_id', 'invalid');
    });

    it('refuses a new registration for a gls class past its registration deadline (classClosed, with the deadline), however it is dated', async () => {
      const started = await glsClass('GLS-C');
      const register = (projectClass: { id: number; startsOn: string }, date: string) =>
        call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, classApplication(projectClass, { starts_on: date }));
      for (const date of [started.startsOn, startsOn()]) {
        const refused = await register(started, date);
        expect(refused.statusCode, date).to.equal(422);
        expect(refused.json().errors, date).to.deep.equal([{ field: 'project_class_id', code: 'classClosed', meta: { deadline: businessCalendar().lastApplicationDay(started.startsOn) } }]);
      }
      const open = await glsClass('GLS-B');
      expect((await register(open, open.startsOn)).statusCode).to.equal(200);
      // the class's own application keeps it: A000000106 (GLS-C) changes its learners through the confirmed route
    });

    it('answers the form’s own rules as 422 field errors: required fields, the date format, learner rows', async () => {
      const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, {
        service_ids: [],
        admin_ids: [],
        users: [learner(0, { email: 'not-an-address', kana_last_name: '山田' })],
        starts_on: '2026/12/01',
        billing_contact_id: 0,
      });
      expect(response.statusCode, response.body).to.equal(422);
      expect(errorsOf(response.json())).to.include({
        service_ids: 'blank',
        admin_ids: 'blank',
        starts_on: 'invalid',
        billing_contact_id: 'blank',
        contact_id: 'blank',
        'users.0.email': 'invalid',
        'users.0.kana_last_name': 'invalid',
      });
    });

    it('reads a start date given as MM-dd-yyyy as yyyy-MM-dd (SPEC §5)', async () => {
      const [year, month, date] = startsOn(20).split('-');
      const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ starts_on: `${month}-${date}-${year}` }));
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().corporate_subscription.starts_on).to.deep.equal([startsOn(20)]);
    });

    it('refuses a start date outside the window (SPEC §5): before the earliest, after 6 months, after a service’s last start date', async () => {
      for (const date of [addDays(businessCalendar().earliestStartsOn(today()), -1), addDays(latestStartsOn(today()), 1), '2026-02-30']) {
        const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ starts_on: date }));
        expect(response.statusCode, date).to.equal(422);
        expect(response.json().errors).to.deep.equal([{ field: 'starts_on', code: 'outOfRange', meta: {} }]);
      }
      await ctx.db.updateTable('services').set({ lastStartsOn: addDays(startsOn(), -1) }).where('id', '=', 9).execute();
      try {
        const capped = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application());
        expect(errorsOf(capped.json())).to.deep.equal({ starts_on: 'outOfRange' });
      } finally {
        await ctx.db.updateTable('services').set({ lastStartsOn: null }).where('id', '=', 9).execute();
      }
    });

    it('refuses admins who are not activated or not of the organisation (adminIds blank)', async () => {
      for (const adminIds of [[1, 3], [1, 999]]) {
        const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ admin_ids: adminIds }));
        expect(errorsOf(response.json()), JSON.stringify(adminIds)).to.deep.equal({ admin_ids: 'blank' });
      }
    });

    it("treats another organisation's contact, billing contact or class as none: blank / notFound", async () => {
      const [theirContact] = await ctx.db
        .insertInto('contacts')
        .values({ organizationId: 2, corporationName: 'x', departmentName: 'x', postalCode: '100-0001', address: 'x', firstName: 'x', lastName: 'x', kanaFirstName: 'x', kanaLastName: 'x', phoneNumber: '0', email: 'x@example.com' })
        .returning('id')
        .execute();
      const contacts = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ contact_id: ctx.app.publicIds.contact.toPublic(theirContact!.id), billing_contact_id: 999 }));
      expect(errorsOf(contacts.json())).to.deep.equal({ billing_contact_id: 'blank', contact_id: 'blank' });
      const theirClass = await ctx.db.selectFrom('projectClasses').select('id').where('code', '=', 'GLS-S').executeTakeFirstOrThrow();
      const projectClass = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, {
        ...application({ service_group_id: 4, service_ids: [4], project_class_id: theirClass.id, users: learners(10) }),
        billing_contact_id: undefined,
        contact_id: undefined,
      });
      expect(errorsOf(projectClass.json())).to.deep.equal({ project_class_id: 'notFound' });
    });

    it('refuses discontinued services and services the organisation may not use, by name (cantBeUsed)', async () => {
      const discontinued = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true&lang=en', as.manager, application({ service_group_id: 3, service_ids: [25] }));
      expect(discontinued.json().errors).to.deep.include({ field: 'service_ids', code: 'cantBeUsed', meta: { services: 'Library Plus (legacy)' } });
      // G0000002 may not use newhodaiplus (9)
      const unusable = await call('POST', 'organizations/2/corporate_subscriptions?dryrun=true', as.otherManager, { ...application(), billing_contact_id: undefined, contact_id: undefined, project_class_id: 1 });
      expect(errorsOf(unusable.json())).to.include({ service_ids: 'cantBeUsed' });
    });

    it('refuses services of two groups, several terms of a single-choice group, and a group other than serviceGroupId', async () => {
      for (const [serviceIds, groupId] of [[[9, 1], 9], [[1, 11], 1], [[9], 1]] as const) {
        const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ service_ids: serviceIds, service_group_id: groupId }));
        expect(errorsOf(response.json()), JSON.stringify(serviceIds)).to.deep.equal({ service_ids: 'invalid' });
      }
    });

    it('marks every row of a duplicated e-mail (any case) duplicated', async () => {
      const users = [learner(0), learner(1), learner(2, { email: 'LEARNER0@example.com' })];
      const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ users }));
      expect(response.json().errors).to.deep.equal([
        { field: 'users.0.email', code: 'duplicated', meta: {} },
        { field: 'users.2.email', code: 'duplicated', meta: {} },
      ]);
    });

    it('limits the users by group: hodai its maximum, emba floor(maximum / subjects), gls its class size', async () => {
      await ctx.db.updateTable('serviceGroups').set({ maximumUsers: 2 }).where('id', '=', 9).execute();
      await ctx.db.updateTable('serviceGroups').set({ maximumUsers: 5 }).where('id', '=', 2).execute();
      try {
        const hodai = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ users: learners(3) }));
        expect(hodai.json().errors).to.deep.equal([{ field: 'users', code: 'maximumNumberUsers.hodai', meta: { number: 2 } }]);
        expect((await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ users: learners(2) }))).statusCode).to.equal(200);
        const emba = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ service_group_id: 2, service_ids: [2, 13], users: learners(3) }));
        expect(emba.json().errors).to.deep.equal([{ field: 'users', code: 'maximumNumberUsers.emba', meta: { number: 2 } }]);
        const gls = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, classApplication(await glsClass('GLS-A'), { users: learners(41) }));
        expect(gls.json().errors).to.deep.equal([{ field: 'users', code: 'classSize', meta: { number: 40 } }]);
      } finally {
        await ctx.db.updateTable('serviceGroups').set({ maximumUsers: 1000 }).where('id', '=', 9).execute();
        await ctx.db.updateTable('serviceGroups').set({ maximumUsers: 300 }).where('id', '=', 2).execute();
      }
    });

    it('warns: already booked for the start month, learners in an overlapping application, duplicated names, below the class minimum, a class of the other kind', async () => {
      const booked = (await call('GET', 'organizations/1/corporate_subscriptions/A000000104', as.manager)).json().corporate_subscription;
      const users = [
        { ...learner(0), email: booked.users[0].email },
        learner(1, { first_name: '同名', last_name: '同姓', email: 'namesake1@example.com' }),
        learner(2, { first_name: '同名', last_name: '同姓', email: 'namesake2@example.com' }),
      ];
      const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ starts_on: booked.starts_on[0], users }));
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().warnings).to.deep.equal({
        users: [[{ engaged_request_code: 'A000000104' }], ['duplicatedName'], ['duplicatedName']],
        codes: ['alreadyBooked'],
      });
      // the start month is a range of days (issue 27): its first and its last day are the booked month too
      const [year, month] = (booked.starts_on[0] as string).split('-').map(Number) as [number, number];
      const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
      for (const startsOn of [`${year}-${String(month).padStart(2, '0')}-01`, lastDay]) {
        const edge = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ starts_on: startsOn, users: [learner(5)] }));
        expect(edge.json().warnings.codes, startsOn).to.include('alreadyBooked');
      }
      // GLS-B: no application of the group in its start month (A000000103, GLS-A, starts 39 days earlier)
      const small = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, classApplication(await glsClass('GLS-B'), { users: learners(3) }));
      expect(small.json().warnings.codes).to.deep.equal(['belowClassMinimum']);
      const bundled = await ctx.db.selectFrom('projectClasses').select('id').where('code', '=', 'BND-1').executeTakeFirstOrThrow();
      const otherKind = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, {
        ...application({ service_group_id: 4, service_ids: [4], project_class_id: bundled.id, users: learners(10), starts_on: startsOn(120) }),
        billing_contact_id: undefined,
        contact_id: undefined,
      });
      expect(otherKind.json().warnings.codes).to.deep.equal(['unregisteredClass']);
    });

    it('rolls the whole application back when a later insert fails: no application, service, admin nor learner row stays', async () => {
      await sql`create function refuse_learner() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(ctx.db);
      await sql`create trigger refuse_learner before insert on subscription_learners for each row when (new.email = 'refused@example.com') execute function refuse_learner()`.execute(ctx.db);
      try {
        const before = await ctx.db.selectFrom('corporateSubscriptions').select('requestCode').execute();
        const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, application({ users: [learner(0, { email: 'rollback@example.com' }), learner(1, { email: 'refused@example.com' })], starts_on: startsOn(50) }));
        expect(response.statusCode).to.equal(500);
        expect(await ctx.db.selectFrom('corporateSubscriptions').select('requestCode').execute()).to.deep.equal(before);
        const orphans = await sql<{ n: number }>`select (select count(*) from subscription_services where subscription_id not in (select id from corporate_subscriptions))
          + (select count(*) from subscription_admins where subscription_id not in (select id from corporate_subscriptions))::int as n`.execute(ctx.db);
        expect(Number(orphans.rows[0]!.n)).to.equal(0);
        expect(await ctx.db.selectFrom('subscriptionLearners').select('id').where('email', '=', 'rollback@example.com').execute()).to.deep.equal([]);
      } finally {
        await sql`drop trigger refuse_learner on subscription_learners`.execute(ctx.db);
        await sql`drop function refuse_learner()`.execute(ctx.db);
      }
    });
  });

  describe('changing (PATCH)', () => {
    async function newApplication(extra: Json = {}) {
      const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, application({ starts_on: startsOn(60), users: learners(3), ...extra }));
      expect(response.statusCode, response.body).to.equal(201);
      return response.json().corporate_subscription as Json;
    }
    const asForm = (subscription: Json, extra: Json = {}) => ({
      service_ids: subscription.services.map((service: Json) => service.id),
      admin_ids: subscription.admins.map((admin: Json) => admin.id),
      users: subscription.users,
      starts_on: subscription.starts_on[0],
      billing_note: subscription.billing_note,
      project_class_id: subscription.project_class?.id ?? 0,
      ...extra,
    });

    it('keeps learners by id, adds rows without one, removes the missing, and keeps the contacts it leaves out', async () => {
      const stored = await newApplication();
      const [first, , third] = stored.users as Json[];
      const users = [{ ...third, first_name: '三郎' }, first, learner(7)];
      const response = await call('PATCH', `organizations/1/corporate_subscriptions/${stored.request_code}`, as.manager, asForm(stored, { users, admin_ids: [1, 4], billing_note: 'PO-2' }));
      expect(response.statusCode, response.body).to.equal(200);
      const changed = response.json().corporate_subscription;
      expect(changed.users.map((user: Json) => user.id).slice(0, 2)).to.deep.equal([third.id, first.id]);
      expect(changed.users[0].first_name).to.equal('三郎');
      expect(changed.users[2].id).to.be.above(0).and.not.be.oneOf([first.id, third.id]);
      expect(changed).to.include({ billing_contact_id: billingContact1(), contact_id: contact1(), billing_note: 'PO-2', request_code: stored.request_code });
      expect(changed.admins.map((admin: Json) => admin.id)).to.deep.equal([1, 4]);
      expect((await call('GET', `organizations/1/corporate_subscriptions/${stored.request_code}`, as.manager)).json().corporate_subscription).to.deep.equal(changed);
    });

    it('swaps two learners’ e-mails in one change (the uniqueness holds at the commit)', async () => {
      const stored = await newApplication();
      const [first, second, third] = stored.users as Json[];
      const users = [{ ...first, email: second.email }, { ...second, email: first.email }, third];
      const response = await call('PATCH', `organizations/1/corporate_subscriptions/${stored.request_code}`, as.manager, asForm(stored, { users }));
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().corporate_subscription.users.map((user: Json) => user.email)).to.deep.equal([second.email, first.email, third.email]);
    });

    it('answers a dry run with the change and new rows as id 0, and changes nothing', async () => {
      const stored = await newApplication();
      const response = await call('PATCH', `organizations/1/corporate_subscriptions/${stored.request_code}?dryrun=true`, as.manager, asForm(stored, { users: [...stored.users, learner(8)] }));
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().corporate_subscription.users.map((user: Json) => user.id)).to.deep.equal([...stored.users.map((user: Json) => user.id), 0]);
      expect((await call('GET', `organizations/1/corporate_subscriptions/${stored.request_code}`, as.manager)).json().corporate_subscription).to.deep.equal(stored);
    });

    it('refuses a learner id that is not one of this application’s (users.{i}.id notFound)', async () => {
      const stored = await newApplication();
      const response = await call('PATCH', `organizations/1/corporate_subscriptions/${stored.request_code}?dryrun=true`, as.manager, asForm(stored, { users: [{ ...learner(9), id: 1 }] }));
      expect(errorsOf(response.json())).to.deep.equal({ 'users.0.id': 'notFound' });
    });

    it('answers 422 requestCode notUpdatable past the change deadline, and 404 for an unknown or another organisation’s', async () => {
      const started = (await call('GET', 'organizations/1/corporate_subscriptions/A000000102', as.manager)).json().corporate_subscription;
      const late = await call('PATCH', 'organizations/1/corporate_subscriptions/A000000102', as.manager, asForm(started));
      expect(late.statusCode).to.equal(422);
      expect(late.json().errors).to.deep.equal([{ field: 'request_code', code: 'notUpdatable', meta: {} }]);
      const stored = await newApplication();
      for (const code of ['A000000105', 'A999999999']) {
        expect((await call('PATCH', `organizations/1/corporate_subscriptions/${code}`, as.manager, asForm(stored))).statusCode, code).to.equal(404);
      }
    });
  });

  describe('changing the learners of a confirmed class application', () => {
    const confirmedPath = (code: string) => `organizations/1/confirmed_corporate_subscriptions/${code}`;
    /** A000000103 as its class GLS-A started `days` ago (the class owns the start date: only the class's is moved). */
    async function glsStartedDaysAgo(days: number): Promise<Json> {
      await ctx.db.updateTable('projectClasses').set({ startsOn: addDays(today(), -days) }).where('code', '=', 'GLS-A').execute();
      return (await call('GET', 'organizations/1/corporate_subscriptions/A000000103', as.manager)).json().corporate_subscription;
    }
    /** The application as the page sends it: its services, admins, start date and class as stored, the learners given. */
    const body = (subscription: Json, users: Json[]) => ({
      service_ids: [4],
      admin_ids: subscription.admins?.map((admin: Json) => admin.id) ?? [1],
      starts_on: subscription.starts_on[0],
      project_class_id: subscription.project_class.id,
      users,
    });

    it('adds learners until the enlargement deadline (start + 7 days), after it answers enlargementDeadline with the row number', async () => {
      const open = await glsStartedDaysAgo(7);
      const added = await call('PATCH', `${confirmedPath('A000000103')}?dryrun=true`, as.manager, body(open, [...open.users, learner(20)]));
      expect(added.statusCode, added.body).to.equal(200);
      expect(added.json().corporate_subscription.user_count).to.equal(13);
      const closed = await glsStartedDaysAgo(8);
      const refused = await call('PATCH', confirmedPath('A000000103'), as.manager, body(closed, [...closed.users, learner(20)]));
      expect(refused.statusCode).to.equal(422);
      expect(refused.json().errors).to.deep.equal([{ field: 'users.12.email', code: 'enlargementDeadline', meta: { line_no: 13, email: 'learner20@example.com' } }]);
    });

    it('refuses removing a learner (reductionDeadline with the e-mail) or changing the admins (admin_ids notUpdatable), and changes nothing else but the learners', async () => {
      const open = await glsStartedDaysAgo(1);
      const removed = await call('PATCH', confirmedPath('A000000103'), as.manager, body(open, open.users.slice(1)));
      expect(removed.json().errors).to.deep.equal([{ field: 'users.0.email', code: 'reductionDeadline', meta: { email: open.users[0].email } }]);
      const otherAdmins = await call('PATCH', `${confirmedPath('A000000103')}?dryrun=true`, as.manager, { ...body(open, [...open.users, learner(21)]), admin_ids: [1] });
      expect(otherAdmins.statusCode).to.equal(422);
      expect(otherAdmins.json().errors).to.deep.equal([{ field: 'admin_ids', code: 'notUpdatable', meta: {} }]);
      const stored = await call('PATCH', confirmedPath('A000000103'), as.manager, { ...body(open, [...open.users, learner(21)]), service_ids: [1] });
      expect(stored.statusCode, stored.body).to.equal(200);
      const changed = stored.json().corporate_subscription;
      expect(changed.users).to.have.length(13);
      expect(changed.services.map((service: Json) => service.id)).to.deep.equal([4]);
      expect(changed.admins.map((admin: Json) => admin.email)).to.deep.equal(['manager@example.com', 'support@example.com']);
    });

    it('refuses a kept row id that takes another learner’s e-mail or names (no learner swapped in past the deadlines)', async () => {
      const closed = await glsStartedDaysAgo(8);
      const swapped = closed.users.map((user: Json, index: number) => (index === 2 ? { ...user, ...learner(30) } : user));
      const late = await call('PATCH', confirmedPath('A000000103'), as.manager, body(closed, swapped));
      expect(late.statusCode).to.equal(422);
      expect(late.json().errors).to.deep.equal([{ field: 'users.2.email', code: 'enlargementDeadline', meta: { line_no: 3, email: 'learner30@example.com' } }]);
      const open = await glsStartedDaysAgo(1);
      const renamed = open.users.map((user: Json, index: number) => (index === 0 ? { ...user, first_name: '別人', last_name: '別' } : user));
      const early = await call('PATCH', confirmedPath('A000000103'), as.manager, body(open, renamed));
      expect(early.json().errors).to.deep.equal([{ field: 'users.0.email', code: 'reductionDeadline', meta: { email: open.users[0].email } }]);
      const sameLearners = open.users.map((user: Json, index: number) => (index === 0 ? { ...user, email: user.email.toUpperCase() } : user));
      const unchanged = await call('PATCH', `${confirmedPath('A000000103')}?dryrun=true`, as.manager, body(open, sameLearners));
      expect(unchanged.statusCode, unchanged.body).to.equal(200);
      const stored = (await call('GET', 'organizations/1/corporate_subscriptions/A000000103', as.manager)).json().corporate_subscription;
      expect(stored.users).to.deep.equal(open.users);
    });

    after(() => glsStartedDaysAgo(-21));

    it('answers notUpdatable for an application without a class, 404 for another organisation’s', async () => {
      const emba = (await call('GET', 'organizations/1/corporate_subscriptions/A000000101', as.manager)).json().corporate_subscription;
      const response = await call('PATCH', confirmedPath('A000000101'), as.manager, { ...body({ starts_on: emba.starts_on, project_class: { id: 1 } }, emba.users) });
      expect(errorsOf(response.json())).to.deep.equal({ request_code: 'notUpdatable' });
      const open = await glsStartedDaysAgo(1);
      expect((await call('PATCH', confirmedPath('A000000105'), as.manager, body(open, open.users))).statusCode).to.equal(404);
    });
  });

  describe('a class with a period owns the start date (issue 25, finding 2)', () => {
    /** The application as the edit page sends it, on the given start date. */
    const asForm = (subscription: Json, startsOnGiven: string) => ({
      service_ids: [4],
      admin_ids: subscription.admins.map((admin: Json) => admin.id),
      users: subscription.users,
      starts_on: startsOnGiven,
      project_class_id: subscription.project_class.id,
    });
    const read = async (requestCode: string) => (await call('GET', `organizations/1/corporate_subscriptions/${requestCode}`, as.manager)).json().corporate_subscription;

    it("refuses a new application for the class on another day (starts_on invalid, with the class's first day), dry run or real, and stores nothing", async () => {
      const glsB = await glsClass('GLS-B');
      const before = await count('corporateSubscriptions');
      // a day inside the start window before the class, and one after the class has ended
      for (const date of [startsOn(), addDays(glsB.startsOn, 70)]) {
        for (const query of ['?dryrun=true', '']) {
          const refused = await call('POST', `organizations/1/corporate_subscriptions${query}`, as.manager, classApplication(glsB, { starts_on: date }));
          expect(refused.statusCode, `${date}${query}`).to.equal(422);
          expect(refused.json().errors).to.deep.equal([{ field: 'starts_on', code: 'invalid', meta: { class_starts_on: glsB.startsOn } }]);
        }
      }
      expect(await count('corporateSubscriptions')).to.equal(before);
    });

    it("applies for the class on its first day (201): stored on that day, every deadline computed from it", async () => {
      const glsB = await glsClass('GLS-B');
      const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, classApplication(glsB));
      expect(response.statusCode, response.body).to.equal(201);
      const subscription = response.json().corporate_subscription;
      expect(subscription.starts_on).to.deep.equal([glsB.startsOn]);
      expect(subscription.is_updatable).to.equal(businessCalendar().isUpdatable(glsB.startsOn, today()));
      expect(subscription.class_deadlines).to.deep.equal(businessCalendar().classDeadlines(glsB.startsOn, today(), ctx.app.config.subscriptions.enlargementDays));
      expect((await call('DELETE', `organizations/1/corporate_subscriptions/${subscription.request_code}`, as.manager)).statusCode).to.equal(204);
    });

    it('refuses changing a class application to another day (PATCH, dry run or real: starts_on invalid) and changes nothing; the confirmed route keeps the class’s day', async () => {
      const stored = await read('A000000103');
      const otherDay = addDays(stored.starts_on[0], 7);
      for (const query of ['?dryrun=true', '']) {
        const refused = await call('PATCH', `organizations/1/corporate_subscriptions/A000000103${query}`, as.manager, asForm(stored, otherDay));
        expect(refused.statusCode, query).to.equal(422);
        expect(refused.json().errors).to.deep.equal([{ field: 'starts_on', code: 'invalid', meta: { class_starts_on: stored.starts_on[0] } }]);
      }
      expect(await read('A000000103')).to.deep.equal(stored);
      const kept = await call('PATCH', 'organizations/1/confirmed_corporate_subscriptions/A000000103?dryrun=true', as.manager, asForm(stored, otherDay));
      expect(kept.statusCode, kept.body).to.equal(200);
      expect(kept.json().corporate_subscription.starts_on).to.deep.equal(stored.starts_on);
    });

    it("takes every deadline from the class's first day, not the stored date: once the class has started, not updatable, changes and cancelling refused", async () => {
      // the class starts yesterday; A000000103 still holds the date it was stored with (three weeks ahead)
      const glsA = await glsClass('GLS-A');
      const started = addDays(today(), -1);
      await ctx.db.updateTable('projectClasses').set({ startsOn: started }).where('id', '=', glsA.id).execute();
      try {
        const subscription = await read('A000000103');
        expect(subscription.starts_on).to.deep.equal([started]);
        expect(subscription.is_updatable).to.equal(false);
        expect(subscription.class_deadlines).to.deep.equal(businessCalendar().classDeadlines(started, today(), ctx.app.config.subscriptions.enlargementDays));
        const listed = (await call('GET', 'organizations/1/corporate_subscriptions', as.manager)).json().corporate_subscriptions as Json[];
        expect(listed.find((item) => item.request_code === 'A000000103')!.is_updatable).to.equal(false);
        const project = (await call('GET', 'organizations/1/projects', as.manager)).json().project_classes.find((projectClass: Json) => projectClass.id === glsA.id);
        expect(project.subscriptions[0]).to.include({ request_code: 'A000000103', state: 'confirmed', starts_on: started });
        const changed = await call('PATCH', 'organizations/1/corporate_subscriptions/A000000103?dryrun=true', as.manager, asForm(subscription, started));
        expect(changed.json().errors).to.deep.equal([{ field: 'request_code', code: 'notUpdatable', meta: {} }]);
        const cancelled = await call('DELETE', 'organizations/1/corporate_subscriptions/A000000103', as.manager);
        expect(cancelled.statusCode).to.equal(422);
        expect(cancelled.json().errors).to.deep.equal([{ field: 'request_code', code: 'notUpdatable', meta: {} }]);
      } finally {
        await ctx.db.updateTable('projectClasses').set({ startsOn: glsA.startsOn }).where('id', '=', glsA.id).execute();
      }
    });
  });

  describe('Idempotency-Key and request codes (issue 15, finding 8)', () => {
    const post = (key: string | undefined, payload: Json, query = '', headers = as.manager) =>
      ctx.app.inject({ method: 'POST', url: `/api/v2/organizations/1/corporate_subscriptions${query}`, headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) }, payload });
    const recordsOf = async (key: string) => Number((await ctx.db.selectFrom('idempotencyRecords').select((eb) => eb.fn.countAll<number>().as('n')).where('key', '=', key).executeTakeFirstOrThrow()).n);

    it('answers a repeat with the same key the first answer (201), storing one application and mailing once', async () => {
      const before = await count('corporateSubscriptions');
      const form = application({ starts_on: startsOn(50) });
      const first = await post('confirm-1', form);
      expect(first.statusCode, first.body).to.equal(201);
      const again = await post('confirm-1', form);
      expect(again.statusCode, again.body).to.equal(201);
      expect(again.json()).to.deep.equal(first.json());
      expect(await count('corporateSubscriptions')).to.equal(before + 1);
      await ctx.app.mailQueue.drain();
      const mails = await ctx.db.selectFrom('mails').select('id').where('subject', 'like', `%${first.json().corporate_subscription.request_code}%`).execute();
      expect(mails).to.have.length(1);
    });

    it('two simultaneous POSTs with the same key make one application: both answer it', async () => {
      const before = await count('corporateSubscriptions');
      const form = application({ starts_on: startsOn(51) });
      const answers = await Promise.all([post('double-submit', form), post('double-submit', form), post('double-submit', form)]);
      expect(answers.map((answer) => answer.statusCode)).to.deep.equal([201, 201, 201]);
      const codes = new Set(answers.map((answer) => answer.json().corporate_subscription.request_code));
      expect(codes.size).to.equal(1);
      expect(await count('corporateSubscriptions')).to.equal(before + 1);
    });

    it('refuses the key with another body (422 idempotency_key invalid), and a malformed key; stores nothing', async () => {
      const before = await count('corporateSubscriptions');
      expect((await post('reused', application({ starts_on: startsOn(52) }))).statusCode).to.equal(201);
      const other = await post('reused', application({ starts_on: startsOn(53) }));
      expect(other.statusCode).to.equal(422);
      expect(other.json().errors).to.deep.equal([{ field: 'idempotency_key', code: 'invalid', meta: {} }]);
      const malformed = await post('with space', application({ starts_on: startsOn(53) }));
      expect(malformed.statusCode).to.equal(422);
      expect(await count('corporateSubscriptions')).to.equal(before + 1);
    });

    it('keys are per organisation and admin; a dry run and a refused write keep no key; the same key on a change replays it', async () => {
      const form = application({ starts_on: startsOn(54) });
      expect((await post('shared-key', form, '?dryrun=true')).statusCode).to.equal(200);
      expect(await recordsOf('shared-key')).to.equal(0);
      expect((await post('shared-key', application({ users: [] }))).statusCode).to.equal(422);
      expect(await recordsOf('shared-key')).to.equal(0);
      const created = await post('shared-key', form);
      expect(created.statusCode).to.equal(201);
      const otherAdmin = bearer(await accessToken(ctx.app, { sub: '4' })); // manager2@, also a manager of G0000001
      const second = await post('shared-key', form, '', otherAdmin);
      expect(second.statusCode, second.body).to.equal(201);
      expect(second.json().corporate_subscription.request_code).not.to.equal(created.json().corporate_subscription.request_code);

      const stored = created.json().corporate_subscription;
      const change = { service_ids: [9], admin_ids: [1], users: [...stored.users, learner(40)], starts_on: stored.starts_on[0], billing_note: 'PO-9', project_class_id: 0 };
      const patch = () =>
        ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/1/corporate_subscriptions/${stored.request_code}`, headers: { ...as.manager, 'idempotency-key': 'change-1' }, payload: change });
      const [one, two] = await Promise.all([patch(), patch()]);
      expect([one.statusCode, two.statusCode], one.body).to.deep.equal([200, 200]);
      expect(two.json()).to.deep.equal(one.json());
      const read = (await call('GET', `organizations/1/corporate_subscriptions/${stored.request_code}`, as.manager)).json().corporate_subscription;
      expect(read.users.map((user: Json) => user.id)).to.deep.equal(one.json().corporate_subscription.users.map((user: Json) => user.id));
    });

    it('gives random request codes: no shared sequence is used up, by real runs or dry runs', async () => {
      const sequence = async () => (await sql<{ lastValue: string }>`select last_value from corporate_subscription_request_codes`.execute(ctx.db)).rows[0]!.lastValue;
      const before = await sequence();
      const codes = [];
      for (const days of [55, 56]) {
        expect((await post(undefined, application({ starts_on: startsOn(days) }), '?dryrun=true')).statusCode).to.equal(200);
        const response = await post(undefined, application({ starts_on: startsOn(days) }));
        codes.push(response.json().corporate_subscription.request_code as string);
      }
      expect(await sequence()).to.equal(before);
      for (const code of codes) expect(code).to.match(/^A[1-9]\d{8}$/);
      expect(Number(codes[1]!.slice(1)) - Number(codes[0]!.slice(1))).not.to.equal(1);
    });
  });

  describe('confirmation mails (SPEC 2.11 done view: mail sent)', () => {
    const mailsTo = async (address: string, requestCode: string) => {
      await ctx.app.mailQueue.drain(); // mails go out after the answer
      return ctx.db.selectFrom('mails').select(['subject', 'textPart']).where('recipients', 'like', `%${address}%`).where('subject', 'like', `%${requestCode}%`).orderBy('id').execute();
    };

    it('mails the manager on applying, changing and cancelling — never on a dry run', async () => {
      await ctx.app.mailQueue.drain(); // the earlier tests' mails, which go out after their answers, are counted before
      const dryRunsBefore = Number((await ctx.db.selectFrom('mails').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true&lang=en', as.manager, application());
      await ctx.app.mailQueue.drain();
      expect(Number((await ctx.db.selectFrom('mails').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).to.equal(dryRunsBefore);

      const created = (await call('POST', 'organizations/1/corporate_subscriptions?lang=en', as.manager, application({ starts_on: startsOn(75) }))).json().corporate_subscription;
      const [applied] = await mailsTo('manager@example.com', created.request_code);
      expect(applied!.subject).to.equal(`Your application ${created.request_code} has been received`);
      expect(applied!.textPart).to.contain(`Start date: ${startsOn(75)}`).and.to.contain('Learners: 2');
      expect(applied!.textPart).to.contain(`/subscription/${created.request_code}?locale=en`);

      const changed = await call('PATCH', `organizations/1/corporate_subscriptions/${created.request_code}`, as.manager, application({ starts_on: startsOn(75), users: learners(3) }));
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(await call('DELETE', `organizations/1/corporate_subscriptions/${created.request_code}`, as.manager)).to.have.property('statusCode', 204);
      const mails = await mailsTo('manager@example.com', created.request_code);
      expect(mails.map((mail) => mail.subject)).to.deep.equal([
        `Your application ${created.request_code} has been received`,
        `【法人管理者ポータル】お申し込み（申込番号 ${created.request_code}）を変更しました`,
        `【法人管理者ポータル】お申し込み（申込番号 ${created.request_code}）をキャンセルしました`,
      ]);
      expect(mails[1]!.textPart).to.contain('受講者数: 3名');
    });
  });

  describe('cancelling (DELETE)', () => {
    it('deletes an updatable application (204, then 404) with its services, admins and learners', async () => {
      const created = (await call('POST', 'organizations/1/corporate_subscriptions', as.manager, application({ starts_on: startsOn(70) }))).json().corporate_subscription;
      const response = await call('DELETE', `organizations/1/corporate_subscriptions/${created.request_code}`, as.manager);
      expect(response.statusCode).to.equal(204);
      expect((await call('GET', `organizations/1/corporate_subscriptions/${created.request_code}`, as.manager)).statusCode).to.equal(404);
      const storedId = ctx.app.publicIds.subscription.toStored(created.id)!;
      expect(await ctx.db.selectFrom('subscriptionLearners').select('id').where('subscriptionId', '=', storedId).execute()).to.deep.equal([]);
      expect((await call('DELETE', `organizations/1/corporate_subscriptions/${created.request_code}`, as.manager)).statusCode).to.equal(404);
    });

    it('refuses one past its deadline (422 notUpdatable) and another organisation’s (404, still there)', async () => {
      const late = await call('DELETE', 'organizations/1/corporate_subscriptions/A000000102', as.manager);
      expect(late.statusCode).to.equal(422);
      expect(late.json().errors).to.deep.equal([{ field: 'request_code', code: 'notUpdatable', meta: {} }]);
      expect((await call('DELETE', 'organizations/1/corporate_subscriptions/A000000105', as.manager)).statusCode).to.equal(404);
      expect((await call('GET', 'organizations/2/corporate_subscriptions/A000000105', as.otherManager)).statusCode).to.equal(200);
    });
  });

  describe('public ids (issue 25 finding 6)', () => {
    /** Another organisation's application with a learner, stored between two of ours (as its own API call would). */
    async function theirApplication(index: number): Promise<void> {
      const { id: _id, ...theirs } = await ctx.db.selectFrom('corporateSubscriptions').selectAll().where('requestCode', '=', 'A000000105').executeTakeFirstOrThrow();
      const { id } = await ctx.db.insertInto('corporateSubscriptions').values({ ...theirs, requestCode: `A80000000${index}` }).returning('id').executeTakeFirstOrThrow();
      await ctx.db
        .insertInto('subscriptionLearners')
        .values({ subscriptionId: id, position: 0, firstName: '花子', lastName: '佐藤', kanaFirstName: 'はなこ', kanaLastName: 'さとう', email: `theirs${index}@example.com` })
        .execute();
    }

    it('two organisations applying in turn: the application and learner ids one sees do not tell how many the other made', async () => {
      const ours: Json[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, application({ starts_on: startsOn(50 + turn), users: [learner(100 + turn)] }));
        expect(response.statusCode, response.body).to.equal(201);
        ours.push(response.json().corporate_subscription);
        await theirApplication(turn);
      }
      // stored ids would step by 2 (the other organisation's in between); public ids step by no rule
      for (const ids of [ours.map((subscription) => subscription.id as number), ours.map((subscription) => subscription.users[0].id as number)]) {
        const steps = ids.slice(1).map((id, index) => id - ids[index]!);
        expect(new Set(steps).size, `steps ${steps.join(', ')}`).to.be.greaterThan(1);
        for (const id of ids) expect(Number.isSafeInteger(id) && id >= 1 && id <= 2147483647, String(id)).to.equal(true);
      }
      for (const subscription of ours) expect((await call('DELETE', `organizations/1/corporate_subscriptions/${subscription.request_code}`, as.manager)).statusCode).to.equal(204);
    });

    it('takes a stored contact id or any other number that is not a contact the organisation was shown as none (blank)', async () => {
      for (const id of [1, 2147483647]) {
        const response = await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, application({ contact_id: id, billing_contact_id: id }));
        expect(errorsOf(response.json()), String(id)).to.deep.equal({ billing_contact_id: 'blank', contact_id: 'blank' });
      }
    });
  });
});
