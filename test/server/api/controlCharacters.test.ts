/**
 * Issue 15 findings 4 and 5, as reported: ids past PostgreSQL's integer answer 404 or 422, and NUL (or another control
 * character) in a path, a query value, HTTP Basic credentials or a form field answers 400, the identity provider's
 * included; never 500. The hostile-inputs gate (hostileInputs.test.ts) generates many more.
 */
import { expect } from 'chai';
import { PORTAL_CLIENT_ID } from '../../../src/common/identity.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

describe('ids past the integer range and control characters outside JSON bodies (issue 15 findings 4, 5)', function () {
  this.timeout(60_000);
  const ctx = useTestApp({ env: { SEED: 'demo' }, mailQueueWorker: false });
  let manager: Record<string, string>;
  before(async () => {
    manager = bearer(await accessToken(ctx.app, { sub: '1' }));
  });

  const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };

  it('answers 404 or 422 to ids past the integer range', async () => {
    const big = '99999999999';
    const calls: Array<[method: 'GET' | 'PATCH' | 'DELETE' | 'POST', url: string]> = [
      ['GET', `/api/v2/organizations/${big}/contacts`],
      ['GET', `/api/v2/organizations/1/contacts/${big}`],
      ['PATCH', `/api/v2/organizations/1/contacts/${big}`],
      ['GET', `/api/v2/organizations/1/billing_contacts/${big}`],
      ['GET', `/api/v2/organizations/${big}/corporate_subscriptions`],
      ['PATCH', `/api/v2/organizations/${big}/corporate_subscriptions/A000000101`],
      ['GET', `/api/v2/services/${big}`],
      ['GET', `/api/v2/service_groups/${big}`],
      ['PATCH', `/api/v2/organizations/1/users/${big}`],
      ['PATCH', `/api/v2/organizations/1/affiliations/admins/${big}`],
      ['DELETE', `/api/v2/organizations/1/affiliations/admins/${big}`],
      ['POST', `/api/v2/organizations/1/affiliations/admins/${big}/invitation`],
      ['GET', '/api/v2/organizations/1/corporate_subscriptions?service_group_id=2147483648'],
    ];
    for (const [method, url] of calls) {
      const response = await ctx.app.inject({ method, url, headers: manager, ...(method === 'GET' ? {} : { payload: {} }) });
      expect(response.statusCode, `${method} ${url} → ${response.body.slice(0, 200)}`).to.be.oneOf([404, 422]);
    }
  });

  it('answers 400 to NUL in a path, a query value, credentials (Basic, token headers) and a form field, without a session too', async () => {
    const calls = [
      { method: 'GET', url: '/api/v1/notices?target=%00' },
      { method: 'POST', url: '/api/v2/single-sign-on/verify', headers: { ...basic('a\0b:secret'), 'content-type': 'application/json' }, payload: '{}' },
      { method: 'POST', url: '/oidc/interaction/abc/login', headers: form, payload: 'email=a%00b@example.com&password=Passw0rd' },
      { method: 'GET', url: '/api/v2/enabled_feature_flags/%00', headers: manager },
      { method: 'GET', url: '/api/v2/admin/single-sign-on?gpc=%00', headers: manager },
      { method: 'GET', url: '/api/v2/services?lang=ja%0A', headers: manager },
      { method: 'GET', url: '/oidc/auth?client_id=corporate-admin-portal%00&response_type=code' },
      { method: 'GET', url: '/somewhere%01' },
      { method: 'GET', url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': 'a\0b' } },
      { method: 'GET', url: '/api/v2/services', headers: { 'x-v2-admin-auth-token': 'Bearer a\x01b' } },
    ] as const;
    for (const call of calls) {
      const response = await ctx.app.inject({ ...call, headers: { ...('headers' in call ? call.headers : {}) } });
      expect(response.statusCode, `${call.method} ${call.url} → ${response.body.slice(0, 200)}`).to.equal(400);
      expect(response.json()).to.deep.equal({ error: 'bad_request' });
    }
  });

  it('reads only Authorization as Basic credentials: a token header saying Basic is a wrong token (401), whatever it decodes to', async () => {
    // base64 of NUL and other control characters: only an Authorization header's Basic credentials are decoded
    const header = `Basic ${Buffer.from('\u0000\u0001token').toString('base64')}`;
    const response = await ctx.app.inject({ url: '/api/v2/admin/validate_confirm_email_token', headers: { 'x-v2-admin-activate-token': header } });
    expect(response.statusCode, response.body).to.equal(401);
  });

  it('answers 400 to a control character in a multipart field of the learners upload', async () => {
    const payload = ['--x', 'Content-Disposition: form-data; name="note"', '', 'a\0b', '--x', 'Content-Disposition: form-data; name="csv"; filename="u.csv"', 'Content-Type: text/csv', '', 'id', '--x--', ''].join('\r\n');
    const response = await ctx.app.inject({ method: 'POST', url: '/api/v2/organizations/1/users/preview', headers: { ...manager, 'content-type': 'multipart/form-data; boundary=x' }, payload });
    expect(response.statusCode, response.body).to.equal(400);
    expect(response.json()).to.deep.equal({ error: 'bad_request' });
  });

  it("leaves the provider's own forms a 400 of its own (a code or token with NUL is never found)", async () => {
    for (const payload of [`grant_type=refresh_token&refresh_token=a%00b&client_id=${PORTAL_CLIENT_ID}`, `grant_type=authorization_code&code=a%00b&client_id=${PORTAL_CLIENT_ID}&redirect_uri=x&code_verifier=${'v'.repeat(43)}`]) {
      const response = await ctx.app.inject({ method: 'POST', url: '/oidc/token', headers: form, payload });
      expect(response.statusCode, response.body).to.equal(400);
      expect(response.json().error).to.equal('invalid_grant');
    }
    const revocation = await ctx.app.inject({ method: 'POST', url: '/oidc/token/revocation', headers: form, payload: `token=a%00b&client_id=${PORTAL_CLIENT_ID}` });
    expect(revocation.statusCode, revocation.body).to.be.below(500);
  });
});
