/**
 * Webhooks (issue 46 item 5): endpoints of an organisation (managers only, audited, versioned), events written in the
 * transaction of their change, delivered by the job queue as Standard Webhooks — verified here with the
 * specification's reference implementation (`standardwebhooks`) by a receiver this test starts on 127.0.0.1 (demo
 * mode lets loopback be an endpoint). The queue is driven by hand (no worker): `drain()` runs what is due, and a
 * retry is made due by moving its job's next attempt to the past.
 *
 * On the demo data: G0000001 (id 1) managed by manager@ (1), member@ (2) its member.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { addDays, tokyoToday } from '../../../src/common/subscriptionRules.js';
import { WEBHOOK_EVENT_TYPES } from '../../../src/common/webhookEvents.js';
import { activateByFederatedSignIn } from '../../../src/server/domain/accountTokens.js';
import { auditTrail } from '../../../src/server/domain/audit.js';
import { businessCalendar } from '../../../src/server/domain/businessCalendar.js';
import { WEBHOOK_DELIVERY_JOB } from '../../../src/server/domain/webhookOutbox.js';
import { guardedRequest } from '../../../src/server/domain/guardedFetch.js';
import { provisionMember } from '../../../src/server/idp/jitProvisioning.js';
import { sendDelivery, WEBHOOK_MAX_ANSWER_BYTES, WEBHOOK_RETRY_DELAYS_MS, webhookRetryDelayMs } from '../../../src/server/domain/webhookSender.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { createTestApp, createTestDatabase, type TestApp } from '../support/testApp.js';

type Json = Record<string, any>;
type Headers = Record<string, string>;

interface Received {
  headers: Headers;
  body: string;
}

/** A webhook receiver on 127.0.0.1: records every request and answers `status`. */
async function startReceiver() {
  const received: Received[] = [];
  const receiver = { received, status: 204, headers: {} as Headers, body: '', url: '', close: () => Promise.resolve() };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(receiver.status, receiver.headers).end(receiver.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return receiver;
}

const learner = (index: number) => ({ last_name: '山田', first_name: '太郎', kana_last_name: 'やまだ', kana_first_name: 'たろう', email: `hook-learner${index}@example.com` });

/** A valid newhodaiplus application (service 9) of G0000001, as corporateSubscriptions.test.ts makes one. */
function application(app: TestApp) {
  return {
    service_group_id: 9,
    service_ids: [9],
    admin_ids: [1],
    users: [learner(0), learner(1)],
    starts_on: addDays(businessCalendar().earliestStartsOn(tokyoToday()), 14),
    billing_contact_id: app.app.publicIds.billingContact.toPublic(1),
    contact_id: app.app.publicIds.contact.toPublic(1),
    billing_note: 'PO-1',
    project_class_id: 0,
  };
}

const call = (ctx: TestApp, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: Json) =>
  ctx.app.inject({ method, url: `/api/v2/organizations/${path}`, headers, ...(payload ? { payload } : {}) });

/** The headers standardwebhooks reads. */
const signedHeaders = (received: Received) => ({
  'webhook-id': received.headers['webhook-id']!,
  'webhook-timestamp': received.headers['webhook-timestamp']!,
  'webhook-signature': received.headers['webhook-signature']!,
});

const deliveryJobs = (ctx: TestApp) => ctx.db.selectFrom('mailQueue').selectAll().where('kind', '=', WEBHOOK_DELIVERY_JOB).orderBy('id').execute();

describe('Webhooks (issue 46 item 5)', function () {
  this.timeout(60_000);
  const ctx = {} as TestApp;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const as = {} as Record<'manager' | 'member', Headers>;

  before(async () => {
    receiver = await startReceiver();
    Object.assign(ctx, await createTestApp({ env: { SEED: 'demo' }, mailQueueWorker: false }));
    await ctx.db.updateTable('services').set({ lastStartsOn: null }).where('id', '!=', 25).execute();
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
  });

  after(async () => {
    await ctx.close?.();
    await receiver?.close();
  });

  beforeEach(() => {
    receiver.received.length = 0;
    receiver.status = 204;
    receiver.headers = {};
    receiver.body = '';
  });

  const createEndpoint = async (events: string[], url = receiver.url) => {
    const response = await call(ctx, 'POST', '1/webhook_endpoints', as.manager, { url, events });
    expect(response.statusCode, response.body).to.equal(201);
    return response.json() as { webhook_endpoint: Json; secret: string };
  };
  const fieldErrors = (response: { statusCode: number; body: string; json(): Json }) => {
    expect(response.statusCode, response.body).to.equal(422);
    return response.json().errors.map((error: Json) => `${error.field} ${error.code}`);
  };

  describe('endpoints', () => {
    it('adds an endpoint: 201 with its whsec_ secret this once, stored sealed, never listed, audited', async () => {
      const { webhook_endpoint: endpoint, secret } = await createEndpoint(['corporate_subscription.created', 'admin.invited']);
      expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(endpoint).to.include({ url: receiver.url, disabled_at: null });
      expect(endpoint.events).to.deep.equal(['corporate_subscription.created', 'admin.invited']);
      const stored = await ctx.db.selectFrom('webhookEndpoints').select('secretEncrypted').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(stored.secretEncrypted).to.not.include(secret.slice(6, 20));
      const list = await call(ctx, 'GET', '1/webhook_endpoints', as.manager);
      expect(list.statusCode).to.equal(200);
      expect(list.body).to.not.include(secret.slice(6));
      expect(list.json().webhook_endpoints.map((shown: Json) => shown.id)).to.include(endpoint.id);
      const trail = await ctx.db.selectFrom('auditEvents').selectAll().where('action', '=', 'webhook.endpointCreated').execute();
      expect(trail.map((entry) => entry.targetId)).to.include(endpoint.id);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager);
    });

    it('refuses an unknown event, http to a host that is not loopback, and a private address', async () => {
      expect(fieldErrors(await call(ctx, 'POST', '1/webhook_endpoints', as.manager, { url: receiver.url, events: ['subscription.created'] }))).to.deep.equal(['events.0 invalid']);
      expect(fieldErrors(await call(ctx, 'POST', '1/webhook_endpoints', as.manager, { url: 'http://hooks.example.com/in', events: ['learners.updated'] }))).to.deep.equal(['url httpsRequired']);
      expect(fieldErrors(await call(ctx, 'POST', '1/webhook_endpoints', as.manager, { url: 'https://10.0.0.8/in', events: ['learners.updated'] }))).to.deep.equal(['url privateAddress']);
      expect(fieldErrors(await call(ctx, 'POST', '1/webhook_endpoints', as.manager, { url: 'https://169.254.169.254/latest', events: ['learners.updated'] }))).to.deep.equal([
        'url privateAddress',
      ]);
    });

    it('a member is refused (403): the list, adding, the deliveries', async () => {
      const { webhook_endpoint: endpoint } = await createEndpoint(['learners.updated']);
      expect((await call(ctx, 'GET', '1/webhook_endpoints', as.member)).statusCode).to.equal(403);
      expect((await call(ctx, 'POST', '1/webhook_endpoints', as.member, { url: receiver.url, events: ['learners.updated'] })).statusCode).to.equal(403);
      expect((await call(ctx, 'GET', `1/webhook_endpoints/${endpoint.id}/deliveries`, as.member)).statusCode).to.equal(403);
      expect((await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.member)).statusCode).to.equal(403);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager);
    });

    it('changes an endpoint under If-Match (412 on another version), turns it off, deletes it', async () => {
      const { webhook_endpoint: endpoint } = await createEndpoint(['learners.updated']);
      const changed = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v2/organizations/1/webhook_endpoints/${endpoint.id}`,
        headers: { ...as.manager, 'if-match': endpoint.etag },
        payload: { events: ['learners.updated', 'deadline.approaching'], enabled: false },
      });
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(changed.json().webhook_endpoint.events).to.deep.equal(['learners.updated', 'deadline.approaching']);
      expect(changed.json().webhook_endpoint.disabled_at).to.be.a('string');
      const stale = await ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/1/webhook_endpoints/${endpoint.id}`, headers: { ...as.manager, 'if-match': endpoint.etag }, payload: { enabled: true } });
      expect(stale.statusCode).to.equal(412);
      expect((await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager)).statusCode).to.equal(204);
      expect((await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager)).statusCode).to.equal(404);
    });
  });

  describe('deliveries', () => {
    it('a created application delivers a signed corporate_subscription.created that standardwebhooks verifies', async () => {
      const { webhook_endpoint: endpoint, secret } = await createEndpoint(['corporate_subscription.created']);
      const created = await call(ctx, 'POST', '1/corporate_subscriptions', as.manager, application(ctx));
      expect(created.statusCode, created.body).to.equal(201);
      const requestCode = created.json().corporate_subscription.request_code;
      // written with the application, in its transaction: queued before anything is sent
      expect(await deliveryJobs(ctx)).to.have.length(1);
      expect(receiver.received).to.have.length(0);

      await ctx.app.mailQueue.drain();
      expect(receiver.received).to.have.length(1);
      const [delivery] = receiver.received;
      expect(delivery!.headers['content-type']).to.equal('application/json');
      const payload = new Webhook(secret).verify(delivery!.body, signedHeaders(delivery!)) as Json;
      expect(payload).to.deep.include({ type: 'corporate_subscription.created' });
      expect(payload.data).to.deep.equal({ organization_id: 1, request_code: requestCode });
      expect(delivery!.headers['webhook-id']).to.match(/^msg_/);
      // another secret does not verify it
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(delivery!.body, signedHeaders(delivery!))).to.throw();

      const list = await call(ctx, 'GET', `1/webhook_endpoints/${endpoint.id}/deliveries`, as.manager);
      expect(list.statusCode).to.equal(200);
      expect(list.json().next_cursor).to.equal(null);
      expect(list.json().deliveries).to.have.length(1);
      expect(list.json().deliveries[0]).to.include({ event_type: 'corporate_subscription.created', status: 'succeeded', attempts: 1, response_status: 204 });
      expect(list.json().deliveries[0].response_ms).to.be.a('number');
      expect((await call(ctx, 'GET', `1/webhook_endpoints/${endpoint.id}/deliveries?cursor=nonsense`, as.manager)).statusCode).to.equal(400);

      // 'Resend': the same event (same webhook-id) again, as a new delivery
      const resent = await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/deliveries/${list.json().deliveries[0].id}/resend`, as.manager);
      expect(resent.statusCode, resent.body).to.equal(202);
      await ctx.app.mailQueue.drain();
      expect(receiver.received).to.have.length(2);
      expect(receiver.received[1]!.headers['webhook-id']).to.equal(delivery!.headers['webhook-id']);
      expect(new Webhook(secret).verify(receiver.received[1]!.body, signedHeaders(receiver.received[1]!))).to.deep.include({ type: 'corporate_subscription.created' });
      await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager);
    });

    it('an endpoint not subscribed to the event, or turned off, gets nothing; a rolled-back dry run writes no event', async () => {
      const { webhook_endpoint: other } = await createEndpoint(['learners.updated']);
      const { webhook_endpoint: off } = await createEndpoint(['corporate_subscription.created']);
      await call(ctx, 'PATCH', `1/webhook_endpoints/${off.id}`, as.manager, { enabled: false });
      const before = await ctx.db.selectFrom('webhookEvents').select('id').execute();
      expect((await call(ctx, 'POST', '1/corporate_subscriptions', as.manager, application(ctx))).statusCode).to.equal(201);
      expect((await call(ctx, 'POST', '1/corporate_subscriptions?dryrun=true', as.manager, application(ctx))).statusCode).to.equal(200);
      expect(await ctx.db.selectFrom('webhookEvents').select('id').execute()).to.have.length(before.length);
      expect(await deliveryJobs(ctx)).to.have.length(0);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${other.id}`, as.manager);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${off.id}`, as.manager);
    });

    it('a receiver answering 500 gets retries with growing waits; after the schedule the endpoint is disabled and the managers mailed', async () => {
      receiver.status = 500;
      const { webhook_endpoint: endpoint, secret } = await createEndpoint(['corporate_subscription.created']);
      expect((await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.manager)).statusCode).to.equal(202);
      const waits: number[] = [];
      for (let attempt = 1; attempt <= WEBHOOK_RETRY_DELAYS_MS.length; attempt += 1) {
        const sentAt = Date.now();
        await ctx.app.mailQueue.drain();
        expect(receiver.received, `attempt ${attempt}`).to.have.length(attempt);
        const [job] = await deliveryJobs(ctx);
        expect(job!.failedAt).to.equal(null);
        waits.push(new Date(job!.nextAttemptAt).getTime() - sentAt);
        // the next attempt made due now (the queue's clock is the database's)
        await ctx.db.updateTable('mailQueue').set({ nextAttemptAt: new Date(Date.now() - 1000) }).where('id', '=', job!.id).execute();
      }
      // each wait is the schedule's, ±10 % (and the time the attempt took)
      waits.forEach((wait, index) => {
        const planned = WEBHOOK_RETRY_DELAYS_MS[index]!;
        expect(wait, `wait ${index + 1}`).to.be.within(planned * 0.9 - 1000, planned * 1.1 + 1000);
      });
      expect(waits[0]).to.be.below(6_000);
      for (let index = 1; index < waits.length - 1; index += 1) expect(waits[index]).to.be.above(waits[index - 1]!);
      // every attempt is the same event, signed anew
      for (const received of receiver.received) expect(new Webhook(secret).verify(received.body, signedHeaders(received))).to.deep.include({ type: 'webhook_endpoint.test' });
      expect(new Set(receiver.received.map((received) => received.headers['webhook-id']))).to.have.property('size', 1);

      // the eighth attempt fails too: given up
      await ctx.app.mailQueue.drain();
      expect(receiver.received).to.have.length(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      const [job] = await deliveryJobs(ctx);
      expect(job!.failedAt).to.not.equal(null);
      const delivery = await ctx.db.selectFrom('webhookDeliveries').selectAll().where('endpointId', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(delivery).to.include({ status: 'failed', attempts: 8, responseStatus: 500 });
      const disabled = await ctx.db.selectFrom('webhookEndpoints').select('disabledAt').where('id', '=', endpoint.id).executeTakeFirstOrThrow();
      expect(disabled.disabledAt).to.not.equal(null);
      const managers = await ctx.db
        .selectFrom('affiliations')
        .innerJoin('admins', 'admins.id', 'affiliations.adminId')
        .select('admins.email')
        .where('organizationId', '=', 1)
        .where('role', '=', 'manager')
        .where('admins.activatedAt', 'is not', null)
        .execute();
      const mails = await ctx.db.selectFrom('mails').selectAll().where('subject', 'like', '%Webhook%').execute();
      expect(mails.map((mail) => mail.recipients).sort()).to.deep.equal(managers.map((manager) => manager.email).sort());
      expect(mails[0]!.textPart).to.include(receiver.url).and.include('/webhooks');
      // a disabled endpoint is sent nothing more
      receiver.status = 204;
      await call(ctx, 'POST', '1/corporate_subscriptions', as.manager, application(ctx));
      await ctx.db.deleteFrom('mailQueue').execute();
      await ctx.app.mailQueue.drain();
      expect(receiver.received).to.have.length(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      await ctx.db.deleteFrom('webhookEndpoints').where('id', '=', endpoint.id).execute();
    });

    it('follows no redirect (a 3xx is a failure, retried), and reads at most 64 KB of an answer', async () => {
      const { webhook_endpoint: endpoint } = await createEndpoint(['corporate_subscription.created']);
      const deliveryOf = () => ctx.db.selectFrom('webhookDeliveries').selectAll().where('endpointId', '=', endpoint.id).orderBy('createdAt', 'desc').executeTakeFirstOrThrow();
      receiver.status = 302;
      receiver.headers = { location: 'http://127.0.0.1:9/elsewhere' };
      await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.manager);
      await ctx.app.mailQueue.drain();
      expect(receiver.received).to.have.length(1);
      expect(await deliveryOf()).to.include({ status: 'pending', attempts: 1, responseStatus: null });
      expect((await deliveryOf()).lastError).to.include('redirect');
      await ctx.db.deleteFrom('mailQueue').execute();

      receiver.status = 200;
      receiver.headers = {};
      receiver.body = 'x'.repeat(2 * 1024 * 1024);
      await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.manager);
      await ctx.app.mailQueue.drain();
      expect(await deliveryOf()).to.include({ status: 'succeeded', attempts: 1, responseStatus: 200 });
      // the sender's read of that answer stops at 64 KB
      const answer = await guardedRequest(receiver.url, { method: 'POST', body: '{}', allowLoopback: true, maxBytes: WEBHOOK_MAX_ANSWER_BYTES, truncate: true });
      expect(answer.body).to.have.length(64 * 1024);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager);
    });

    it('the schedule is Standard Webhooks\': 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h with ±10 % jitter, then given up', () => {
      expect([1, 2, 3, 4, 5, 6, 7].map((attempts) => webhookRetryDelayMs(attempts, () => 0.5))).to.deep.equal([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
      expect(webhookRetryDelayMs(1, () => 0)).to.equal(4_500);
      expect(webhookRetryDelayMs(1, () => 1)).to.equal(5_500);
      expect(webhookRetryDelayMs(8)).to.equal(undefined);
    });

    it('outside demo mode the sender refuses loopback, private and link-local addresses, checked after DNS resolution', async () => {
      for (const address of ['127.0.0.1', '10.1.2.3', '169.254.169.254']) {
        const { webhook_endpoint: endpoint } = await createEndpoint(['corporate_subscription.created']);
        await ctx.db.updateTable('webhookEndpoints').set({ url: 'https://receiver.example.com/hook' }).where('id', '=', endpoint.id).execute();
        await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.manager);
        const delivery = await ctx.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).executeTakeFirstOrThrow();
        const deps = { keys: { db: ctx.db, configuredKeys: ctx.config.secretKeys }, publicUrl: ctx.config.publicUrl, allowLoopback: false, lookup: async () => [address] };
        const failure = await sendDelivery(deps, { deliveryId: delivery.id }).then(
          () => undefined,
          (error: Error) => error,
        );
        expect(failure?.message, address).to.include('privateAddress');
        await ctx.db.deleteFrom('webhookEndpoints').where('id', '=', endpoint.id).execute();
      }
      await ctx.db.deleteFrom('mailQueue').execute();
      expect(receiver.received).to.have.length(0);
    });

    it('outside demo mode an endpoint on loopback is refused when it is added', async () => {
      const real = await createTestApp({ testDatabase: ctx.testDatabase, env: { DEMO: undefined, PUBLIC_URL: 'https://portal.example.com' }, mailQueueWorker: false });
      try {
        const headers = bearer(await accessToken(real.app, { sub: '1' }));
        for (const url of [receiver.url, 'https://127.0.0.1/hook', 'https://[::1]/hook']) {
          const response = await call(real, 'POST', '1/webhook_endpoints', headers, { url, events: ['learners.updated'] });
          expect(fieldErrors(response)[0], url).to.match(/^url (httpsRequired|privateAddress)$/);
        }
      } finally {
        await real.app.close();
      }
    });
  });

  describe('the events of each change, written with it', () => {
    let endpoint: Json;
    let secret: string;
    before(async () => {
      await ctx.db.deleteFrom('mailQueue').execute();
      ({ webhook_endpoint: endpoint, secret } = await createEndpoint([...WEBHOOK_EVENT_TYPES]));
    });
    after(() => call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager));

    /** The events delivered since the last call, each verified, and each the body the OpenAPI document's `webhooks` describe. */
    const delivered = async () => {
      await ctx.app.mailQueue.drain();
      const events = receiver.received.map((received) => new Webhook(secret).verify(received.body, signedHeaders(received)) as Json);
      receiver.received.length = 0;
      const documented = (await ctx.app.inject({ url: '/api/docs/json' })).json().webhooks as Json;
      const ajv = addFormats.default(new Ajv({ strict: false }));
      for (const event of events) {
        const validate = ajv.compile(documented[event.type].post.requestBody.content['application/json'].schema);
        expect(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      }
      return events.map((event) => ({ type: event.type, data: event.data }));
    };

    it('corporate_subscription.created, .updated and .cancelled name the application', async () => {
      const created = await call(ctx, 'POST', '1/corporate_subscriptions', as.manager, application(ctx));
      const { request_code: requestCode, etag } = created.json().corporate_subscription;
      const changed = await ctx.app.inject({
        method: 'PATCH',
        url: `/api/v2/organizations/1/corporate_subscriptions/${requestCode}`,
        headers: { ...as.manager, 'if-match': etag },
        payload: { ...application(ctx), users: [learner(0)] },
      });
      expect(changed.statusCode, changed.body).to.equal(200);
      const cancelled = await ctx.app.inject({ method: 'DELETE', url: `/api/v2/organizations/1/corporate_subscriptions/${requestCode}`, headers: { ...as.manager, 'if-match': changed.json().corporate_subscription.etag } });
      expect(cancelled.statusCode, cancelled.body).to.equal(204);
      const data = { organization_id: 1, request_code: requestCode };
      expect(await delivered()).to.deep.equal([
        { type: 'corporate_subscription.created', data },
        { type: 'corporate_subscription.updated', data },
        { type: 'corporate_subscription.cancelled', data },
      ]);
    });

    it("learners.updated: a learner's nameId changed", async () => {
      const [user] = (await call(ctx, 'GET', '1/users', as.manager)).json().users as Json[];
      const { id, last_name, first_name, kana_last_name, kana_first_name, email } = user!;
      const changed = await call(ctx, 'PATCH', `1/users/${id}`, as.manager, { last_name, first_name, kana_last_name, kana_first_name, email, name_id: 'HOOK01' });
      expect(changed.statusCode, changed.body).to.equal(200);
      expect(await delivered()).to.deep.equal([{ type: 'learners.updated', data: { organization_id: 1, count: 1, learner_ids: [id] } }]);
    });

    it('admin.invited, admin.joined (an activated admin invited) and admin.removed', async () => {
      await ctx.db.insertInto('admins').values({ email: 'hook-joiner@example.com', activatedAt: new Date() }).execute();
      for (const email of ['hook-invitee@example.com', 'hook-joiner@example.com']) {
        const invited = await call(ctx, 'POST', '1/affiliations', as.manager, { email, role: 'member' });
        expect(invited.statusCode, invited.body).to.equal(201);
      }
      const invitee = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'hook-invitee@example.com').executeTakeFirstOrThrow();
      const joiner = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'hook-joiner@example.com').executeTakeFirstOrThrow();
      expect((await call(ctx, 'DELETE', `1/affiliations/admins/${invitee.id}`, as.manager)).statusCode).to.equal(204);
      expect(await delivered()).to.deep.equal([
        { type: 'admin.invited', data: { organization_id: 1, admin_id: invitee.id, email: 'hook-invitee@example.com', role: 'member' } },
        { type: 'admin.joined', data: { organization_id: 1, admin_id: joiner.id, email: 'hook-joiner@example.com', role: 'member' } },
        { type: 'admin.removed', data: { organization_id: 1, admin_id: invitee.id, email: 'hook-invitee@example.com', role: 'member' } },
      ]);
    });

    it('admin.joined also when an invited admin activates by single sign-on, or single sign-on creates a member just in time', async () => {
      expect((await call(ctx, 'POST', '1/affiliations', as.manager, { email: 'hook-sso@example.com', role: 'member' })).statusCode).to.equal(201);
      const invitee = await ctx.db.selectFrom('admins').select('id').where('email', '=', 'hook-sso@example.com').executeTakeFirstOrThrow();
      expect(await activateByFederatedSignIn(ctx.db, invitee.id)).to.equal(true);
      expect(await activateByFederatedSignIn(ctx.db, invitee.id)).to.equal(false);
      const trail = auditTrail({ adminId: null, organizationId: 1 }, ['membership.provisioned']);
      const name = { lastName: '山田', firstName: '花子', kanaLastName: 'やまだ', kanaFirstName: 'はなこ' };
      const created = await provisionMember(ctx.db, { email: 'hook-jit@example.com', organizationId: 1, connection: { id: randomUUID(), name: 'Entra ID' }, name }, trail);
      const member = (id: number, email: string) => ({ organization_id: 1, admin_id: id, email, role: 'member' });
      expect(await delivered()).to.deep.equal([
        { type: 'admin.invited', data: member(invitee.id, 'hook-sso@example.com') },
        { type: 'admin.joined', data: member(invitee.id, 'hook-sso@example.com') },
        { type: 'admin.joined', data: member(created!.id, 'hook-jit@example.com') },
      ]);
    });

    it('deadline.approaching with the reminder, corporate_subscription.confirmed once the change deadline has passed (each once)', async () => {
      const calendar = businessCalendar();
      const today = tokyoToday();
      let startsOn = calendar.earliestStartsOn(today);
      while (!calendar.isUpdatable(startsOn, today)) startsOn = addDays(startsOn, 1);
      await ctx.db.updateTable('corporateSubscriptions').set({ startsOn, projectClassId: null }).where('requestCode', '=', 'A000000104').execute();
      const changeDeadline = calendar.changeDeadline(startsOn);
      const ofTheApplication = (events: Json[]) => events.filter((event) => event.data.request_code === 'A000000104');

      await ctx.app.runDeadlineReminders(today);
      await ctx.app.runDeadlineReminders(today);
      expect(ofTheApplication(await delivered())).to.deep.equal([
        {
          type: 'deadline.approaching',
          data: { organization_id: 1, request_code: 'A000000104', starts_on: startsOn, change_deadline: changeDeadline, business_days_left: calendar.businessDaysLeft(today, changeDeadline) },
        },
      ]);
      const dayAfter = addDays(changeDeadline, 1);
      await ctx.app.runDeadlineReminders(dayAfter);
      await ctx.app.runDeadlineReminders(dayAfter);
      expect(ofTheApplication(await delivered())).to.deep.equal([
        { type: 'corporate_subscription.confirmed', data: { organization_id: 1, request_code: 'A000000104', starts_on: startsOn, change_deadline: changeDeadline } },
      ]);
    });
  });

  describe('retention', () => {
    it('deletes the events (and their deliveries) written more than 30 days ago, keeps later ones', async () => {
      const { webhook_endpoint: endpoint } = await createEndpoint(['corporate_subscription.created']);
      for (const days of [31, 29]) {
        await call(ctx, 'POST', `1/webhook_endpoints/${endpoint.id}/test_events`, as.manager);
        const sent = ctx.db.selectFrom('webhookDeliveries').select('eventId').where('endpointId', '=', endpoint.id);
        await ctx.db.updateTable('webhookEvents').set({ createdAt: new Date(Date.now() - days * 86_400_000) } as never).where('id', 'in', sent).where('createdAt', '>', new Date(Date.now() - 86_400_000)).execute();
      }
      await ctx.db.deleteFrom('mailQueue').execute();
      const result = await ctx.app.runRetention();
      expect(result.ran && result.deleted.webhook_events).to.equal(1);
      const left = await ctx.db.selectFrom('webhookDeliveries').select('id').where('endpointId', '=', endpoint.id).execute();
      expect(left).to.have.length(1);
      await call(ctx, 'DELETE', `1/webhook_endpoints/${endpoint.id}`, as.manager);
    });
  });

  describe('a crash loses no delivery', () => {
    it('a delivery queued by an instance closed without draining is sent by the next instance on the same database', async () => {
      const database = await createTestDatabase();
      try {
        const first = await createTestApp({ testDatabase: database, env: { SEED: 'demo' }, mailQueueWorker: false });
        await first.db.updateTable('services').set({ lastStartsOn: null }).where('id', '!=', 25).execute();
        const manager = bearer(await accessToken(first.app, { sub: '1' }));
        const added = await call(first, 'POST', '1/webhook_endpoints', manager, { url: receiver.url, events: ['corporate_subscription.created'] });
        const { secret } = added.json() as { secret: string };
        const created = await call(first, 'POST', '1/corporate_subscriptions', manager, application(first));
        expect(created.statusCode, created.body).to.equal(201);
        await first.close();
        expect(receiver.received).to.have.length(0);

        const second = await createTestApp({ testDatabase: database, mailQueueWorker: false });
        try {
          await second.app.mailQueue.drain();
          expect(receiver.received).to.have.length(1);
          const payload = new Webhook(secret).verify(receiver.received[0]!.body, signedHeaders(receiver.received[0]!)) as Json;
          expect(payload).to.deep.include({ type: 'corporate_subscription.created' });
          expect(payload.data.request_code).to.equal(created.json().corporate_subscription.request_code);
        } finally {
          await second.close();
        }
      } finally {
        await database.destroy();
      }
    });
  });
});
