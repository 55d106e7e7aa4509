/**
 * The organisation admins API (SPEC §7 Organisation admins, 2.13, 2.14, §4 Invite outcomes and Affiliation, §6):
 * list, invite, role change, delete, invitation resend and product admin roles, on the demo data:
 *
 *   G0000001 (id 1): manager@ (1, manager), member@ (2), pending@ (3, not activated, no invitation), manager2@ (4,
 *   manager), support@ (5), invited@ (6, not activated, open invitation), late@ (7, not activated manager, expired)
 *   G0000002 (id 2): manager@ (member), no manager
 */
import zlib from 'node:zlib';
import { expect } from 'chai';
import { sql } from 'kysely';
import { toWire } from '../../../src/server/api/wire.js';
import { endAdminTokens } from '../../../src/server/domain/admins.js';
import { findOrganizationAffiliation } from '../../../src/server/domain/memberships.js';
import sinon from 'sinon';
import { hashToken } from '../../../src/server/domain/adminTokens.js';
import { hashPassword } from '../../../src/server/domain/passwords.js';
import { tokenValidityChanged } from '../../../src/server/domain/tokenValidity.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';
import { withTriggersOff } from '../support/triggers.js';

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

interface WireAffiliation {
  role: string;
  organization: { id: number; glopla_id: string };
  admin: { id: number; email: string; first_name: string; last_name: string; activated_at: string | null; invitation_expires_at: string | null; invitation_expired: boolean };
}

const MANAGER = 1;
const MEMBER = 2;
const PENDING = 3;
const SUPPORT = 5;
const INVITED = 6;
const LATE = 7;

