/**
 * Projects and classes API (issue 17; SPEC 2.1 class routes, 2.8 project layout, §4 class deadlines) on the demo data:
 * G0000001 (id 1) has the gls project PJ2026-001 with GLS-A (A000000103, before its change deadline), GLS-B (open, no
 * application), GLS-C (A000000106, confirmed, before its enlargement deadline) and GLS-D (A000000107, past both), and
 * the bundled project PJ2026-002; G0000002 (id 2) has PJ2026-101 (GLS-S, A000000105).
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

describe('Projects and classes API (issue 17)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  const as = {} as Record<'manager' | 'member' | 'otherManager', Record<string, string>>;
  const today = useTokyoToday();

  before(async () => {
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

  const get = (path: string, headers: Record<string, string>) => ctx.app.inject({ method: 'GET', url: `/api/v2/${path}`, headers });
  const classIdOf = async (code: string) => (await ctx.db.selectFrom('projectClasses').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;

  it("lists the organisation's gls projects, each class with its period and its applications' state and deadlines", async () => {
    const response = await get('organizations/1/projects', as.manager);
    expect(response.statusCode, response.body).to.equal(200);
    const projects = response.json().projects as Json[];
    expect(projects.map((project) => project.project_code)).to.deep.equal(['PJ2026-001']);
    const classes = response.json().project_classes as Json[];
    expect(classes.every((projectClass) => projectClass.project.project_code === 'PJ2026-001')).to.equal(true);
    expect(classes.map((projectClass) => projectClass.code)).to.deep.equal(['GLS-A', 'GLS-B', 'GLS-C', 'GLS-D']);
    expect(classes[1]).to.include({ starts_on: addDays(today(), 60), ends_on: addDays(today(), 119) });
    expect(classes[1]!.subscriptions).to.deep.equal([]);
    expect(classes.map((projectClass) => projectClass.open)).to.deep.equal([true, true, false, false]);
    const states = classes.map((projectClass) => projectClass.subscriptions.map((subscription: Json) => [subscription.request_code, subscription.state]));
    expect(states).to.deep.equal([[['A000000103', 'changeable']], [], [['A000000106', 'confirmed']], [['A000000107', 'confirmed']]]);
    const confirmed = classes[2]!.subscriptions[0];
    expect(confirmed.class_deadlines).to.deep.equal({
      reduction: { date: confirmed.class_deadlines.reduction.date, passed: true },
      enlargement: { date: addDays(today(), 5), passed: false },
    });
    expect(classes[3]!.subscriptions[0].class_deadlines.enlargement.passed).to.equal(true);
    expect(classes[0]!.subscriptions[0].class_deadlines.reduction.passed).to.equal(false);
  });

  it('answers one class of a project with the project (its id for single sign-on) and the period', async () => {
    const id = await classIdOf('GLS-B');
    const response = await get(`organizations/1/projects/PJ2026-001/classes/${id}`, as.manager);
    expect(response.statusCode, response.body).to.equal(200);
    const body = response.json();
    expect(body.project).to.include({ project_code: 'PJ2026-001', name: '2026年度 新任管理職研修' });
    expect(body.project.id).to.be.a('number');
    expect(body.project_class).to.deep.equal({
      id,
      code: 'GLS-B',
      name: 'クラスB（10月開講）',
      starts_on: addDays(today(), 60),
      ends_on: addDays(today(), 119),
      open: true,
      registration_deadline: businessCalendar().lastApplicationDay(addDays(today(), 60)),
    });
  });

  it('says a class that has started is closed for registration, with the last day it took one', async () => {
    const id = await classIdOf('GLS-C');
    const projectClass = (await get(`organizations/1/projects/PJ2026-001/classes/${id}`, as.manager)).json().project_class;
    expect(projectClass).to.include({ open: false, registration_deadline: businessCalendar().lastApplicationDay(addDays(today(), -2)) });
    expect(projectClass.registration_deadline < today()).to.equal(true);
  });

  it("answers the project and the class of one of the project's class applications (Edit learner registration (class))", async () => {
    const response = await get('organizations/1/projects/PJ2026-001/corporate_subscriptions/A000000106', as.manager);
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().project).to.include({ project_code: 'PJ2026-001' });
    expect(response.json().project_class).to.include({ id: await classIdOf('GLS-C'), code: 'GLS-C', starts_on: addDays(today(), -2), open: false });
  });

  it('answers 404 when the application is not of a class of the project in the URL: another project, no class, another organisation, unknown', async () => {
    // a second gls project of G0000001, without applications
    const project = await ctx.db.insertInto('projects').values({ organizationId: 1, projectCode: 'PJ2026-009', name: '別プロジェクト' }).returning('id').executeTakeFirstOrThrow();
    await ctx.db.insertInto('projectClasses').values({ projectId: project.id, code: 'GLS-Z', name: 'クラスZ', kind: 'gls', position: 1 }).execute();
    try {
      for (const path of [
        'organizations/1/projects/PJ2026-009/corporate_subscriptions/A000000103',
        'organizations/1/projects/PJ2026-001/corporate_subscriptions/A000000101',
        'organizations/1/projects/PJ2026-001/corporate_subscriptions/A000000105',
        'organizations/1/projects/PJ2026-101/corporate_subscriptions/A000000105',
        'organizations/1/projects/PJ2026-001/corporate_subscriptions/A999999999',
        'organizations/1/projects/PJ2026-001/corporate_subscriptions/not-a-code',
        'organizations/1/projects/PJ9999-999/corporate_subscriptions/A000000103',
      ]) {
        const response = await get(path, as.manager);
        expect(response.statusCode, path).to.equal(404);
        expect(response.json()).to.deep.equal({ error: 'not_found' });
      }
      expect((await get('organizations/2/projects/PJ2026-101/corporate_subscriptions/A000000105', as.otherManager)).statusCode).to.equal(200);
    } finally {
      await ctx.db.deleteFrom('projects').where('id', '=', project.id).execute();
    }
  });

  it('answers one project with a gls class by its code; 404 for an unknown one, a bundled-only one or another organisation\'s', async () => {
    const response = await get('organizations/1/projects/PJ2026-001', as.manager);
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json().project).to.include({ project_code: 'PJ2026-001' });
    for (const code of ['PJ9999-999', 'PJ2026-002', 'PJ2026-101']) expect((await get(`organizations/1/projects/${code}`, as.manager)).statusCode, code).to.equal(404);
  });

  it('answers 404 for an unknown project, a class of another project or organisation, and a bundled class', async () => {
    const glsB = await classIdOf('GLS-B');
    const glsS = await classIdOf('GLS-S');
    const bundled = await classIdOf('BND-1');
    for (const path of [
      `organizations/1/projects/PJ9999-999/classes/${glsB}`,
      `organizations/1/projects/PJ2026-002/classes/${glsB}`,
      `organizations/1/projects/PJ2026-101/classes/${glsS}`,
      `organizations/1/projects/PJ2026-001/classes/${glsS}`,
      `organizations/1/projects/PJ2026-002/classes/${bundled}`,
      `organizations/1/projects/${encodeURIComponent("PJ' or 1=1")}/classes/${glsB}`,
    ]) {
      const response = await get(path, as.manager);
      expect(response.statusCode, path).to.equal(404);
      expect(response.json()).to.deep.equal({ error: 'not_found' });
    }
    expect((await get(`organizations/1/projects/PJ2026-001/classes/0`, as.manager)).statusCode).to.be.within(400, 422);
  });

  it("refuses a member and another organisation's manager; that manager reads their own", async () => {
    expect((await get('organizations/1/projects', as.member)).statusCode).to.equal(403);
    expect((await get('organizations/1/projects', as.otherManager)).statusCode).to.equal(403);
    const theirs = await get('organizations/2/projects', as.otherManager);
    expect(theirs.json().projects.map((project: Json) => project.project_code)).to.deep.equal(['PJ2026-101']);
  });

  it("adds a class application's deadlines to Application Details (null without a class)", async () => {
    const confirmed = (await get('organizations/1/corporate_subscriptions/A000000106', as.manager)).json().corporate_subscription;
    expect(confirmed.is_updatable).to.equal(false);
    expect(confirmed.class_deadlines.reduction.passed).to.equal(true);
    expect(confirmed.class_deadlines.enlargement).to.deep.equal({ date: addDays(today(), 5), passed: false });
    const standard = (await get('organizations/1/corporate_subscriptions/A000000101', as.manager)).json().corporate_subscription;
    expect(standard.class_deadlines).to.equal(null);
  });
});
