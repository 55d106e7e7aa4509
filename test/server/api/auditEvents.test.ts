/**
 * The audit trail (issue 21), on the demo data: manager@ (1) manages G0000001 (id 1) and is a member of G0000002
 * (id 2); member@ (2) and pending@ (3, not activated) are members of G0000001. Each write route records its action with
 * its actor and changes (read back through GET audit_events); refused, rolled-back and dry-run writes record nothing;
 * the list and the export show the token's organisation only; the table refuses updates and deletes. Account events
 * reach only the organisations the admin signed in to, and no entry keeps a personal field's values (issue 25).
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { addDays } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import type { AuditAction } from '../../../src/common/auditActions.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { auditTrail } from '../../../src/server/domain/audit.js';
import { cutNote } from '../../../src/server/domain/csv.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { authorize, bearer, Browser, signIn } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTokyoToday } from '../support/tokyoDay.js';
import { startTestServer, useTestApp, type TestServer } from '../support/testApp.js';

type Json = Record<string, any>;

// gc() without starting Node with --expose-gc: a new context made after the flag is set has it
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const NAME = { last_name: '鈴木', first_name: '一郎', kana_last_name: 'すずき', kana_first_name: 'いちろう' };
const CONTACT_PERSON = { corporation_name: '株式会社デモ', department_name: '総務部', phone_number: '03-1234-5678', email: 'soumu@example.com', ...NAME };
const CONTACT = { ...CONTACT_PERSON, postal_code: '100-0005', address: '東京都千代田区丸の内1-1-1' };
const BILLING_CONTACT = { ...CONTACT_PERSON, cc_email: '', addressee: '' };
const learner = (index: number) => ({ last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう', email: `audit-learner${index}@example.com` });

describe('Audit trail (issue 21)', function () {
  this.timeout(60_000);
  // TRUST_PROXY=true (demo mode only): a client's X-Forwarded-For is its address
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', SIGNIN_MAX_FAILURES: '3', SIGNIN_FAILURE_DELAY_MS: '0', TRUST_PROXY: 'true' } });
  const as = {} as Record<'manager' | 'member' | 'otherManager', Record<string, string>>;
  let otherManagerId = 0;
  const today = useTokyoToday();
  const startsOn = (days: number) => addDays(businessCalendar().earliestStartsOn(today()), days);

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/${url}`, headers, ...(payload ? { payload } : {}) });
  const events = async (query = '', orgId = 1, headers = as.manager): Promise<Json[]> => {
    const response = await call('GET', `organizations/${orgId}/audit_events?limit=100${query}`, headers);
    expect(response.statusCode, response.body).to.equal(200);
    return response.json().audit_events;
  };
  /** The public ids of G0000001's first contact and billing contact (stored as 1). */
  const contacts = () => ({ billing_contact_id: ctx.app.publicIds.billingContact.toPublic(1), contact_id: ctx.app.publicIds.contact.toPublic(1) });
  const count = async () => Number((await ctx.db.selectFrom('auditEvents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  /** The actor as an entry shows it: an admin and their e-mail, or no one (an unauthenticated client). */
  const actorOf = async (adminId: number | null) =>
    adminId === null
      ? { admin_id: null, email: '', api_client_name: null }
      : { admin_id: adminId, email: (await ctx.db.selectFrom('admins').select('email').where('id', '=', adminId).executeTakeFirstOrThrow()).email, api_client_name: null };
  /** Wrong passwords for the e-mail until the sign-in is locked (SIGNIN_MAX_FAILURES=3); answers the last status, 429 when locked. */
  const lockOut = async (email: string, browser: Browser) => {
    let status = 0;
    for (let attempt = 1; attempt <= 3; attempt += 1) status = (await authorize(ctx.app, { email, password: `Wrong-${attempt}`, browser })).lastStatus ?? 0;
    return status;
  };

  before(async () => {
    await ctx.db.updateTable('services').set({ lastStartsOn: null }).where('id', '!=', 25).execute();
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword(DEMO_PASSWORD), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    otherManagerId = other.id;
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
    // the account events below reach these organisations: their admins have signed in there (issue 25 finding 5)
    await ctx.db.updateTable('affiliations').set({ firstSignedInAt: new Date() }).where('adminId', 'in', [1, 2]).execute();
  });

  /** What each case leaves behind for the next (ids made by earlier writes). */
  const made: Json = {};

  interface Case {
    action: AuditAction;
    /** Does the write; answers the HTTP status. */
    write: () => Promise<number>;
    status: number;
    /** The acting admin (default manager@, 1); null: an unauthenticated client. */
    actor?: number | null;
    target: Json;
    /** The target's id as the API shows it, known once written (a contact's public id). */
    targetId?: () => string;
    /** Changes the entry must hold (field → [before, after]); every other field is free. */
    changes?: Record<string, [unknown, unknown]>;
    /** Organisations whose trail shows it (default [1]). */
    organizations?: number[];
  }

  const CASES: Case[] = [
    {
      action: 'membership.invited',
      write: async () => (await call('POST', 'organizations/1/affiliations', as.manager, { email: 'audit-invitee@example.com', role: 'member' })).statusCode,
      status: 201,
      target: { type: 'admin', label: 'audit-invitee@example.com' },
      changes: { role: [null, 'member'] },
    },
    {
      action: 'membership.roleChanged',
      write: async () => (await call('PATCH', 'organizations/1/affiliations/admins/2', as.manager, { role: 'manager' })).statusCode,
      status: 200,
      target: { type: 'admin', id: '2', label: 'member@example.com' },
      changes: { role: ['member', 'manager'] },
    },
    {
      action: 'invitation.resent',
      write: async () => (await call('POST', 'organizations/1/affiliations/admins/3/invitation', as.manager)).statusCode,
      status: 200,
      target: { type: 'admin', id: '3', label: 'pending@example.com' },
    },
    {
      action: 'membership.deleted',
      write: async () => {
        const invitee = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'audit-invitee@example.com').executeTakeFirstOrThrow();
        return (await call('DELETE', `organizations/1/affiliations/admins/${invitee.id}`, as.manager)).statusCode;
      },
      status: 204,
      target: { type: 'admin', label: 'audit-invitee@example.com' },
      changes: { role: ['member', null] },
    },
    ...(['contact', 'billingContact'] as const).flatMap((kind): Case[] => {
      const path = kind === 'contact' ? 'contacts' : 'billing_contacts';
      const body = kind === 'contact' ? CONTACT : BILLING_CONTACT;
      return [
        {
          action: `${kind}.created`,
          write: async () => {
            const response = await call('POST', `organizations/1/${path}`, as.manager, body);
            made[kind] = response.json()[kind === 'contact' ? 'contact' : 'billing_contact']?.id;
            return response.statusCode;
          },
          status: 201,
          target: { type: kind, label: '株式会社デモ 総務部' },
          targetId: () => String(made[kind]),
          // a personal field: that it changed, not its values (issue 25 finding 7)
          changes: { departmentName: [null, '総務部'], email: [null, null] },
        },
        {
          action: `${kind}.updated`,
          write: async () => (await call('PATCH', `organizations/1/${path}/${made[kind]}`, as.manager, { ...body, department_name: '経理部' })).statusCode,
          status: 200,
          target: { type: kind, label: '株式会社デモ 経理部' },
          targetId: () => String(made[kind]),
          changes: { departmentName: ['総務部', '経理部'] },
        },
        {
          action: `${kind}.deleted`,
          write: async () => (await call('DELETE', `organizations/1/${path}/${made[kind]}`, as.manager)).statusCode,
          status: 204,
          target: { type: kind, label: '株式会社デモ 経理部' },
          targetId: () => String(made[kind]),
          changes: { departmentName: ['経理部', null], lastName: [null, null] },
        },
      ];
    }),
    {
      action: 'subscription.created',
      write: async () => {
        const body = { service_group_id: 9, service_ids: [9], admin_ids: [1], users: [learner(0), learner(1)], starts_on: startsOn(14), ...contacts(), project_class_id: 0 };
        const response = await call('POST', 'organizations/1/corporate_subscriptions', as.manager, body);
        made.application = body;
        made.requestCode = response.json().corporate_subscription?.request_code;
        return response.statusCode;
      },
      status: 201,
      target: { type: 'subscription' },
      changes: { learners: [null, 2], serviceIds: [null, [9]] },
    },
    {
      action: 'subscription.updated',
      write: async () =>
        (await call('PATCH', `organizations/1/corporate_subscriptions/${made.requestCode}`, as.manager, { ...made.application, users: [learner(0), learner(1), learner(2)], starts_on: startsOn(15) }))
          .statusCode,
      status: 200,
      target: { type: 'subscription' },
      changes: { learners: [2, 3], startsOn: [startsOn(14), startsOn(15)] },
    },
    {
      action: 'subscription.confirmedUpdated',
      write: async () => {
        await ctx.db.updateTable('corporateSubscriptions').set({ startsOn: addDays(today(), -1) }).where('requestCode', '=', 'A000000103').execute();
        const stored = (await call('GET', 'organizations/1/corporate_subscriptions/A000000103', as.manager)).json().corporate_subscription;
        const body = { service_ids: [4], admin_ids: stored.admins.map((admin: { id: number }) => admin.id), starts_on: stored.starts_on[0], project_class_id: stored.project_class.id, users: [...stored.users, learner(9)] };
        return (await call('PATCH', 'organizations/1/confirmed_corporate_subscriptions/A000000103', as.manager, body)).statusCode;
      },
      status: 200,
      target: { type: 'subscription', id: 'A000000103', label: 'A000000103' },
      changes: { learners: [12, 13] },
    },
    {
      action: 'subscription.cancelled',
      write: async () => (await call('DELETE', `organizations/1/corporate_subscriptions/${made.requestCode}`, as.manager)).statusCode,
      status: 204,
      target: { type: 'subscription' },
      changes: { learners: [3, null] },
    },
    {
      action: 'user.nameIdChanged',
      write: async () => {
        const [user] = (await call('GET', 'organizations/1/users', as.manager)).json().users as Json[];
        const { name_id_type: _type, ...row } = user!;
        return (await call('PATCH', `organizations/1/users/${user!.id}`, as.manager, { ...row, name_id: 'AUDIT0001' })).statusCode;
      },
      status: 200,
      target: { type: 'user' },
      changes: { nameId: [null, null] },
    },
    {
      action: 'users.bulkUpdated',
      write: async () => {
        const users = ((await call('GET', 'organizations/1/users', as.manager)).json().users as Json[]).map(({ name_id_type: _type, ...row }) => row);
        users[1]!.name_id = 'AUDIT0002';
        return (await call('POST', 'organizations/1/users/bulk_update', as.manager, { users })).statusCode;
      },
      status: 200,
      target: { type: 'users', id: '1', label: '1' },
    },
    {
      action: 'account.nameChanged',
      write: async () => (await call('PATCH', 'organizations/1/affiliations/admins/1', as.manager, { ...NAME, first_name: '次郎' })).statusCode,
      status: 200,
      target: { type: 'admin', id: '1', label: 'manager@example.com' },
      changes: { firstName: [null, null], lastName: [null, null] },
      // the name is the admin's in every organisation
      organizations: [1, 2],
    },
    {
      action: 'account.passwordChanged',
      write: async () => (await call('PUT', 'admins/2/password', bearer(await accessToken(ctx.app, { sub: '2' })), { current: DEMO_PASSWORD, new: 'Kz9!vQ2#mP7@wL4x' })).statusCode,
      status: 200,
      actor: 2,
      target: { type: 'admin', id: '2', label: 'member@example.com' },
    },
    {
      action: 'signIn.succeeded',
      write: async () => {
        const session = await signIn(ctx.app, { email: 'manager@example.com', password: DEMO_PASSWORD, choose: 'G0000001' });
        return session.tokens.access_token ? 200 : 0;
      },
      status: 200,
      target: { type: 'admin', id: '1', label: 'manager@example.com' },
    },
    {
      action: 'signIn.locked',
      write: async () => lockOut('member@example.com', new Browser(ctx.app, undefined, '10.0.0.9')),
      status: 429,
      actor: null,
      target: { type: 'admin', id: '2', label: 'member@example.com' },
    },
  ];

  describe('records nothing', () => {
    const NOTHING: Array<[string, () => Promise<number>, number]> = [
      ['for a dry run', async () => (await call('POST', 'organizations/1/corporate_subscriptions?dryrun=true', as.manager, { service_group_id: 9, service_ids: [9], admin_ids: [1], users: [learner(5)], starts_on: startsOn(20), ...contacts(), project_class_id: 0 })).statusCode, 200],
      ['for a refused application (422)', async () => (await call('POST', 'organizations/1/corporate_subscriptions', as.manager, { service_group_id: 9, service_ids: [9], admin_ids: [1], users: [learner(5)], starts_on: '2020-01-06', ...contacts(), project_class_id: 0 })).statusCode, 422],
      ["for a member's role change (403)", async () => (await call('PATCH', 'organizations/1/affiliations/admins/3', as.member, { role: 'manager' })).statusCode, 403],
      ["for another organisation's manager (403)", async () => (await call('POST', 'organizations/1/contacts', as.otherManager, CONTACT)).statusCode, 403],
      ['for a role that already was (no change)', async () => (await call('PATCH', 'organizations/1/affiliations/admins/3', as.manager, { role: 'member' })).statusCode, 200],
      ['for a wrong current password (400)', async () => (await call('PUT', 'admins/1/password', as.manager, { current: 'NotMyPassw0rd!', new: 'Kz9!vQ2#mP7@wL4x' })).statusCode, 400],
      ['for a learner edit that changes nothing', async () => {
        const [user] = (await call('GET', 'organizations/1/users', as.manager)).json().users as Json[];
        const { name_id_type: _type, ...row } = user!;
        return (await call('PATCH', `organizations/1/users/${user!.id}`, as.manager, row)).statusCode;
      }, 200],
    ];
    for (const [name, write, status] of NOTHING) {
      it(name, async () => {
        const before = await count();
        expect(await write()).to.equal(status);
        expect(await count()).to.equal(before);
      });
    }

    it('for a write whose transaction rolls back after recording', async () => {
      const before = await count();
      const trail = auditTrail({ adminId: 1, organizationId: 1 }, ['contact.created']);
      const failure = await ctx.db
        .transaction()
        .execute(async (trx) => {
          await trail.record(trx, { action: 'contact.created', target: { type: 'contact', id: 0, label: 'x' } });
          throw new Error('the write failed');
        })
        .catch((error: Error) => error);
      expect(failure).to.be.instanceOf(Error);
      expect(await count()).to.equal(before);
    });

    it('and refuses an action its route did not declare', async () => {
      const trail = auditTrail({ adminId: 1, organizationId: 1 }, ['contact.created']);
      const failure = await trail.record(ctx.db, { action: 'contact.deleted', target: { type: 'contact', id: 0, label: 'x' } }).catch((error: Error) => error);
      expect(String(failure)).to.match(/not declared/);
    });
  });

  describe('each write route records its action, actor and changes', () => {
    for (const testCase of CASES) {
      it(testCase.action, async () => {
        const before = await count();
        expect(await testCase.write()).to.equal(testCase.status);
        const organizations = testCase.organizations ?? [1];
        expect(await count(), 'entries recorded').to.equal(before + organizations.length);
        for (const orgId of organizations) {
          const headers = orgId === 1 ? as.manager : as.otherManager;
          const [event] = await events(`&action=${testCase.action}`, orgId, headers);
          expect(event, `the entry in organisation ${orgId}`).to.not.equal(undefined);
          expect(event!.actor).to.deep.equal(await actorOf(testCase.actor === undefined ? 1 : testCase.actor));
          expect(event!.target).to.include(testCase.target);
          if (testCase.targetId) expect(event!.target.id, 'the id the API shows').to.equal(testCase.targetId());
          const changes = Object.fromEntries((event!.changes as Json[]).map((change) => [change.field, [change.before, change.after]]));
          for (const [field, change] of Object.entries(testCase.changes ?? {})) expect(changes[field], field).to.deep.equal(change);
          expect(JSON.stringify(event!.changes), 'no secret').to.not.match(/password|hash|token|Kz9!/i);
        }
      });
    }

    it('lists the bulk update as the learners whose nameId changed, by id, without the values', async () => {
      const [event] = await events('&action=users.bulkUpdated');
      const [, changed] = (await call('GET', 'organizations/1/users', as.manager)).json().users as Json[];
      expect(event!.changes).to.deep.equal([{ field: `nameId #${changed!.id}`, before: null, after: null }]);
    });
  });

  describe('the list and the export', () => {
    it('pages newest first with a cursor, without repeats, and refuses a cursor it did not make', async () => {
      const all = await events();
      expect(all.length).to.be.greaterThan(10);
      const seen: Json[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const response = await call('GET', `organizations/1/audit_events?limit=4${cursor ? `&cursor=${cursor}` : ''}`, as.manager);
        seen.push(...response.json().audit_events);
        cursor = response.json().next_cursor;
      }
      expect(seen.map((event) => event.id)).to.deep.equal(all.map((event) => event.id));
      const times = seen.map((event) => Date.parse(event.occurred_at));
      expect(times).to.deep.equal([...times].sort((a, b) => b - a));
      expect((await call('GET', 'organizations/1/audit_events?cursor=bm90LWEtY3Vyc29y', as.manager)).statusCode).to.equal(400);
      expect((await call('GET', 'organizations/1/audit_events?limit=1000', as.manager)).statusCode).to.equal(422);
    });

    it('filters by period, admin, action, target type and one target', async () => {
      expect((await events('&admin_id=2')).map((event) => event.action)).to.deep.equal(['account.passwordChanged']);
      expect((await events('&target_type=subscription')).map((event) => event.action).sort()).to.deep.equal(
        ['subscription.cancelled', 'subscription.confirmedUpdated', 'subscription.created', 'subscription.updated'],
      );
      expect(await events(`&from=${today()}&to=${today()}`)).to.have.length((await events()).length);
      expect(await events(`&to=${addDays(today(), -1)}`)).to.deep.equal([]);
      expect(await events(`&from=${addDays(today(), 1)}`)).to.deep.equal([]);
      // a preset and a first day both apply; the ends of the calendar are days too, a day that is not one is refused
      expect(await events(`&days=7&from=${addDays(today(), 1)}`)).to.deep.equal([]);
      expect(await events(`&days=7&from=${addDays(today(), -30)}`)).to.have.length((await events()).length);
      expect(await events('&from=0001-01-01&to=9999-12-31')).to.have.length((await events()).length);
      for (const notADay of ['2026-02-29', '2026-13-01', '26-01-01', 'today']) {
        expect((await call('GET', `organizations/1/audit_events?from=${notADay}`, as.manager)).statusCode, notADay).to.equal(422);
        expect((await call('GET', `organizations/1/audit_events/csv?to=${notADay}`, as.manager)).statusCode, notADay).to.equal(422);
      }
      // one target's history: the admin member@ was invited, made a manager, …
      const [roleChange] = await events('&action=membership.roleChanged');
      const history = await events(`&target_type=admin&target_id=${roleChange!.target.id}`);
      expect(history.map((event) => event.action)).to.include('membership.roleChanged');
      expect(history.every((event) => event.target.type === 'admin' && event.target.id === roleChange!.target.id)).to.equal(true);
      expect(await events('&target_id=no-such-target')).to.deep.equal([]);
      expect((await call('GET', `organizations/1/audit_events?target_id=${'x'.repeat(101)}`, as.manager)).statusCode).to.equal(422);
      // the page's selects: empty is no filter; days counts back from today
      expect(await events('&action=&target_type=&admin_id=&target_id=&days=1&cursor=')).to.have.length((await events()).length);
    });

    it('exports the filtered list as CSV: UTF-8 with a byte-order mark, CRLF, the header first', async () => {
      const response = await call('GET', 'organizations/1/audit_events/csv?action=membership.roleChanged', as.manager);
      expect(response.statusCode).to.equal(200);
      expect(response.headers['content-type']).to.match(/^text\/csv; charset=utf-8/);
      expect(response.rawPayload.subarray(0, 3)).to.deep.equal(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = response.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
      expect(lines[0]).to.equal('occurredAt,actorEmail,action,targetType,targetId,targetLabel,changes');
      expect(lines).to.have.length(2);
      expect(lines[1]).to.contain('manager@example.com,membership.roleChanged,admin,2,member@example.com,"role: ""member"" → ""manager"""');
      // the time as the list shows it (PostgreSQL writes the file's; the stored time has microseconds)
      const listed = JSON.parse((await call('GET', 'organizations/1/audit_events?action=membership.roleChanged', as.manager)).body) as { audit_events: Array<{ occurred_at: string }> };
      expect(lines[1]!.split(',')[0]).to.equal(listed.audit_events[0]!.occurred_at);
    });

    it("shows the token's organisation only (tenant isolation of the list and the export)", async () => {
      expect((await call('GET', 'organizations/1/audit_events', as.otherManager)).statusCode).to.equal(403);
      expect((await call('GET', 'organizations/1/audit_events/csv', as.otherManager)).statusCode).to.equal(403);
      // a member's 403: the authorisation matrix (member@'s tokens ended with the role and password changes above)
      const others = await events('', 2, as.otherManager);
      expect(others.map((event) => event.action)).to.deep.equal(['account.nameChanged']);
      const csv = (await call('GET', 'organizations/2/audit_events/csv', as.otherManager)).body;
      expect(csv).to.not.contain('member@example.com');
      expect(csv.trimEnd().split('\r\n')).to.have.length(2);
      expect(otherManagerId).to.be.greaterThan(0);
    });
  });

  describe('account events reach only the organisations the admin signed in to (issue 25 finding 5)', () => {
    // added@ belongs to G0000001 and has signed in there; the manager of G0000002 then adds them (they join at once)
    const ADDED = 'added@example.com';
    const PASSWORDS = [DEMO_PASSWORD, 'Kz9!vQ2#mP7@wL4x', 'Rt5$wN8&jB3*hD6y'];
    let addedId = 0;
    let passwordChanges = 0;
    const changePassword = async () => {
      passwordChanges += 1;
      const token = bearer(await accessToken(ctx.app, { sub: String(addedId) }));
      return (await call('PUT', `admins/${addedId}/password`, token, { current: PASSWORDS[passwordChanges - 1], new: PASSWORDS[passwordChanges] })).statusCode;
    };
    /** The entries of the admin's account in the organisation's trail: [action, actor's id]. */
    const accountEvents = async (orgId: number, adminId = addedId) =>
      (await events(`&target_type=admin&target_id=${adminId}`, orgId, orgId === 1 ? as.manager : as.otherManager)).map((event) => [event.action, event.actor.admin_id]);
    /** An activated admin, a member of these organisations, who has not signed in yet. */
    const addAdmin = async (email: string, organizationIds: number[]) => {
      const { id } = await ctx.db
        .insertInto('admins')
        .values({ email, firstName: '三郎', lastName: '佐藤', kanaFirstName: 'さぶろう', kanaLastName: 'さとう', passwordHash: await hashPassword(DEMO_PASSWORD), activatedAt: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values(organizationIds.map((organizationId) => ({ adminId: id, organizationId, role: 'member' as const }))).execute();
      return id;
    };

    before(async () => {
      addedId = await addAdmin(ADDED, [1]);
      await signIn(ctx.app, { email: ADDED, password: DEMO_PASSWORD, browser: new Browser(ctx.app, undefined, '10.0.1.1') });
      const response = await call('POST', 'organizations/2/affiliations', as.otherManager, { email: ADDED, role: 'member' });
      expect(response.statusCode, response.body).to.equal(201);
      expect(response.json().outcome).to.equal('joined');
    });

    it('records the password change and the lock of an admin whom another organisation added only where the admin signed in', async () => {
      expect(await changePassword()).to.equal(200);
      expect(await lockOut(ADDED, new Browser(ctx.app, undefined, '10.0.1.2'))).to.equal(429);
      expect(await accountEvents(1)).to.deep.equal([['signIn.locked', null], ['account.passwordChanged', addedId], ['signIn.succeeded', addedId]]);
      expect(await accountEvents(2), 'the organisation that merely added the admin').to.deep.equal([['membership.invited', otherManagerId]]);
    });

    it('records them in that organisation too once the admin has signed in for it', async () => {
      await signIn(ctx.app, { email: ADDED, password: PASSWORDS[1]!, choose: 'G0000002', browser: new Browser(ctx.app, undefined, '10.0.1.3') });
      expect(await changePassword()).to.equal(200);
      expect(await lockOut(ADDED, new Browser(ctx.app, undefined, '10.0.1.4'))).to.equal(429);
      expect(await accountEvents(2)).to.deep.equal([['signIn.locked', null], ['account.passwordChanged', addedId], ['signIn.succeeded', addedId], ['membership.invited', otherManagerId]]);
    });

    it('records a lock without an actor, whatever address the client claims (X-Forwarded-For)', async () => {
      const before = (await accountEvents(1)).length;
      for (const spoofed of ['203.0.113.7', '203.0.113.8']) {
        expect(await lockOut(ADDED, new Browser(ctx.app, undefined, '10.0.1.5', { 'x-forwarded-for': spoofed }))).to.equal(429);
      }
      const locks = (await events(`&action=signIn.locked&target_id=${addedId}`)).slice(0, 2);
      expect((await accountEvents(1)).length).to.equal(before + 2);
      expect(locks.map((event) => event.actor)).to.deep.equal([await actorOf(null), await actorOf(null)]);
    });

    it('counts the organisation a signed-in session switches to (a requested glopla_id, chosen at once) as signed in', async () => {
      const switcherId = await addAdmin('switcher@example.com', [1, 2]);
      const browser = new Browser(ctx.app, undefined, '10.0.1.6');
      await signIn(ctx.app, { email: 'switcher@example.com', password: DEMO_PASSWORD, choose: 'G0000001', browser });
      expect(await accountEvents(2, switcherId)).to.deep.equal([]);
      const switched = await signIn(ctx.app, { email: 'switcher@example.com', password: DEMO_PASSWORD, gloplaId: 'G0000002', browser });
      expect(switched.choiceShown || switched.lastPage !== undefined, 'no page: the session, its organisation chosen at once').to.equal(false);
      expect(await accountEvents(2, switcherId)).to.deep.equal([['signIn.succeeded', switcherId]]);
    });
  });

  describe('keeps no personal data (issue 25 finding 7)', () => {
    const PERSON = { last_name: '秘匿', first_name: '花子', kana_last_name: 'ひとく', kana_first_name: 'はなこ', phone_number: '06-9876-5432', email: 'hitoku@example.com' };
    const CHANGED = { last_name: '改名', first_name: '桜子', kana_last_name: 'かいめい', kana_first_name: 'さくらこ', phone_number: '06-1111-2222', email: 'kaimei@example.com' };
    const PLACE = { postal_code: '530-0001', address: '大阪府大阪市北区梅田9-9-9' };
    const PLACE_CHANGED = { postal_code: '530-0002', address: '大阪府大阪市北区曽根崎8-8-8' };
    const BILLING = { cc_email: 'hitoku-cc@example.com', addressee: '秘匿経理' };
    const BILLING_CHANGED = { cc_email: 'kaimei-cc@example.com', addressee: '改名経理' };
    const COMPANY = { corporation_name: '株式会社デモ', department_name: '総務部' };
    /** Every audit row as PostgreSQL's JSON of it. */
    const rawRows = async () => (await sql<{ row: string }>`select to_jsonb(audit_events)::text as row from audit_events`.execute(ctx.db)).rows.map((row) => row.row).join('\n');

    it('a contact and a billing contact created, changed and deleted, a learner edit and a bulk update leave no name, phone, address, e-mail or nameId in any entry', async () => {
      const secrets: string[] = [...Object.values(PERSON), ...Object.values(CHANGED), ...Object.values(PLACE), ...Object.values(PLACE_CHANGED), ...Object.values(BILLING), ...Object.values(BILLING_CHANGED)];
      for (const [path, key, first, second] of [
        ['contacts', 'contact', { ...COMPANY, ...PERSON, ...PLACE }, { ...COMPANY, ...CHANGED, ...PLACE_CHANGED }],
        ['billing_contacts', 'billing_contact', { ...COMPANY, ...PERSON, ...BILLING }, { ...COMPANY, ...CHANGED, ...BILLING_CHANGED }],
      ] as const) {
        const created = await call('POST', `organizations/1/${path}`, as.manager, first);
        expect(created.statusCode, created.body).to.equal(201);
        const id = created.json()[key].id;
        expect((await call('PATCH', `organizations/1/${path}/${id}`, as.manager, second)).statusCode).to.equal(200);
        expect((await call('DELETE', `organizations/1/${path}/${id}`, as.manager)).statusCode).to.equal(204);
      }
      const listed = (await call('GET', 'organizations/1/users', as.manager)).json().users as Json[];
      const users = listed.map(({ name_id_type: _type, ...row }) => row);
      // learners signing in by nameId (other learners' nameId stays blank), not those of the cases above
      const [edited, ...bulk] = users.filter((_user, index) => listed[index]!.name_id_type === 'nameId').slice(2, 5);
      secrets.push(...[edited!, ...bulk].flatMap((user) => [user.email, user.name_id]), 'PRIVATEID1', 'PRIVATEID2', 'PRIVATEID3');
      edited!.name_id = 'PRIVATEID1';
      expect((await call('PATCH', `organizations/1/users/${edited!.id}`, as.manager, edited)).statusCode).to.equal(200);
      // the bulk update of the learners as they are after the edit (its rows carry their versions: issue 28)
      const bulkIds = bulk.map((user) => user.id);
      const now = ((await call('GET', 'organizations/1/users', as.manager)).json().users as Json[]).map(({ name_id_type: _type, ...row }) => row);
      for (const user of now) if (bulkIds.includes(user.id)) user.name_id = `PRIVATEID${bulkIds.indexOf(user.id) + 2}`;
      expect((await call('POST', 'organizations/1/users/bulk_update', as.manager, { users: now })).statusCode).to.equal(200);

      // the entries are there and say which fields changed
      const [contactUpdate] = await events('&action=contact.updated');
      expect(contactUpdate!.changes.map((change: Json) => change.field)).to.include.members(['lastName', 'phoneNumber', 'email', 'postalCode', 'address']);
      const [bulkUpdate] = await events('&action=users.bulkUpdated');
      expect(bulkUpdate!.changes.map((change: Json) => change.field)).to.deep.equal(bulk.map((user) => `nameId #${user.id}`));
      const rows = await rawRows();
      for (const secret of secrets.filter(Boolean)) expect(rows, secret).to.not.contain(secret);
    });
  });

  describe('ids and the cursor (issue 25 findings 4, 6)', () => {
    /** A cursor's content: [time, event id]. */
    const cursorOf = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [string, string];
    const cursorWith = (time: string, id: string) => Buffer.from(JSON.stringify([time, id])).toString('base64url');
    const firstPage = async () => (await call('GET', 'organizations/1/audit_events?limit=1', as.manager)).json();

    it('refuses a cursor whose time is no real date-time (400, not the cast failing)', async () => {
      // two entries at least, so the first page has a next one
      for (const turn of [1, 2]) expect((await call('POST', 'organizations/1/contacts', as.manager, { ...CONTACT, department_name: `課${turn}` })).statusCode).to.equal(201);
      const [time, id] = cursorOf((await firstPage()).next_cursor);
      expect((await call('GET', `organizations/1/audit_events?cursor=${cursorWith(time, id)}`, as.manager)).statusCode, 'the cursor as made').to.equal(200);
      for (const notATime of ['2026-02-30 00:00:00+00', '2026-13-01 00:00:00+00', '2026-01-01 00:00:00+99', '0000-01-01 00:00:00+00', '2026-01-01 24:00:00+00', '2026-01-01 00:00:00+16']) {
        const response = await call('GET', `organizations/1/audit_events?cursor=${cursorWith(notATime, id)}`, as.manager);
        expect(response.statusCode, notATime).to.equal(400);
        expect(response.json()).to.deep.equal({ error: 'bad_request' });
      }
    });

    it('shows event ids, cursors and contact targets that do not tell how many entries other organisations made', async () => {
      const contactEvents: Json[] = [];
      for (let turn = 0; turn < 4; turn += 1) {
        const created = (await call('POST', 'organizations/1/contacts', as.manager, CONTACT)).json().contact;
        expect((await call('POST', 'organizations/2/contacts', as.otherManager, CONTACT)).statusCode).to.equal(201);
        const [event] = await events(`&target_type=contact&target_id=${created.id}`);
        expect(event, 'one target\'s history, found by the id the API shows').to.deep.include({ action: 'contact.created' });
        expect(event!.target.id).to.equal(String(created.id));
        expect(await events(`&target_id=${created.id}`), 'without the type too').to.have.length(1);
        expect(await events('&target_type=contact&target_id=not-a-public-id'), 'a contact id that is none').to.deep.equal([]);
        contactEvents.push(event!);
      }
      // stored ids would step by 2 (the other organisation's entry in between)
      const ids = contactEvents.map((event) => Number(event.id));
      const steps = ids.slice(1).map((id, index) => id - ids[index]!);
      expect(new Set(steps).size, `steps ${steps.join(', ')}`).to.be.greaterThan(1);
      for (const id of ids) expect(Number.isSafeInteger(id) && id >= 1, String(id)).to.equal(true);
      // the cursor holds the page's last public id, not the stored one
      const page = await firstPage();
      const stored = await ctx.db.selectFrom('auditEvents').select('id').where('organizationId', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(cursorOf(page.next_cursor)[1]).to.equal(page.audit_events[0].id).and.not.equal(String(stored.id));
      expect(page.audit_events[0].id).to.not.equal(String(stored.id));
      // the export shows the same target ids
      const csv = (await call('GET', 'organizations/1/audit_events/csv?target_type=contact', as.manager)).body;
      for (const event of contactEvents) expect(csv).to.contain(`,contact,${event.target.id},`);
    });
  });

  describe('append-only', () => {
    it('refuses updates and deletes, except a delete of the clean-up', async () => {
      const update = await sql`update audit_events set action = 'contact.created'`.execute(ctx.db).catch((error: Error) => error);
      expect(String(update)).to.match(/append-only/);
      const remove = await sql`delete from audit_events`.execute(ctx.db).catch((error: Error) => error);
      expect(String(remove)).to.match(/append-only/);
      const truncate = await sql`truncate audit_events`.execute(ctx.db).catch((error: Error) => error);
      expect(String(truncate)).to.match(/append-only/);
      expect(await count()).to.be.greaterThan(0);
    });
  });
});

describe('The audit export of a large trail (issue 25 finding 3)', function () {
  this.timeout(300_000);
  const ENTRIES = 30_000;
  /**
   * The live heap the whole export (server and this reading client, one process) may add: streamed it adds 2–3 MB,
   * read at once about 23 MB (the file itself is about 4 MB; 100,000 entries read at once took 75 MB).
   */
  const HEAP_BOUND = 12 * 1024 * 1024;
  /** The heap still in use: garbage collected first, so what is measured is what the export holds, not what it left. */
  const liveHeap = () => {
    collectGarbage();
    return process.memoryUsage().heapUsed;
  };
  let server: TestServer;
  let manager: Record<string, string>;
  const exportUrl = () => `${server.url}/api/v2/organizations/1/audit_events/csv?action=contact.created`;

  before(async () => {
    server = await startTestServer({ env: { SEED: 'demo', CSV_EXPORT_MAX_ROWS: String(ENTRIES) } });
    // one more entry than the file may hold, seven a second back from now: batches (250 on PGlite, 2,000 on
    // PostgreSQL) end inside a second's entries, where the cursor's id decides
    await sql`insert into audit_events (organization_id, actor_admin_id, actor_email, action, target_type, target_id, target_label, changes, occurred_at)
      select 1, 1, 'manager@example.com', 'contact.created', 'contact', g::text, '株式会社デモ ' || g,
        jsonb_build_object('address', jsonb_build_object('before', null, 'after', '東京都千代田区丸の内1-1-' || g)), now() - (g / 7) * interval '1 second'
      from generate_series(1, ${sql.lit(ENTRIES + 1)}) as g`.execute(server.db);
    manager = bearer(await accessToken(server.app, { sub: '1' }));
  });
  after(async () => server?.close());

  it('streams 30,000 entries, then a line saying the file was cut, its live heap growing less than 12 MB', async () => {
    const before = liveHeap();
    let peak = before;
    let chunks = 0;
    const response = await fetch(exportUrl(), { headers: manager });
    expect(response.status).to.equal(200);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
    let lines = 0;
    let head = '';
    let tail = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      const text = decoder.decode(chunk, { stream: true });
      lines += text.split('\n').length - 1; // a CRLF may span two chunks
      if (head.length < 200) head += text;
      tail = (tail + text).slice(-500);
      // each sample is a full collection, ~0.7 s in a test process holding a hundred apps' garbage: the first chunk
      // (a file built before it is sent shows there) and every 50th (~7 of the file's ~300 chunks)
      if (chunks++ % 50 === 0) peak = Math.max(peak, liveHeap());
    }
    expect(head.split('\r\n')[0]).to.equal('\uFEFFoccurredAt,actorEmail,action,targetType,targetId,targetLabel,changes');
    expect(lines).to.equal(1 + ENTRIES + 1);
    expect(tail.trimEnd().split('\r\n').at(-1)).to.equal(`${cutNote(ENTRIES)},,,,,,`);
    // the last entry in the file is the 30,000th newest: no batch repeated or skipped on the way
    const last = await sql<{ targetLabel: string }>`select target_label from audit_events where organization_id = 1 and action = 'contact.created' order by occurred_at desc, id desc offset ${ENTRIES - 1} limit 1`.execute(server.db);
    expect(tail.trimEnd().split('\r\n').at(-2)).to.contain(`,${last.rows[0]!.targetLabel},`);
    expect(peak - before, `live heap grew by ${Math.round((peak - before) / 1024 / 1024)} MB`).to.be.below(HEAP_BOUND);
  });

  it("answers the same admin's second export 429 too_many_requests while the first is being sent, and exports again once it ended", async () => {
    const first = (await fetch(exportUrl(), { headers: manager })).body!.getReader();
    try {
      expect((await first.read()).done).to.equal(false);
      const second = await fetch(exportUrl(), { headers: manager });
      expect(second.status).to.equal(429);
      expect(await second.json()).to.deep.equal({ error: 'too_many_requests' });
    } finally {
      await first.cancel();
    }
    // the first export ends when the server sees the client gone
    for (const deadline = Date.now() + 30_000; ; ) {
      const again = await fetch(exportUrl(), { headers: manager });
      await again.body?.cancel();
      if (again.status === 200) break;
      expect(again.status).to.equal(429);
      expect(Date.now(), 'the export slot was never freed').to.be.below(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});