describe('Organisation admins API (SPEC §7 Organisation admins)', function () {
  this.timeout(20_000);
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'https://portal.example.com', MAIL_RATE_LIMIT_PER_EMAIL: '3' } });

  /** Sessions: the manager and the member of G0000001, the manager signed in for G0000002, a manager of G0000002. */
  const as = {} as Record<'manager' | 'member' | 'managerInTwo' | 'otherManager', Record<string, string>>;
  let otherManagerId: number;

  before(async () => {
    const other = await ctx.db
      .insertInto('admins')
      .values({ email: 'other-manager@example.com', firstName: '次郎', lastName: '田中', kanaFirstName: 'じろう', kanaLastName: 'たなか', passwordHash: await hashPassword('DemoPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    otherManagerId = other.id;
    await ctx.db.insertInto('affiliations').values({ adminId: other.id, organizationId: 2, role: 'manager' }).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: String(MANAGER) }));
    as.member = bearer(await accessToken(ctx.app, { sub: String(MEMBER) }));
    as.managerInTwo = bearer(await accessToken(ctx.app, { sub: String(MANAGER), gloplaId: 'G0000002' }));
    as.otherManager = bearer(await accessToken(ctx.app, { sub: String(other.id), gloplaId: 'G0000002' }));
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
    ctx.app.inject({ method, url: `/api/v2/${path}`, headers, ...(payload ? { payload } : {}) });
  const list = async (headers = as.manager, orgId = 1): Promise<WireAffiliation[]> => {
    const response = await call('GET', `organizations/${orgId}/affiliations`, headers);
    expect(response.statusCode, response.body).to.equal(200);
    return response.json().affiliations;
  };
  const invite = (email: string, role?: string, headers = as.manager, orgId = 1, query = '') =>
    call('POST', `organizations/${orgId}/affiliations${query}`, headers, { email, ...(role ? { role } : {}) });
  const outbox = async (): Promise<OutboxMail[]> => (await ctx.app.inject({ url: '/dev/mails.json' })).json();
  const mailsTo = async (to: string) => (await outbox()).filter((mail) => mail.to === to);
  const tokenOf = (link: string) => /\/activate\/([^?]+)/.exec(link)![1]!;
  const checkToken = (token: string) => ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': `Bearer ${token}` } });

  describe('GET organizations/{orgId}/affiliations', () => {
    it('lists the organisation: managers first, then by kana name, the not activated last, each with the organisation', async () => {
      const affiliations = await list();
      expect(affiliations.map((affiliation) => [affiliation.admin.email, affiliation.role])).to.deep.equal([
        ['manager2@example.com', 'manager'],
        ['manager@example.com', 'manager'],
        ['late@example.com', 'manager'],
        ['member@example.com', 'member'],
        ['support@example.com', 'member'],
        ['invited@example.com', 'member'],
        ['pending@example.com', 'member'],
      ]);
      for (const affiliation of affiliations) expect(affiliation.organization).to.deep.equal({ id: 1, glopla_id: 'G0000001', corporation_official_name: '株式会社デモ' });
      const manager = affiliations.find((affiliation) => affiliation.admin.id === MANAGER)!;
      expect(manager.admin).to.include({ first_name: '太郎', last_name: '山田', kana_first_name: 'たろう', kana_last_name: 'やまだ', invitation_expires_at: null, invitation_expired: false });
      expect(Date.parse(manager.admin.activated_at!)).to.be.closeTo(Date.now(), 120_000);
    });

    it('shows the invitation of each not-activated admin: open, expired, or none', async () => {
      const byId = new Map((await list()).map((affiliation) => [affiliation.admin.id, affiliation.admin]));
      const invited = byId.get(INVITED)!;
      expect(invited).to.include({ activated_at: null, invitation_expired: false });
      expect(Date.parse(invited.invitation_expires_at!)).to.be.greaterThan(Date.now());
      const late = byId.get(LATE)!;
      expect(late).to.include({ activated_at: null, invitation_expired: true });
      expect(Date.parse(late.invitation_expires_at!)).to.be.lessThan(Date.now());
      expect(byId.get(PENDING)).to.include({ activated_at: null, invitation_expires_at: null, invitation_expired: true });
    });

    it('a member reads the same list', async () => {
      expect((await list(as.member)).map((affiliation) => affiliation.admin.id)).to.deep.equal((await list()).map((affiliation) => affiliation.admin.id));
    });

    it('writes each admin as the single answers do (the database writes the list: the same fields, values and timestamps)', async () => {
      // a timestamp with microseconds, as PostgreSQL's now() writes them: both ways keep its milliseconds
      await ctx.db.updateTable('admins').set({ activatedAt: sql<Date>`'2026-03-04T05:06:07.891234Z'::timestamptz` }).where('id', '=', MEMBER).execute();
      const listed = await list();
      const single = await Promise.all(listed.map(async (affiliation) => JSON.parse(JSON.stringify(toWire(await findOrganizationAffiliation(ctx.db, 1, affiliation.admin.id))))));
      expect(listed).to.deep.equal(single);
      expect(listed.find((affiliation) => affiliation.admin.id === MEMBER)!.admin.activated_at).to.equal('2026-03-04T05:06:07.891Z');
    });

    it("refuses an access token that has ended with 401, though the list's own query checks it (no second round trip)", async () => {
      const member = bearer(await accessToken(ctx.app, { sub: String(MEMBER) }));
      expect((await call('GET', 'organizations/1/affiliations', member)).statusCode).to.equal(200);
      await endAdminTokens(ctx.db, MEMBER, Date.now() + 2000); // ended after the token was issued
      const ended = await call('GET', 'organizations/1/affiliations', member);
      expect(ended.statusCode).to.equal(401);
      expect(ended.json()).to.deep.equal({ error: 'invalid_access_token' });
      // another organisation with an ended token: still 401, not a 403 that would tell the organisation apart
      expect((await call('GET', 'organizations/2/affiliations', member)).statusCode).to.equal(401);
      await ctx.db.updateTable('admins').set({ tokensValidAfter: null }).where('id', '=', MEMBER).execute();
      // a write past the domain: this instance forgets what it kept at once, as the domain's writes do (else the
      // database's notification decides, and on PostgreSQL it may arrive after the next call)
      tokenValidityChanged(ctx.db, MEMBER);
      expect((await call('GET', 'organizations/1/affiliations', member)).statusCode).to.equal(200);
    });

    describe('a list kept between its changes (issue 47, migration 0113)', () => {
      const supportOf = async () => (await list()).find((affiliation) => affiliation.admin.id === SUPPORT)!.admin as WireAffiliation['admin'] & { kana_first_name: string };
      const renameSupport = (kanaFirstName: string, db = ctx.db) => db.updateTable('admins').set({ kanaFirstName }).where('id', '=', SUPPORT).execute();

      it('answers the list kept while its version stands, and the change at once when one it shows is written, by whoever', async () => {
        const { kana_first_name: original } = await supportOf();
        try {
          // a write past the domain, as another instance or an operator makes it
          await renameSupport('じろう');
          expect((await supportOf()).kana_first_name).to.equal('じろう');
          // the same write with the triggers off leaves the version: the list kept is answered as it was
          await withTriggersOff(ctx.db, (connection) => renameSupport('さぶろう', connection));
          expect((await supportOf()).kana_first_name).to.equal('じろう');
        } finally {
          await renameSupport(original);
        }
        expect((await supportOf()).kana_first_name).to.equal(original);
      });

      it('sends the list in the encoding the client accepts, compressed once per version, the same JSON', async () => {
        const read = (acceptEncoding?: string) =>
          ctx.app.inject({ url: '/api/v2/organizations/1/affiliations', headers: { ...as.manager, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } });
        const plain = await read();
        expect(plain.headers['content-encoding']).to.equal(undefined);
        expect(plain.headers.vary).to.include('accept-encoding');
        const decoders: Record<string, (body: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };
        for (const [accepted, encoding] of [['br, gzip', 'br'], ['gzip', 'gzip'], ['gzip;q=1, br;q=0.5', 'gzip']] as const) {
          for (const round of [1, 2]) {
            const response = await read(accepted);
            expect(response.headers['content-encoding'], `${accepted} ${round}`).to.equal(encoding);
            expect(response.headers['content-type']).to.equal('application/json; charset=utf-8');
            expect(JSON.parse(decoders[encoding]!(response.rawPayload).toString())).to.deep.equal(plain.json());
          }
        }
        expect((await read('identity')).headers['content-encoding']).to.equal(undefined);
      });

      it('ends the list kept when an invitation in it expires', async () => {
        const inTenMinutes = new Date(Date.now() + 600_000);
        const { expiresAt } = await ctx.db.selectFrom('adminTokens').select('expiresAt').where('adminId', '=', INVITED).where('usedAt', 'is', null).executeTakeFirstOrThrow();
        const setExpiry = (at: Date) => ctx.db.updateTable('adminTokens').set({ expiresAt: at }).where('adminId', '=', INVITED).where('usedAt', 'is', null).execute();
        await setExpiry(inTenMinutes);
        const clock = sinon.useFakeTimers({ now: Date.now(), toFake: ['Date'] });
        try {
          const invited = async () => (await list()).find((affiliation) => affiliation.admin.id === INVITED)!.admin;
          expect(await invited()).to.include({ invitation_expired: false });
          clock.setSystemTime(inTenMinutes.getTime() + 1000); // the access token is still valid (15 minutes)
          expect(await invited()).to.include({ invitation_expired: true });
        } finally {
          clock.restore();
          await setExpiry(expiresAt);
        }
      });
    });

    it("refuses another organisation's admin, a session of another organisation and an unknown organisation with 403", async () => {
      for (const [headers, orgId] of [
        [as.otherManager, 1],
        [as.managerInTwo, 1],
        [as.manager, 2], // the manager belongs to G0000002 too, but this session is G0000001's
        [as.member, 2],
        [as.manager, 999],
      ] as const) {
        const response = await call('GET', `organizations/${orgId}/affiliations`, headers);
        expect(response.statusCode, `${orgId}`).to.equal(403);
        expect(response.json()).to.deep.equal({ error: 'forbidden' });
      }
      // the session of G0000002 sees G0000002 (where the manager is a member): no manager there
      expect((await list(as.managerInTwo, 2)).map((affiliation) => [affiliation.admin.id, affiliation.role])).to.deep.equal([
        [otherManagerId, 'manager'],
        [MANAGER, 'member'],
      ]);
    });
  });

  describe('POST organizations/{orgId}/affiliations (invite)', () => {
    it('an unknown address becomes a not-activated admin with the affiliation and gets an invitation mail', async () => {
      const response = await invite('New.Admin@Example.com', 'manager');
      expect(response.statusCode, response.body).to.equal(201);
      const { affiliation, outcome } = response.json() as { affiliation: WireAffiliation; outcome: string };
      expect(outcome).to.equal('invited');
      expect(affiliation.role).to.equal('manager');
      expect(affiliation.admin).to.include({ email: 'new.admin@example.com', activated_at: null, invitation_expired: false });
      expect(Date.parse(affiliation.admin.invitation_expires_at!) - Date.now()).to.be.closeTo(72 * 3600 * 1000, 120_000);

      const [mail, ...others] = await mailsTo('new.admin@example.com');
      expect(others).to.deep.equal([]);
      // ja: the invitee has no language yet, the request asked for none; names the organisation and the inviter
      expect(mail!.subject).to.contain('株式会社デモ');
      expect(mail!.text).to.contain('山田 太郎').and.contain('株式会社デモ').and.contain('72時間');
      expect(mail!.links).to.have.length(1);
      expect(mail!.links[0]).to.match(new RegExp(`^https://portal\\.example\\.com/admins/${affiliation.admin.id}/activate/[A-Za-z0-9_-]{43}\\?locale=ja$`));
    });

    it('the invitation link activates the admin, who then shows activated in the list', async () => {
      const [mail] = await mailsTo('new.admin@example.com');
      const token = tokenOf(mail!.links[0]!);
      const adminId = Number(/\/admins\/(\d+)\//.exec(mail!.links[0]!)![1]);
      expect((await checkToken(token)).statusCode).to.equal(200);
      const activation = await ctx.app.inject({
        method: 'PUT',
        url: `/api/v2/admins/${adminId}`,
        headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
        payload: { first_name: '新', last_name: '木村', kana_first_name: 'あらた', kana_last_name: 'きむら', password: 'NewPassw0rd!x' },
      });
      expect(activation.statusCode, activation.body).to.equal(200);
      const entry = (await list()).find((affiliation) => affiliation.admin.id === adminId)!;
      expect(entry.role).to.equal('manager');
      expect(entry.admin).to.include({ last_name: '木村', first_name: '新', invitation_expires_at: null, invitation_expired: false });
      expect(entry.admin.activated_at).to.be.a('string');
    });

    it('mails in the language asked for (?lang=en), with the inviter named in English order', async () => {
      const response = await invite('english@example.com', undefined, as.manager, 1, '?lang=en');
      expect(response.statusCode).to.equal(201);
      expect(response.json().affiliation.role).to.equal('member'); // the form's default
      const [mail] = await mailsTo('english@example.com');
      expect(mail!.subject).to.equal('Taro Yamada invites you to administer 株式会社デモ');
      expect(mail!.text).to.contain('72 hours');
      expect(mail!.links[0]).to.match(/\?locale=en$/);
      expect(mail!.html).to.contain('Accept the invitation');
    });

    it('an activated admin of another organisation joins at once, without a mail', async () => {
      const before = (await outbox()).length;
      const response = await invite('other-manager@example.com', 'member');
      expect(response.statusCode).to.equal(201);
      expect(response.json().outcome).to.equal('joined');
      expect(response.json().affiliation.admin).to.include({ id: otherManagerId, first_name: '次郎', invitation_expired: false });
      expect((await outbox()).length).to.equal(before);
      expect((await list()).some((affiliation) => affiliation.admin.id === otherManagerId)).to.equal(true);
    });

    it("a not-activated admin of another organisation gets the affiliation and a fresh invitation; the other organisation's link stays open", async () => {
      const { id } = await ctx.db.insertInto('admins').values({ email: 'elsewhere@example.com' }).returning('id').executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values({ adminId: id, organizationId: 2, role: 'member' }).execute();
      const earlier = 'earlier-invitation-token-of-another-organisation';
      const expiresAt = new Date(Date.now() + 3600_000);
      await ctx.db.insertInto('adminTokens').values({ adminId: id, purpose: 'activation', tokenHash: hashToken(earlier), expiresAt, organizationId: 2 }).execute();
      expect((await checkToken(earlier)).statusCode).to.equal(200);

      const response = await invite('elsewhere@example.com', 'member');
      expect(response.statusCode).to.equal(201);
      expect(response.json().outcome).to.equal('invited');
      expect(response.json().affiliation.admin.id).to.equal(id);
      expect(await mailsTo('elsewhere@example.com')).to.have.length(1);
      const mailed = tokenOf((await mailsTo('elsewhere@example.com'))[0]!.links[0]!);
      expect((await checkToken(earlier)).statusCode, 'the other organisation’s link').to.equal(200);
      expect((await checkToken(mailed)).statusCode).to.equal(200);
      // each organisation's list shows its own invitation
      const inTwo = (await list(as.otherManager, 2)).find((affiliation) => affiliation.admin.id === id)!;
      expect(inTwo.admin.invitation_expires_at).to.equal(expiresAt.toISOString());
      expect((await list()).find((affiliation) => affiliation.admin.id === id)!.admin.invitation_expires_at).not.to.equal(expiresAt.toISOString());
      const affiliations = await ctx.db.selectFrom('affiliations').select('organizationId').where('adminId', '=', id).orderBy('organizationId').execute();
      expect(affiliations.map((row) => row.organizationId)).to.deep.equal([1, 2]);
    });

    it('an address already in the organisation answers 304 without a body, whatever its case, and changes nothing', async () => {
      const before = await outbox();
      for (const email of ['member@example.com', 'MEMBER@example.com', 'pending@example.com']) {
        const response = await invite(email, 'manager');
        expect(response.statusCode, email).to.equal(304);
        expect(response.body).to.equal('');
      }
      expect((await outbox()).length).to.equal(before.length);
      expect((await list()).find((affiliation) => affiliation.admin.id === MEMBER)!.role).to.equal('member');
    });

    it('refuses a bad address or role with 422 field errors, and stores nothing', async () => {
      const admins = (await ctx.db.selectFrom('admins').select('id').execute()).length;
      for (const email of ['not-an-address', 'a@b', `${'a'.repeat(95)}@example.com`, '']) {
        const response = await invite(email, 'member');
        expect(response.statusCode, email).to.equal(422);
        const [error, ...rest] = response.json().errors;
        expect(error.field).to.equal('email');
        expect(rest).to.deep.equal([]);
      }
      const blank = await invite('', 'member');
      expect(blank.json().errors[0].code).to.equal('blank');
      const badRole = await invite('someone@example.com', 'owner');
      expect(badRole.statusCode).to.equal(422);
      expect(badRole.json().errors.map((error: { field: string }) => error.field)).to.deep.equal(['role']);
      expect((await ctx.db.selectFrom('admins').select('id').execute()).length).to.equal(admins);
    });

    it('only a manager of the session organisation invites (403 for a member, another organisation, another session)', async () => {
      for (const [headers, orgId] of [
        [as.member, 1],
        [as.otherManager, 1],
        [as.managerInTwo, 1],
        [as.managerInTwo, 2], // a member of G0000002
        [as.manager, 2],
      ] as const) {
        const response = await invite('refused@example.com', 'member', headers, orgId);
        expect(response.statusCode, `${orgId}`).to.equal(403);
      }
      expect(await ctx.db.selectFrom('admins').select('id').where('email', '=', 'refused@example.com').executeTakeFirst()).to.equal(undefined);
    });

    it('invitations of one new address at the same time: one is invited, the others answer 304; one admin, one mail', async () => {
      const responses = await Promise.all(Array.from({ length: 5 }, () => invite('race@example.com', 'member')));
      expect(responses.map((response) => response.statusCode).sort()).to.deep.equal([201, 304, 304, 304, 304]);
      expect(await ctx.db.selectFrom('admins').select('id').where('email', '=', 'race@example.com').execute()).to.have.length(1);
      expect(await mailsTo('race@example.com')).to.have.length(1);
    });

    it('a failing invitation mail still answers invited (the invitation is stored; a resend repeats the mail)', async () => {
      const send = sinon.stub(ctx.app.mailer, 'send').rejects(new Error('SMTP down'));
      try {
        const response = await invite('unlucky@example.com', 'member');
        expect(response.statusCode).to.equal(201);
        expect(response.json()).to.include({ outcome: 'invited' });
        expect(send.calledOnce).to.equal(true);
      } finally {
        send.restore();
      }
      const entry = (await list()).find((affiliation) => affiliation.admin.email === 'unlucky@example.com')!;
      expect(entry.admin.invitation_expired).to.equal(false);
    });
  });

  describe('PATCH organizations/{orgId}/affiliations/admins/{adminId} {role}', () => {
    const setRole = (adminId: number, role: string, headers = as.manager, orgId = 1) => call('PATCH', `organizations/${orgId}/affiliations/admins/${adminId}`, headers, { role });

    it('a manager switches another admin between member and manager and gets the affiliation back', async () => {
      const promoted = await setRole(SUPPORT, 'manager');
      expect(promoted.statusCode, promoted.body).to.equal(200);
      expect(promoted.json().affiliation).to.deep.include({ role: 'manager' });
      expect(promoted.json().affiliation.admin).to.include({ id: SUPPORT, email: 'support@example.com' });
      const row = await ctx.db.selectFrom('affiliations').select('role').where('adminId', '=', SUPPORT).where('organizationId', '=', 1).executeTakeFirstOrThrow();
      expect(row.role).to.equal('manager');

      const again = await setRole(SUPPORT, 'manager'); // the role it already has: nothing changes
      expect(again.statusCode).to.equal(200);
      expect(again.json().affiliation.role).to.equal('manager');
      const demoted = await setRole(SUPPORT, 'member');
      expect(demoted.json().affiliation.role).to.equal('member');
    });

    it("ends the changed admin's sessions at once (their next call with the old token is refused)", async () => {
      const supportToken = bearer(await accessToken(ctx.app, { sub: String(SUPPORT) }));
      expect((await call('GET', 'admins/me/affiliations', supportToken)).statusCode).to.equal(200);
      // a token issued in the second of the change still passes (iat has whole seconds): change in the next one
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await setRole(SUPPORT, 'manager')).statusCode).to.equal(200);
      const refused = await call('GET', 'admins/me/affiliations', supportToken);
      expect(refused.statusCode).to.equal(401);
      expect(refused.json()).to.deep.equal({ error: 'invalid_access_token' });
      expect((await setRole(SUPPORT, 'member')).statusCode).to.equal(200);
    });

    it("ends only the sessions for the organisation of the change: the admin's session of another organisation stays", async () => {
      // manager@ (1) manages G0000001 and is a member of G0000002, whose manager changes their role there
      const inOne = bearer(await accessToken(ctx.app, { sub: String(MANAGER) }));
      const inTwo = bearer(await accessToken(ctx.app, { sub: String(MANAGER), gloplaId: 'G0000002' }));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await setRole(MANAGER, 'manager', as.otherManager, 2)).statusCode).to.equal(200);
      expect((await call('GET', 'organizations/1/affiliations', inOne)).statusCode, 'the session of G0000001').to.equal(200);
      expect((await call('GET', 'admins/me/affiliations', inOne)).statusCode).to.equal(200);
      for (const path of ['organizations/2/affiliations', 'admins/me/affiliations']) {
        const refused = await call('GET', path, inTwo);
        expect(refused.statusCode, path).to.equal(401);
        expect(refused.json()).to.deep.equal({ error: 'invalid_access_token' });
      }
      expect((await setRole(MANAGER, 'member', as.otherManager, 2)).statusCode).to.equal(200);
      as.managerInTwo = bearer(await accessToken(ctx.app, { sub: String(MANAGER), gloplaId: 'G0000002' }));
    });

    it('refuses a member, the own row, and other organisations with 403', async () => {
      expect((await setRole(SUPPORT, 'manager', as.member)).statusCode).to.equal(403);
      expect((await setRole(MEMBER, 'manager', as.member)).statusCode).to.equal(403); // a member promoting themselves
      const own = await setRole(MANAGER, 'member');
      expect(own.statusCode).to.equal(403);
      expect(own.json()).to.deep.equal({ error: 'forbidden' });
      expect((await setRole(SUPPORT, 'manager', as.otherManager)).statusCode).to.equal(403);
      expect((await setRole(SUPPORT, 'manager', as.managerInTwo)).statusCode).to.equal(403);
      // the manager of G0000002 never touches G0000002 from a session of G0000001
      expect((await setRole(otherManagerId, 'member', as.manager, 2)).statusCode).to.equal(403);
      const rows = await ctx.db.selectFrom('affiliations').select(['adminId', 'role']).where('adminId', 'in', [MANAGER, MEMBER, SUPPORT]).where('organizationId', '=', 1).orderBy('adminId').execute();
      expect(rows.map((row) => row.role)).to.deep.equal(['manager', 'member', 'member']);
    });

    it('answers 409 admin_already_deleted for an admin who is not (or no longer) in the organisation', async () => {
      const response = await setRole(999_999, 'manager');
      expect(response.statusCode).to.equal(409);
      expect(response.json()).to.deep.equal({ error: 'admin_already_deleted' });
    });

    it('refuses an unknown role, and a body that mixes a role and a name, with 422', async () => {
      const unknown = await setRole(SUPPORT, 'owner');
      expect(unknown.statusCode).to.equal(422);
      expect(unknown.json().errors.map((error: { field: string }) => error.field)).to.deep.equal(['role']);
      const mixed = await call('PATCH', `organizations/1/affiliations/admins/${SUPPORT}`, as.manager, { role: 'manager', last_name: '鈴木' });
      expect(mixed.statusCode).to.equal(422);
      // the name fields choose the name form; the role of the other form is refused, not silently dropped
      expect(mixed.json().errors.map((error: { field: string; code: string }) => `${error.field}:${error.code}`)).to.include('role:invalid');
      expect((await list()).find((affiliation) => affiliation.admin.id === SUPPORT)!.role).to.equal('member');
    });

    it('the same path with a name body stays the own name change', async () => {
      const name = { last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう' };
      const own = await call('PATCH', `organizations/1/affiliations/admins/${MANAGER}`, as.manager, name);
      expect(own.statusCode, own.body).to.equal(200);
      expect(own.json().affiliation).to.deep.include({ role: 'manager' });
      const someoneElse = await call('PATCH', `organizations/1/affiliations/admins/${SUPPORT}`, as.manager, name);
      expect(someoneElse.statusCode).to.equal(403);
      const empty = await call('PATCH', `organizations/1/affiliations/admins/${MANAGER}`, as.manager, {});
      expect(empty.statusCode).to.equal(422);
      expect(empty.json().errors.map((error: { field: string }) => error.field)).to.include('last_name');
    });
  });

  describe('DELETE organizations/{orgId}/affiliations/admins/{adminId}', () => {
    const remove = (adminId: number, headers = as.manager, orgId = 1) => call('DELETE', `organizations/${orgId}/affiliations/admins/${adminId}`, headers);

    it('refuses a member, the own row and other organisations with 403, and removes nothing', async () => {
      expect((await remove(SUPPORT, as.member)).statusCode).to.equal(403);
      expect((await remove(MANAGER)).statusCode).to.equal(403);
      expect((await remove(SUPPORT, as.otherManager)).statusCode).to.equal(403);
      expect((await remove(SUPPORT, as.managerInTwo)).statusCode).to.equal(403);
      expect((await remove(otherManagerId, as.manager, 2)).statusCode).to.equal(403);
      expect((await list()).some((affiliation) => affiliation.admin.id === SUPPORT)).to.equal(true);
    });

    it('a manager removes another admin (204); the second time answers 409 admin_already_deleted', async () => {
      const supportSession = bearer(await accessToken(ctx.app, { sub: String(SUPPORT) }));
      expect((await call('GET', 'organizations/1/affiliations', supportSession)).statusCode).to.equal(200);
      await new Promise((resolve) => setTimeout(resolve, 1100)); // past the second the token was issued in
      const first = await remove(SUPPORT);
      expect(first.statusCode).to.equal(204);
      expect(first.body).to.equal('');
      expect((await list()).some((affiliation) => affiliation.admin.id === SUPPORT)).to.equal(false);
      const second = await remove(SUPPORT);
      expect(second.statusCode).to.equal(409);
      expect(second.json()).to.deep.equal({ error: 'admin_already_deleted' });
      // the removed admin's session ends (and would no longer reach the organisation anyway)
      expect((await call('GET', 'organizations/1/affiliations', supportSession)).statusCode).to.equal(401);
      const fresh = bearer(await accessToken(ctx.app, { sub: String(SUPPORT) }));
      expect((await call('GET', 'organizations/1/affiliations', fresh)).statusCode).to.equal(403);
    });

    it("removing an admin from one organisation leaves their session of another organisation valid", async () => {
      const { id } = await ctx.db
        .insertInto('admins')
        .values({ email: 'both@example.com', firstName: '花子', lastName: '佐藤', kanaFirstName: 'はなこ', kanaLastName: 'さとう', activatedAt: new Date() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ctx.db.insertInto('affiliations').values([1, 2].map((organizationId) => ({ adminId: id, organizationId, role: 'member' as const }))).execute();
      const inOne = bearer(await accessToken(ctx.app, { sub: String(id) }));
      const inTwo = bearer(await accessToken(ctx.app, { sub: String(id), gloplaId: 'G0000002' }));
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await remove(id, as.otherManager, 2)).statusCode).to.equal(204);
      expect((await call('GET', 'organizations/1/affiliations', inOne)).statusCode, 'the session of G0000001').to.equal(200);
      expect((await call('GET', 'admins/me/affiliations', inTwo)).statusCode, 'the session of G0000002').to.equal(401);
    });

    it("removing a not-activated admin's last organisation closes the open invitation", async () => {
      const response = await invite('withdrawn@example.com', 'member');
      const adminId = response.json().affiliation.admin.id as number;
      const token = tokenOf((await mailsTo('withdrawn@example.com'))[0]!.links[0]!);
      expect((await checkToken(token)).statusCode).to.equal(200);
      expect((await remove(adminId)).statusCode).to.equal(204);
      expect((await checkToken(token)).json()).to.deep.equal({ error: 'token_used' });
    });
  });

  describe('POST organizations/{orgId}/affiliations/admins/{adminId}/invitation (resend)', () => {
    const resend = (adminId: number, headers = as.manager, orgId = 1, query = '') => call('POST', `organizations/${orgId}/affiliations/admins/${adminId}/invitation${query}`, headers);

    it('mails a new link and closes the earlier one', async () => {
      const invited = await invite('resend@example.com', 'member');
      const adminId = invited.json().affiliation.admin.id as number;
      const first = tokenOf((await mailsTo('resend@example.com'))[0]!.links[0]!);

      const response = await resend(adminId, as.manager, 1, '?lang=en');
      expect(response.statusCode, response.body).to.equal(200);
      expect(response.json().affiliation.admin).to.include({ id: adminId, activated_at: null, invitation_expired: false });
      const mails = await mailsTo('resend@example.com');
      expect(mails).to.have.length(2);
      expect(mails[0]!.subject).to.equal('Taro Yamada invites you to administer 株式会社デモ'); // newest first
      const second = tokenOf(mails[0]!.links[0]!);
      expect(second).not.to.equal(first);
      expect((await checkToken(first)).json()).to.deep.equal({ error: 'token_used' });
      expect((await checkToken(second)).statusCode).to.equal(200);
    });

    it('renews an expired invitation', async () => {
      const response = await resend(LATE);
      expect(response.statusCode).to.equal(200);
      expect(response.json().affiliation.admin.invitation_expired).to.equal(false);
      expect(Date.parse(response.json().affiliation.admin.invitation_expires_at)).to.be.greaterThan(Date.now());
    });

    it('answers 409 already_activated for an activated admin and admin_already_deleted outside the organisation', async () => {
      const activated = await resend(MEMBER);
      expect(activated.statusCode).to.equal(409);
      expect(activated.json()).to.deep.equal({ error: 'already_activated' });
      const gone = await resend(999_999);
      expect(gone.statusCode).to.equal(409);
      expect(gone.json()).to.deep.equal({ error: 'admin_already_deleted' });
    });

    it('refuses members, the own row and other organisations with 403', async () => {
      expect((await resend(INVITED, as.member)).statusCode).to.equal(403);
      expect((await resend(MANAGER)).statusCode).to.equal(403);
      expect((await resend(INVITED, as.otherManager)).statusCode).to.equal(403);
      expect((await resend(INVITED, as.managerInTwo)).statusCode).to.equal(403);
    });

    it('is limited per invitee (MAIL_RATE_LIMIT_PER_EMAIL per window): then 429 too_many_requests with Retry-After', async () => {
      const statuses: number[] = [];
      let last;
      for (let attempt = 0; attempt < 4; attempt += 1) {
        last = await resend(INVITED);
        statuses.push(last.statusCode);
      }
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      expect(last!.json()).to.deep.equal({ error: 'too_many_requests' });
      expect(Number(last!.headers['retry-after'])).to.be.within(1, 3600);
      expect(await mailsTo('invited@example.com')).to.have.length(3);
    });
  });

  describe('GET organizations/{orgId}/product_admin_roles', () => {
    const roles = (headers: Record<string, string>, orgId: number, lang: string) => call('GET', `organizations/${orgId}/product_admin_roles?lang=${lang}`, headers);

    it("answers the signed-in admin's roles in the organisation, in the language asked for", async () => {
      const en = await roles(as.manager, 1, 'en');
      expect(en.statusCode).to.equal(200);
      expect(en.json().product_admin_roles[0]).to.deep.equal({ product_name: 'Unlimited Library', role: 'Corporate administrator', help_url: 'https://help.example.com/admin-roles/hodai' });
      expect(en.json().product_admin_roles).to.have.length(4);
      const ja = await roles(as.manager, 1, 'ja');
      expect(ja.json().product_admin_roles.map((role: { product_name: string }) => role.product_name)).to.deep.equal(['見放題ライブラリ', '新オンラインMBA', 'クラス型研修', 'アセスメント']);
      const member = await roles(as.member, 1, 'en');
      expect(member.json().product_admin_roles.map((role: { product_name: string }) => role.product_name)).to.deep.equal(['Unlimited Library', 'Global Unlimited']);
      // the same admin in G0000002, through a session of G0000002
      const inTwo = await roles(as.managerInTwo, 2, 'en');
      expect(inTwo.json().product_admin_roles).to.deep.equal([{ product_name: 'Unlimited Library', role: 'Viewer', help_url: 'https://help.example.com/admin-roles/hodai' }]);
      expect((await roles(as.otherManager, 2, 'en')).json()).to.deep.equal({ product_admin_roles: [] });
    });

    it('refuses another organisation and a session of another organisation with 403, and an unknown language with 422', async () => {
      expect((await roles(as.manager, 2, 'en')).statusCode).to.equal(403);
      expect((await roles(as.managerInTwo, 1, 'en')).statusCode).to.equal(403);
      expect((await roles(as.otherManager, 1, 'en')).statusCode).to.equal(403);
      expect((await roles(as.manager, 1, 'fr')).statusCode).to.equal(422);
    });
  });
});
