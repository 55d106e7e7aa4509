/**
 * No lost update on applications (issue 28): an application answers its version (ETag on GET, `etag` in the list,
 * the detail and every write's answer); a change (PATCH, the confirmed PATCH, a dry run too) or a cancel with If-Match
 * is made only on that version, else 412 with who changed it and when, and nothing changes. A repeated request with
 * the same Idempotency-Key answers its first answer, never a 412. On the demo data: manager@ (1) and manager2@ both
 * manage G0000001 (id 1).
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { expectConditionalAnswer, ifMatchValues } from '../support/ifMatch.js';
import { demoManagers } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

type Json = Record<string, any>;

describe('Versions of applications: ETag, If-Match, 412 (issue 28)', function () {
  this.timeout(30_000);
  const ctx = useTestApp({ env: { SEED: 'demo' } });
  let as: Awaited<ReturnType<typeof demoManagers>>;

  before(async () => {
    as = await demoManagers(ctx.app, ctx.db);
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Record<string, string>, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/organizations/1/${path}`, headers, ...(payload ? { payload } : {}) });
  const read = async (code: string) => (await call('GET', `corporate_subscriptions/${code}`, as.manager)).json().corporate_subscription as Json;
  const learner = (index: number) => ({ last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう', email: `versioned${index}@example.com` });
  /** The application as the edit wizard sends it. */
  const asForm = (subscription: Json, extra: Json = {}) => ({
    service_ids: subscription.services.map((service: Json) => service.id),
    admin_ids: subscription.admins.map((admin: Json) => admin.id),
    users: subscription.users,
    starts_on: subscription.starts_on[0],
    billing_note: subscription.billing_note,
    project_class_id: subscription.project_class?.id ?? 0,
    ...extra,
  });
  /** A newhodaiplus application of G0000001 with these learners. */
  const application = (users: Json[]) => ({
    service_group_id: 9, service_ids: [9], admin_ids: [1], users, starts_on: addDays(businessCalendar().earliestStartsOn(tokyoToday()), 40),
    billing_contact_id: ctx.app.publicIds.billingContact.toPublic(1), contact_id: ctx.app.publicIds.contact.toPublic(1), billing_note: 'PO-1', project_class_id: 0,
  });
  /** A new application, applied by manager@. */
  async function newApplication(): Promise<Json> {
    const applied = await call('POST', 'corporate_subscriptions', as.manager, application([learner(1), learner(2)]));
    expect(applied.statusCode, applied.body).to.equal(201);
    return applied.json().corporate_subscription;
  }

  it('answers a strong ETag on GET, the same as the etag of the list row and of the write that made it', async () => {
    const applied = await newApplication();
    expect(applied.etag).to.match(/^"[^"]+"$/);
    const detail = await call('GET', `corporate_subscriptions/${applied.request_code}`, as.manager);
    expect(detail.headers.etag).to.equal(applied.etag);
    expect(detail.json().corporate_subscription.etag).to.equal(applied.etag);
    const listed = (await call('GET', 'corporate_subscriptions', as.manager)).json().corporate_subscriptions.find((row: Json) => row.request_code === applied.request_code);
    expect(listed.etag).to.equal(applied.etag);
    const dryRun = await call('POST', 'corporate_subscriptions?dryrun=true', as.manager, application([learner(3)]));
    expect(dryRun.statusCode, dryRun.body).to.equal(200);
    expect(dryRun.json().corporate_subscription.etag, "a new application's dry run has no version").to.equal('');
  });

  it("refuses a change made on a version another manager has changed since (412, who and when), dry run or real, and keeps that manager's change", async () => {
    const seen = await newApplication(); // A and B both open the edit wizard on this version
    const byB = await call('PATCH', `corporate_subscriptions/${seen.request_code}`, { ...as.manager2, 'if-match': seen.etag }, asForm(seen, { billing_note: 'PO-B' }));
    expect(byB.statusCode, byB.body).to.equal(200);
    expect(byB.headers.etag).to.not.equal(seen.etag);
    expect(byB.json().corporate_subscription.etag).to.equal(byB.headers.etag);

    for (const query of ['?dryrun=true', '']) {
      const byA = await call('PATCH', `corporate_subscriptions/${seen.request_code}${query}`, { ...as.manager, 'if-match': seen.etag, 'accept-language': 'en' }, asForm(seen, { users: [learner(9)] }));
      expect(byA.statusCode, query).to.equal(412);
      expect(byA.json()).to.deep.include({ error: 'precondition_failed', changed_by: { name: '美咲 高橋', email: 'manager2@example.com' } });
      expect(Date.now() - Date.parse(byA.json().changed_at)).to.be.within(0, 60_000);
    }
    const now = await read(seen.request_code);
    expect(now).to.include({ billing_note: 'PO-B', user_count: 2, etag: byB.headers.etag });

    // the wizard's dry run on the latest version answers that version, and the real run made on it passes
    const checked = await call('PATCH', `corporate_subscriptions/${seen.request_code}?dryrun=true`, { ...as.manager, 'if-match': now.etag }, asForm(now, { users: [learner(9)] }));
    expect(checked.statusCode, checked.body).to.equal(200);
    expect(checked.json().corporate_subscription.etag).to.equal(now.etag);
    const saved = await call('PATCH', `corporate_subscriptions/${seen.request_code}`, { ...as.manager, 'if-match': checked.json().corporate_subscription.etag }, asForm(now, { users: [learner(9)] }));
    expect(saved.statusCode, saved.body).to.equal(200);
    expect(saved.json().corporate_subscription).to.include({ billing_note: 'PO-B', user_count: 1 });
  });

  it('reads If-Match as RFC 9110 does (*, lists, weak never, garbage 400) and keeps working without it', async () => {
    const applied = await newApplication();
    const patch = (ifMatch: string | undefined) =>
      call('PATCH', `corporate_subscriptions/${applied.request_code}?dryrun=true`, { ...as.manager, ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) }, asForm(applied));
    expect((await patch(`W/${applied.etag}`)).statusCode, 'weak').to.equal(412);
    expect((await patch('"0", "1"')).statusCode, 'a list without it').to.equal(412);
    expect((await patch(`"0", ${applied.etag}`)).statusCode, 'a list with it').to.equal(200);
    expect((await patch('*')).statusCode, 'any').to.equal(200);
    expect((await patch(undefined)).statusCode, 'no If-Match: as SPEC clients send').to.equal(200);
    const garbage = await patch('"open');
    expect(garbage.statusCode).to.equal(400);
    expect(garbage.json()).to.deep.equal({ error: 'bad_request' });
  });

  it('answers 200, 400 or 412 with its envelope to 150 generated If-Match values on a dry run and on a cancel, and cancels nothing it was not asked to', async () => {
    const applied = await newApplication();
    await fc.assert(
      fc.asyncProperty(ifMatchValues(applied.etag), async (ifMatch) => {
        await expectConditionalAnswer(ifMatch, () => call('PATCH', `corporate_subscriptions/${applied.request_code}?dryrun=true`, { ...as.manager, 'if-match': ifMatch }, asForm(applied)), 200);
        // never any version or the application's own: the cancel must not happen
        if (ifMatch.trim() === '*' || ifMatch.includes(applied.etag)) return;
        await expectConditionalAnswer(ifMatch, () => call('DELETE', `corporate_subscriptions/${applied.request_code}`, { ...as.manager, 'if-match': ifMatch }), 204);
      }),
      { numRuns: 150 },
    );
    expect(await read(applied.request_code)).to.deep.equal(applied);
  });

  it('answers a repeated request with the same Idempotency-Key with its first answer, never a 412', async () => {
    const applied = await newApplication();
    const send = () =>
      call('PATCH', `corporate_subscriptions/${applied.request_code}`, { ...as.manager, 'if-match': applied.etag, 'idempotency-key': `versions-${applied.request_code}` }, asForm(applied, { billing_note: 'PO-once' }));
    const first = await send();
    expect(first.statusCode, first.body).to.equal(200);
    const repeat = await send(); // its If-Match names the version the first one replaced
    expect(repeat.statusCode, repeat.body).to.equal(200);
    expect(repeat.json()).to.deep.equal(first.json());
  });

  it('cancels only the version named; after a cancel the old version is not found', async () => {
    const applied = await newApplication();
    const changed = await call('PATCH', `corporate_subscriptions/${applied.request_code}`, as.manager2, asForm(applied, { billing_note: 'PO-2' }));
    const stale = await call('DELETE', `corporate_subscriptions/${applied.request_code}`, { ...as.manager, 'if-match': applied.etag });
    expect(stale.statusCode).to.equal(412);
    expect(stale.json().changed_by.email).to.equal('manager2@example.com');
    expect((await call('GET', `corporate_subscriptions/${applied.request_code}`, as.manager)).statusCode, 'not cancelled').to.equal(200);
    expect((await call('DELETE', `corporate_subscriptions/${applied.request_code}`, { ...as.manager, 'if-match': changed.headers.etag as string })).statusCode).to.equal(204);
    expect((await call('DELETE', `corporate_subscriptions/${applied.request_code}`, { ...as.manager, 'if-match': '*' })).statusCode).to.equal(404);
  });

  it("versions a confirmed class application's learner change alike", async () => {
    const gls = await read('A000000103');
    const body = (users: Json[]) => ({ service_ids: [4], admin_ids: gls.admins.map((admin: Json) => admin.id), starts_on: gls.starts_on[0], project_class_id: gls.project_class.id, users });
    const byB = await call('PATCH', 'confirmed_corporate_subscriptions/A000000103', { ...as.manager2, 'if-match': gls.etag }, body([...gls.users, learner(30)]));
    expect(byB.statusCode, byB.body).to.equal(200);
    const byA = await call('PATCH', 'confirmed_corporate_subscriptions/A000000103', { ...as.manager, 'if-match': gls.etag }, body([...gls.users, learner(31)]));
    expect(byA.statusCode).to.equal(412);
    expect((await read('A000000103')).users.map((user: Json) => user.email)).to.include('versioned30@example.com').and.not.include('versioned31@example.com');
  });
});
