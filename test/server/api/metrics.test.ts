/**
 * GET /metrics (issue 11): the Prometheus text format; open in demo mode, only with METRICS_TOKEN otherwise, never
 * to an anonymous caller in production. The counters move with what they count; routes are labelled by pattern.
 */
import { expect } from 'chai';
import { sql } from 'kysely';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { authorize, Browser, signIn } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { bearer } from '../support/oidc.js';
import { createTestApp, useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef-0123456789';

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics in demo mode', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL, CAPTCHA: 'on', MAIL_RATE_LIMIT_PER_CLIENT: '2', SIGNIN_FAILURE_DELAY_MS: '0' }, mailQueueWorker: false });
  const metrics = async () => {
    const response = await ctx.app.inject({ url: '/metrics' });
    expect(response.statusCode).to.equal(200);
    expect(response.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('is open, in the Prometheus text format, with the process metrics', async () => {
    const text = await metrics();
    expect(text).to.match(/^# HELP portal_/m);
    expect(text).to.contain('# TYPE portal_http_request_duration_seconds histogram');
    expect(text).to.match(/^portal_process_resident_memory_bytes \d+/m);
  });

  it('labels request durations by route pattern and status, never by the raw URL', async () => {
    await ctx.app.inject({ url: '/api/v2/organizations/12345/affiliations' });
    const text = await metrics();
    expect(sample(text, 'portal_http_request_duration_seconds_count{method="GET",route="/api/v2/organizations/:orgId/affiliations",status_code="401"}')).to.equal(1);
    expect(text).not.to.contain('12345');
    await ctx.app.inject({ url: '/no/such/path/abcdef', headers: { accept: 'application/json' } });
    expect(await metrics()).not.to.contain('abcdef');
  });

  it('counts sign-ins succeeded, failed and locked', async function () {
    this.timeout(30_000);
    await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD, browser: new Browser(ctx.app, undefined, '10.9.0.1') });
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await authorize(ctx.app, { email: 'manager@example.com', password: `Wrong-${attempt}`, browser: new Browser(ctx.app, undefined, '10.9.0.2') });
    }
    const text = await metrics();
    expect(sample(text, 'portal_signins_total{outcome="succeeded"}')).to.equal(1);
    expect(sample(text, 'portal_signins_total{outcome="failed"}')).to.be.at.least(4);
    expect(sample(text, 'portal_signins_total{outcome="locked"}')).to.be.at.least(1);
  });

  it('counts captcha refusals and rate-limit refusals', async () => {
    const request = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v2/admin/reset_password_token_call',
        payload: { email: 'x@example.com', capy_challengekey: 'abc', capy_answer: 'bm90IGEgcGF5bG9hZA==' },
        remoteAddress: '10.9.1.1',
      });
    expect((await request()).statusCode).to.equal(401);
    expect((await request()).statusCode).to.equal(401);
    expect((await request()).statusCode).to.equal(429);
    const text = await metrics();
    expect(sample(text, 'portal_captcha_refusals_total{reason="invalid"}')).to.equal(2);
    expect(sample(text, 'portal_rate_limit_refusals_total{limit="mail_client"}')).to.equal(1);
  });

  it('shows the mail queue depth, and counts mails sent', async () => {
    // the sign-ins locked above queued their admins' mails (issue 44): one more
    const queued = sample(await metrics(), 'portal_mail_queue_depth') ?? 0;
    await ctx.app.mailer.send({ to: 'someone@example.com', subject: 'Hello', text: 'Hello', html: '<p>Hello</p>' });
    expect(sample(await metrics(), 'portal_mail_queue_depth')).to.equal(queued + 1);
    await ctx.app.mailQueue.drain();
    const text = await metrics();
    expect(sample(text, 'portal_mail_queue_depth')).to.equal(0);
    expect(sample(text, 'portal_mail_sent_total')).to.be.at.least(1);
  });

  it('shows the PostgreSQL pool’s connections (PostgreSQL only)', async function () {
    if (!ctx.testDatabase.url) this.skip();
    const text = await metrics();
    expect(sample(text, 'portal_db_pool_connections{state="total"}')).to.be.at.least(1);
    // a background job (mail queue, retention) may be waiting for a connection at this moment: the gauge exists
    expect(sample(text, 'portal_db_pool_connections{state="waiting"}')).to.be.a('number');
  });

  it('shows whether token revocations are heard from the other instances, and counts the interruptions', async () => {
    let text = await metrics();
    for (const deadline = Date.now() + 5000; sample(text, 'portal_db_notifications_listening') !== 1 && Date.now() < deadline; text = await metrics()) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(sample(text, 'portal_db_notifications_listening')).to.equal(1);
    const before = sample(text, 'portal_db_notification_interruptions_total') ?? 0;
    // what the listener calls when its connection is lost or its heartbeat does not come back (db/index.ts)
    ctx.app.database.onNotificationsInterrupted!();
    expect(sample(await metrics(), 'portal_db_notification_interruptions_total')).to.equal(before + 1);
  });

  it('counts failed database queries', async () => {
    const before = sample(await metrics(), 'portal_db_query_errors_total') ?? 0;
    await sql`select * from no_such_table`.execute(ctx.db).catch(() => undefined);
    // at least: a background job's failure at the same moment counts too
    expect(sample(await metrics(), 'portal_db_query_errors_total')).to.be.at.least(before + 1);
  });
});

describe('GET /metrics outside demo mode', () => {
  it('is not there without METRICS_TOKEN: 404 to everyone', async function () {
    this.timeout(30_000);
    const app = await createTestApp({ env: { DEMO: 'off', NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com', TRUST_PROXY: 'false' } });
    try {
      expect(app.config.demo).to.equal(false);
      expect((await app.app.inject({ url: '/metrics' })).statusCode).to.equal(404);
      expect((await app.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode).to.equal(404);
    } finally {
      await app.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    const ctx = useTestApp({ env: { DEMO: 'off', NODE_ENV: 'production', PUBLIC_URL: 'https://portal.example.com', METRICS_TOKEN } });

    it('refuses an anonymous caller, a wrong token and an admin access token (401)', async () => {
      const anonymous = await ctx.app.inject({ url: '/metrics' });
      expect(anonymous.statusCode).to.equal(401);
      expect(anonymous.headers['www-authenticate']).to.match(/^Bearer/);
      expect(anonymous.body).not.to.contain('portal_');
      expect((await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).statusCode).to.equal(401);
      expect((await ctx.app.inject({ url: '/metrics', headers: { authorization: METRICS_TOKEN } })).statusCode).to.equal(401);
      expect((await ctx.app.inject({ url: '/metrics', headers: bearer(await accessToken(ctx.app, { sub: '1' })) })).statusCode).to.equal(401);
    });

    it('answers the bearer of the token', async () => {
      const response = await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(response.statusCode).to.equal(200);
      expect(response.body).to.contain('portal_http_request_duration_seconds');
      expect(response.headers['cache-control']).to.equal('no-store');
    });
  });
});
