/**
 * The organisation's own API clients (issue 46 items 1–3): a manager makes a client, the client gets a token by the
 * client-credentials grant at /oidc/token (oidc-provider's own), and calls the same /api/v2 routes within its scopes,
 * its organisation only, limited by its token bucket; revoking it ends its token at once; a rotated secret works
 * for its overlap only. On the demo data: G0000001 (id 1) managed by manager@ (1), member@ (2) its member.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { PORTAL_CLIENT_ID } from '../../../src/common/identity.js';
import { takeToken } from '../../../src/server/domain/rateLimits.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { createTestApp, type TestApp } from '../support/testApp.js';

type Json = Record<string, any>;
type Headers = Record<string, string>;

const PUBLIC_URL = 'http://localhost:3000';
/** A small bucket, so that the limit is reached in a test: 20 at once, then 1 a second. */
const BURST = 20;

describe('API clients: client credentials, scopes, limits (issue 46)', function () {
  this.timeout(30_000);
  const ctx = {} as TestApp;
  const as = {} as Record<'manager' | 'member', Headers>;

  before(async function () {
    this.timeout(60_000);
    Object.assign(ctx, await createTestApp({ env: { SEED: 'demo', PUBLIC_URL, API_CLIENT_RATE_LIMIT: '1', API_CLIENT_RATE_BURST: String(BURST) } }));
    as.manager = bearer(await accessToken(ctx.app, { sub: '1' }));
    as.member = bearer(await accessToken(ctx.app, { sub: '2' }));
  });

  after(async () => {
    await ctx.close?.();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, headers: Headers, payload?: Json) =>
    ctx.app.inject({ method, url: `/api/v2/organizations/${path}`, headers, ...(payload ? { payload } : {}) });

  async function makeClient(name: string, scopes: string[]): Promise<{ client: Json; secret: string }> {
    const response = await call('POST', '1/api_clients', as.manager, { name, scopes });
    expect(response.statusCode, response.body).to.equal(201);
    const { api_client: client, client_secret: secret } = response.json();
    return { client, secret };
  }

  const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const grant = (clientId: string, secret: string, scope?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }).toString(),
    });
  async function tokenOf(clientId: string, secret: string): Promise<Headers> {
    const response = await grant(clientId, secret);
    expect(response.statusCode, response.body).to.equal(200);
    return { authorization: `Bearer ${response.json().access_token}` };
  }

  it('a manager makes a client: 201 with its secret this once, stored hashed, never answered again; a member is refused', async () => {
    const { client, secret } = await makeClient('HR sync', ['learners:read', 'learners:write']);
    expect(client).to.include({ name: 'HR sync', organization_id: 1, expires_at: null, expires_on: null, last_used_at: null });
    expect(client.client_id).to.match(/^apic_/);
    expect(client.scopes).to.deep.equal(['learners:read', 'learners:write']);
    expect(client.created_by).to.deep.equal({ admin_id: 1, email: 'manager@example.com' });
    expect(secret).to.have.length.greaterThan(40);
    const stored = await ctx.db.selectFrom('apiClients').select(['secretHash']).where('id', '=', client.id).executeTakeFirstOrThrow();
    expect(stored.secretHash).to.not.equal(secret);
    const list = await call('GET', '1/api_clients', as.manager);
    expect(list.statusCode).to.equal(200);
    expect(list.body).to.not.include(secret);
    expect(list.json().api_clients.map((row: Json) => row.name)).to.include('HR sync');
    expect((await call('GET', '1/api_clients', as.member)).statusCode).to.equal(403);
    expect((await call('POST', '1/api_clients', as.member, { name: 'x', scopes: ['audit:read'] })).statusCode).to.equal(403);
    const unknownScope = await call('POST', '1/api_clients', as.manager, { name: 'x', scopes: ['admin:everything'] });
    expect(unknownScope.statusCode).to.equal(422);
    expect(unknownScope.json().errors).to.deep.include({ field: 'scopes', code: 'invalid', meta: {} });
    expect((await call('POST', '1/api_clients', as.manager, { name: 'x', scopes: ['audit:read'], expires_on: '2020-01-31' })).statusCode).to.equal(422);
    const expiring = (await call('POST', '1/api_clients', as.manager, { name: 'Until the end of 2099', scopes: ['audit:read'], expires_on: '2099-12-31' })).json().api_client;
    expect(expiring).to.include({ expires_on: '2099-12-31', expires_at: '2099-12-31T15:00:00.000Z' });
    expect(list.json().scopes).to.deep.equal(['subscriptions:read', 'subscriptions:write', 'learners:read', 'learners:write', 'contacts:read', 'audit:read']);
    const audit = (await call('GET', '1/audit_events?action=apiClient.created', as.manager)).json();
    expect(audit.audit_events.map((event: Json) => event.target)).to.deep.include({ type: 'apiClient', id: client.id, label: 'HR sync' });
  });

  it('the grant gives a 15-minute RFC 9068 token for the API with its scopes and organisation; a wrong secret is refused', async () => {
    const { client, secret } = await makeClient('Token check', ['learners:read', 'learners:write']);
    const response = await grant(client.client_id, secret);
    expect(response.statusCode, response.body).to.equal(200);
    const body = response.json();
    expect(body).to.include({ token_type: 'Bearer', expires_in: 900, scope: 'learners:read learners:write' });
    expect(body).to.not.have.property('refresh_token');
    expect(decodeProtectedHeader(body.access_token).typ).to.equal('at+jwt');
    const claims = decodeJwt(body.access_token);
    expect(claims).to.include({ sub: client.client_id, client_id: client.client_id, aud: `${PUBLIC_URL}/api/v2`, iss: `${PUBLIC_URL}/oidc`, glopla_id: 'G0000001', organization_id: 1, scope: 'learners:read learners:write' });
    expect(claims.exp! - claims.iat!).to.equal(900);
    // a narrower scope asked for; one the client does not hold refused
    expect((await grant(client.client_id, secret, 'learners:read')).json().scope).to.equal('learners:read');
    expect((await grant(client.client_id, secret, 'subscriptions:write')).json().error).to.equal('invalid_scope');
    expect((await grant(client.client_id, `${secret}x`)).statusCode).to.equal(401);
    expect((await grant('apic_000000000000000000000000', secret)).statusCode).to.equal(401);
    // the portal's own public client gets no client-credentials token
    const portal = await ctx.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'client_credentials', client_id: PORTAL_CLIENT_ID }).toString(),
    });
    expect(portal.statusCode).to.equal(400);
    expect(portal.json().error).to.be.oneOf(['invalid_request', 'unauthorized_client']);
    expect(portal.json()).to.not.have.property('access_token');
  });

  it('with its token: learners read; a subscriptions write and an admin route 403 insufficient_scope; another organisation 404', async () => {
    const { client, secret } = await makeClient('Scopes', ['learners:read', 'learners:write']);
    const token = await tokenOf(client.client_id, secret);
    const read = await call('GET', '1/users', token);
    expect(read.statusCode, read.body).to.equal(200);
    expect(read.headers['ratelimit-limit']).to.equal(String(BURST));
    expect(Number(read.headers['ratelimit-remaining'])).to.be.within(0, BURST - 1);
    expect(read.headers).to.have.property('ratelimit-reset');

    const write = await call('DELETE', '1/corporate_subscriptions/A000000102', token);
    expect(write.statusCode).to.equal(403);
    expect(write.json()).to.deep.equal({ error: 'insufficient_scope' });
    expect(write.headers['www-authenticate']).to.equal('Bearer error="insufficient_scope", scope="subscriptions:write"');
    const adminRoute = await call('GET', '1/affiliations', token);
    expect(adminRoute.statusCode).to.equal(403);
    expect(adminRoute.json()).to.deep.equal({ error: 'insufficient_scope' });
    expect((await call('GET', '1/api_clients', token)).statusCode).to.equal(403);

    const other = await call('GET', '2/users', token);
    expect(other.statusCode).to.equal(404);
    expect(other.json()).to.deep.equal({ error: 'not_found' });
    // an admin's token in the Authorization header is no client token
    expect((await call('GET', '1/users', { authorization: as.manager['x-v2-admin-auth-token']! })).statusCode).to.equal(401);
  });

  it("a learner's nameId written by the client is audited with the client as the actor", async () => {
    const { client, secret } = await makeClient('HR nameIds', ['learners:read', 'learners:write']);
    const token = await tokenOf(client.client_id, secret);
    const learner = (await call('GET', '1/users/1', token)).json();
    const { last_name, first_name, kana_last_name, kana_first_name, email } = learner.user ?? learner;
    const change = await call('PATCH', '1/users/1', token, { last_name, first_name, kana_last_name, kana_first_name, email, name_id: 'HR000123' });
    expect(change.statusCode, change.body).to.equal(200);
    const audit = (await call('GET', '1/audit_events?action=user.nameIdChanged', as.manager)).json();
    expect(audit.audit_events[0].actor).to.deep.equal({ admin_id: null, email: '', api_client_name: 'HR nameIds' });
    const csv = await call('GET', '1/audit_events/csv?action=user.nameIdChanged', as.manager);
    expect(csv.body).to.include('API client ""HR nameIds""');
    // a manager's change on the version before the client's is told who made the present one
    const stale = await ctx.app.inject({
      method: 'PATCH',
      url: '/api/v2/organizations/1/users/1',
      headers: { ...as.manager, 'if-match': '"stale"' },
      payload: { last_name, first_name, kana_last_name, kana_first_name, email, name_id: 'HR000124' },
    });
    expect(stale.statusCode).to.equal(412);
    expect(stale.body).to.include('HR nameIds');
    const listed = (await call('GET', '1/api_clients', as.manager)).json().api_clients.find((row: Json) => row.id === client.id);
    expect(listed.last_used_at).to.be.a('string');
    expect(listed.last_used_address).to.equal('127.0.0.1');
  });

  it('the bucket answers 429 with Retry-After once the burst is spent, shared through the database', async () => {
    const { client, secret } = await makeClient('Busy', ['learners:read']);
    const token = await tokenOf(client.client_id, secret);
    // spend the bucket at once in the database, as other instances would have
    await ctx.db.insertInto('rateLimitBuckets').values({ key: `api_client:${client.id}`, tokens: 0.2, refilledAt: new Date(), allowed: true }).execute();
    const refused = await call('GET', '1/users', token);
    expect(refused.statusCode).to.equal(429);
    expect(refused.json()).to.deep.equal({ error: 'too_many_requests' });
    expect(refused.headers['retry-after']).to.equal('1');
    expect(refused.headers['ratelimit-remaining']).to.equal('0');
    expect(refused.headers['ratelimit-reset']).to.equal(String(BURST));
  });

  it('the burst is the bucket: the call after BURST calls at once is refused', async () => {
    const { client, secret } = await makeClient('Burst', ['contacts:read']);
    const token = await tokenOf(client.client_id, secret);
    // the bucket refills one a second meanwhile: as many more pass as seconds went by (a busy machine is slow)
    const started = Date.now();
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < BURST + 60) statuses.push((await call('GET', '1/contacts', token)).statusCode);
    const refilled = Math.ceil((Date.now() - started) / 1000);
    expect(statuses.at(-1)).to.equal(429);
    expect(statuses.slice(0, -1).every((status) => status === 200)).to.equal(true);
    expect(statuses.length - 1).to.be.within(BURST, BURST + refilled);
  });

  it('the bucket refills at the rate, up to the burst, by the clock of the call; idle buckets go with the retention clean-up', async () => {
    const bucket = { ratePerSecond: 2, burst: 3 };
    const start = new Date('2026-01-01T00:00:00Z');
    const at = (ms: number) => new Date(start.getTime() + ms);
    const taken = [];
    for (let index = 0; index < 4; index += 1) taken.push(await takeToken(ctx.db, 'test:refill', bucket, start));
    expect(taken.map((result) => result.allowed)).to.deep.equal([true, true, true, false]);
    expect(taken[3]).to.include({ remaining: 0, retryAfterSeconds: 1, resetSeconds: 2 });
    expect((await takeToken(ctx.db, 'test:refill', bucket, at(499))).allowed).to.equal(false);
    // 0.998 tokens at 499 ms, and 1.202 more by 1100 ms
    expect(await takeToken(ctx.db, 'test:refill', bucket, at(1100))).to.include({ allowed: true, remaining: 1 });
    // an instance whose clock is behind adds nothing
    expect(await takeToken(ctx.db, 'test:refill', bucket, at(0))).to.include({ allowed: true, remaining: 0 });
    expect((await takeToken(ctx.db, 'test:refill', bucket, at(0))).allowed).to.equal(false);
    expect(await takeToken(ctx.db, 'test:refill', bucket, at(60_000))).to.include({ allowed: true, remaining: 2 });
    await ctx.app.runRetention();
    expect(await ctx.db.selectFrom('rateLimitBuckets').select('key').where('key', '=', 'test:refill').execute()).to.deep.equal([]);
  });

  it('a client that registers a public key authenticates with private_key_jwt (RFC 7523), its secret then refused; a private key is refused', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    const withPrivate = await call('POST', '1/api_clients', as.manager, { name: 'Private', scopes: ['audit:read'], public_jwks: JSON.stringify(await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)) });
    expect(withPrivate.statusCode).to.equal(422);
    expect(withPrivate.json().errors).to.deep.include({ field: 'public_jwks', code: 'invalid', meta: {} });
    const made = await call('POST', '1/api_clients', as.manager, { name: 'Key holder', scopes: ['audit:read'], public_jwks: JSON.stringify({ keys: [jwk] }) });
    expect(made.statusCode, made.body).to.equal(201);
    const { api_client: client, client_secret: secret } = made.json();
    expect(client.auth_method).to.equal('private_key_jwt');
    const assertion = (audience: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer(client.client_id).setSubject(client.client_id).setAudience(audience).setJti(randomUUID()).setIssuedAt().setExpirationTime('1m').sign(privateKey);
    const grantWith = async (jwt: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: jwt }).toString(),
      });
    const granted = await grantWith(await assertion(`${PUBLIC_URL}/oidc`));
    expect(granted.statusCode, granted.body).to.equal(200);
    expect((await call('GET', '1/audit_events', { authorization: `Bearer ${granted.json().access_token}` })).statusCode).to.equal(200);
    const { privateKey: stranger } = await generateKeyPair('ES256');
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'ES256' }).setIssuer(client.client_id).setSubject(client.client_id).setAudience(`${PUBLIC_URL}/oidc/token`).setJti(randomUUID()).setIssuedAt().setExpirationTime('1m').sign(stranger);
    expect((await grantWith(forged)).statusCode).to.equal(401);
    expect((await grant(client.client_id, secret)).statusCode).to.equal(401);
  });

  it('revoking the client ends its token at once, and the grant', async () => {
    const { client, secret } = await makeClient('Revoked', ['learners:read']);
    const token = await tokenOf(client.client_id, secret);
    expect((await call('GET', '1/users', token)).statusCode).to.equal(200);
    expect((await call('DELETE', `1/api_clients/${client.id}`, as.member)).statusCode).to.equal(403);
    expect((await call('DELETE', `1/api_clients/${client.id}`, as.manager)).statusCode).to.equal(204);
    const after = await call('GET', '1/users', token);
    expect(after.statusCode).to.equal(401);
    expect(after.headers['www-authenticate']).to.equal('Bearer error="invalid_token"');
    expect((await grant(client.client_id, secret)).statusCode).to.equal(401);
    expect((await call('DELETE', `1/api_clients/${client.id}`, as.manager)).statusCode).to.equal(404);
  });

  it('rotating keeps the old secret working during the overlap and refuses it after; the new one answered once', async () => {
    const { client, secret: old } = await makeClient('Rotated', ['audit:read']);
    const rotated = await call('POST', `1/api_clients/${client.id}/rotate_secret`, as.manager);
    expect(rotated.statusCode, rotated.body).to.equal(200);
    const fresh = rotated.json().client_secret as string;
    expect(fresh).to.not.equal(old);
    const overlapEnd = Date.parse(rotated.json().api_client.previous_secret_expires_at);
    expect(overlapEnd - Date.now()).to.be.within(24 * 3600_000 - 60_000, 24 * 3600_000);
    expect((await grant(client.client_id, old)).statusCode).to.equal(200);
    expect((await grant(client.client_id, fresh)).statusCode).to.equal(200);
    expect((await call('GET', '1/api_clients', as.manager)).body).to.not.include(fresh);
    // the overlap over
    await ctx.db.updateTable('apiClients').set({ previousSecretExpiresAt: new Date(Date.now() - 1000) }).where('id', '=', client.id).execute();
    expect((await grant(client.client_id, old)).statusCode).to.equal(401);
    expect((await grant(client.client_id, fresh)).statusCode).to.equal(200);
  });

  it('a change with a stale If-Match is 412; fewer scopes count for a live token at once; an expired client is refused', async () => {
    const { client, secret } = await makeClient('Changed', ['learners:read', 'contacts:read']);
    const token = await tokenOf(client.client_id, secret);
    expect((await call('GET', '1/contacts', token)).statusCode).to.equal(200);
    const stale = await ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/1/api_clients/${client.id}`, headers: { ...as.manager, 'if-match': '"stale"' }, payload: { scopes: ['learners:read'] } });
    expect(stale.statusCode).to.equal(412);
    const changed = await ctx.app.inject({ method: 'PATCH', url: `/api/v2/organizations/1/api_clients/${client.id}`, headers: { ...as.manager, 'if-match': client.etag }, payload: { scopes: ['learners:read'] } });
    expect(changed.statusCode, changed.body).to.equal(200);
    expect(changed.headers.etag).to.be.a('string').and.not.equal(client.etag);
    expect((await call('GET', '1/contacts', token)).json()).to.deep.equal({ error: 'insufficient_scope' });
    await ctx.db.updateTable('apiClients').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', client.id).execute();
    expect((await call('GET', '1/users', token)).statusCode).to.equal(401);
    expect((await grant(client.client_id, secret)).statusCode).to.equal(401);
  });
});
