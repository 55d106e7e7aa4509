/**
 * The single-sign-on gateway's server side (issue 9 §4): GET /api/v2/admin/single-sign-on issues tokens signed with
 * the partner's secret, valid for at most 60 seconds; POST /api/v2/single-sign-on/verify accepts them once.
 * The signature is recomputed here from README's canonical string, not with the portal's own signing code.
 */
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import sinon from 'sinon';
import { API_ERROR } from '../../../src/common/errorCodes.js';
import { demoPartnerProducts } from '../../../src/server/db/seed/demoData.js';
import { resolveAuthUrl } from '../../../src/server/domain/singleSignOn.js';
import { createTestApp, createTestDatabase, useTestApp } from '../support/testApp.js';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';

const DEMO = demoPartnerProducts[0]!;
const PROJECT_PARTNER = { code: 'project-partner', productId: 4, name: 'Project partner', authUrl: 'https://partner.example.com/sso?from=portal', secret: 'project-partner-secret-0123456789abcdef' };

interface Tokens {
  auth_url: string;
  guq: string;
  gss: string;
  gui: string;
  gsg: string;
  ghs: string;
  gul: string;
  product_id: number;
}

/** README 'Single-sign-on gateway', step 2: the canonical string and its HMAC, as a partner computes them. */
function partnerSignature(secret: string, code: string, fields: { guq: string; gui: string; goi: string; gul: string; ghs: string; gss: string }): string {
  const canonical = `gsso1\n${code}\n${fields.guq}\n${fields.gui}\n${fields.goi}\n${fields.gul}\n${fields.ghs}\n${fields.gss}`;
  return createHmac('sha256', secret).update(canonical, 'utf8').digest('base64url');
}

const basic = (code: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${code}:${secret}`).toString('base64')}` });

describe('Single-sign-on tokens (GET /api/v2/admin/single-sign-on, POST /api/v2/single-sign-on/verify)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
  let clock: sinon.SinonFakeTimers | undefined;

  before(async () => {
    await ctx.db.insertInto('partnerProducts').values(PROJECT_PARTNER).execute();
  });

  afterEach(() => {
    clock?.restore();
    clock = undefined;
  });

  /** Only Date is faked: Fastify, PGlite and the database driver keep their real timers. */
  function freezeAt(ms: number): sinon.SinonFakeTimers {
    clock = sinon.useFakeTimers({ now: ms, toFake: ['Date'] });
    return clock;
  }

  async function issue(query: string, options: { sub?: string; gloplaId?: string | null } = {}) {
    return ctx.app.inject({ url: `/api/v2/admin/single-sign-on?${query}`, headers: bearer(await accessToken(ctx.app, { sub: options.sub ?? '1', gloplaId: options.gloplaId })) });
  }

  async function tokens(query: string, options?: { sub?: string; gloplaId?: string | null }): Promise<Tokens> {
    const response = await issue(query, options);
    expect(response.statusCode, response.body).to.equal(200);
    return response.json();
  }

  function verify(body: Record<string, string>, credentials: Record<string, string> = basic(DEMO.code, DEMO.secret)) {
    return ctx.app.inject({ method: 'POST', url: '/api/v2/single-sign-on/verify', headers: credentials, payload: body });
  }

  const presented = (answer: Tokens, goi = 'G0000001') => ({ guq: answer.guq, gss: answer.gss, gui: answer.gui, goi, gul: answer.gul, ghs: answer.ghs, gsg: answer.gsg });

  it("answers authUrl (absolute), the tokens and productId; gss comes back unchanged and gsg is the HMAC-SHA256 of README's canonical string", async () => {
    const answer = await tokens('gpc=demo-partner&gss=xyz%20abc%2F%3D&gul=en');
    expect(Object.keys(answer)).to.have.members(['auth_url', 'guq', 'gss', 'gui', 'gsg', 'ghs', 'gul', 'product_id']);
    expect(answer).to.include({ auth_url: 'http://localhost:3000/dev/partner', gss: 'xyz abc/=', gui: '1', gul: 'en', product_id: DEMO.productId });
    expect(answer.guq).to.match(/^[A-Za-z0-9_-]{32}$/);
    expect(answer.gsg).to.equal(partnerSignature(DEMO.secret, DEMO.code, { ...answer, goi: 'G0000001' }));
  });

  it('issues a new one-time id every time', async () => {
    const first = await tokens('gpc=demo-partner');
    const second = await tokens('gpc=demo-partner');
    expect(first.guq).to.not.equal(second.guq);
  });

  it('defaults the language to ja and the state to empty, and refuses a language other than ja or en', async () => {
    expect(await tokens('gpc=demo-partner')).to.include({ gul: 'ja', gss: '' });
    expect((await issue('gpc=demo-partner&gul=fr')).statusCode).to.equal(422);
  });

  it('refuses a state it could not sign as is (a line break, surrounding white space, over 512 characters)', async () => {
    for (const gss of ['%20a', 'a%20', 'x'.repeat(513)]) expect((await issue(`gpc=demo-partner&gss=${gss}`)).statusCode, gss).to.equal(422);
    // a control character in any query value: 400 before the route (issue 15 finding 5)
    expect((await issue('gpc=demo-partner&gss=a%0Ab')).statusCode).to.equal(400);
    expect((await issue(`gpc=demo-partner&gss=${'x'.repeat(512)}`)).statusCode).to.equal(200);
  });

  it('answers 403 forbidden for an unknown product code, and 422 without one', async () => {
    const unknown = await issue('gpc=no-such-partner');
    expect(unknown.statusCode).to.equal(403);
    expect(unknown.json()).to.deep.equal({ error: API_ERROR.forbidden });
    expect((await issue('gss=x')).statusCode).to.equal(422);
  });

  it('check (asked before glo=true signs out): 204 for a known product and a well-formed query, refused like the tokens otherwise, issuing nothing (issue 15 finding 6)', async () => {
    const check = async (query: string, options: { gloplaId?: string | null } = {}) =>
      ctx.app.inject({ url: `/api/v2/admin/single-sign-on/check?${query}`, headers: bearer(await accessToken(ctx.app, { sub: '1', gloplaId: options.gloplaId })) });
    const before = await ctx.db.selectFrom('singleSignOnTokens').select(ctx.db.fn.countAll().as('count')).executeTakeFirstOrThrow();
    const known = await check('gpc=demo-partner&gss=xyz&gul=en');
    expect(known.statusCode, known.body).to.equal(204);
    expect((await check('gpc=no-such-partner')).json()).to.deep.equal({ error: API_ERROR.forbidden });
    expect((await check('gpc=no-such-partner')).statusCode).to.equal(403);
    expect((await check('gpc=demo-partner', { gloplaId: null })).statusCode).to.equal(403);
    for (const malformed of ['gss=x', 'gpc=', 'gpc=demo-partner&gul=fr', 'gpc=demo-partner&gss=%20x', `gpc=${'a'.repeat(101)}`]) {
      expect((await check(malformed)).statusCode, malformed).to.equal(422);
    }
    expect((await ctx.app.inject({ url: '/api/v2/admin/single-sign-on/check?gpc=demo-partner' })).statusCode).to.equal(401);
    const after = await ctx.db.selectFrom('singleSignOnTokens').select(ctx.db.fn.countAll().as('count')).executeTakeFirstOrThrow();
    expect(Number(after.count)).to.equal(Number(before.count));
  });

  it('answers 403 forbidden for a session without an organisation of the admin', async () => {
    expect((await issue('gpc=demo-partner', { gloplaId: null })).statusCode).to.equal(403);
    // the member (admin 2) belongs to G0000001 only
    expect((await issue('gpc=demo-partner', { sub: '2', gloplaId: 'G0000002' })).statusCode).to.equal(403);
  });

  it('signs the session organisation: the manager of G0000001 signed in for G0000002 gets tokens for G0000002', async () => {
    const answer = await tokens('gpc=demo-partner', { gloplaId: 'G0000002' });
    const accepted = await verify(presented(answer, 'G0000002'));
    expect(accepted.statusCode, accepted.body).to.equal(200);
    expect(accepted.json()).to.include({ goi: 'G0000002' });
    expect((await verify(presented(await tokens('gpc=demo-partner', { gloplaId: 'G0000002' }), 'G0000001'))).json()).to.deep.equal({ error: API_ERROR.invalidSignature });
  });

  it('answers productId 4 for a product that carries the project, and its absolute authUrl as stored', async () => {
    expect(await tokens('gpc=project-partner')).to.include({ product_id: 4, auth_url: PROJECT_PARTNER.authUrl });
  });

  it('accepts the tokens once: who arrived, then 401 token_used', async () => {
    const answer = await tokens('gpc=demo-partner&gss=state-1&gul=en');
    const first = await verify(presented(answer));
    expect(first.statusCode).to.equal(200);
    expect(first.json()).to.deep.equal({ gui: '1', goi: 'G0000001', gul: 'en', email: 'manager@example.com' });
    const replay = await verify(presented(answer));
    expect(replay.statusCode).to.equal(401);
    expect(replay.json()).to.deep.equal({ error: API_ERROR.tokenUsed });
  });

  it('accepts tokens presented twice at once only once', async () => {
    const answer = await tokens('gpc=demo-partner');
    const statuses = (await Promise.all([verify(presented(answer)), verify(presented(answer)), verify(presented(answer))])).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).to.have.length(1);
  });

  it('expires the tokens 60 seconds after issue (ghs = issue + 60 s, epoch seconds)', async () => {
    const issuedAt = Math.ceil(Date.now() / 1000) * 1000 + 1000;
    const fake = freezeAt(issuedAt);
    const onTime = await tokens('gpc=demo-partner');
    const late = await tokens('gpc=demo-partner');
    expect(Number(onTime.ghs)).to.equal(issuedAt / 1000 + 60);
    fake.tick(59_999);
    expect((await verify(presented(onTime))).statusCode).to.equal(200);
    fake.tick(1);
    const refused = await verify(presented(late));
    expect(refused.statusCode).to.equal(401);
    expect(refused.json()).to.deep.equal({ error: API_ERROR.tokenExpired });
  });

  it('refuses any field changed after signing with 401 invalid_signature', async () => {
    // (the token id's last character is always changed: replacing it by a fixed 'A' left one token in 64 unchanged)
    const answer = await tokens('gpc=demo-partner&gss=abc&gul=ja');
    for (const [field, value] of Object.entries({ gss: 'abd', gui: '2', goi: 'G0000002', gul: 'en', ghs: String(Number(answer.ghs) + 3600), guq: `${answer.guq.slice(0, -1)}${answer.guq.endsWith('A') ? 'B' : 'A'}` })) {
      const response = await verify({ ...presented(answer), [field]: value });
      expect(response.json(), field).to.deep.equal({ error: API_ERROR.invalidSignature });
    }
    // and the untouched tokens still work
    expect((await verify(presented(answer))).statusCode).to.equal(200);
  });

  it("refuses a partner without its credentials (401 invalid_client), and another partner's tokens", async () => {
    const answer = await tokens('gpc=demo-partner');
    for (const credentials of [{}, basic(DEMO.code, 'wrong-secret'), basic('no-such-partner', DEMO.secret), { authorization: 'Bearer x' }]) {
      const response = await verify(presented(answer), credentials);
      expect(response.statusCode).to.equal(401);
      expect(response.json()).to.deep.equal({ error: API_ERROR.invalidClient });
      expect(response.headers['www-authenticate']).to.match(/^Basic/);
    }
    // the other partner cannot verify (or spend) them: its secret did not sign them
    expect((await verify(presented(answer), basic(PROJECT_PARTNER.code, PROJECT_PARTNER.secret))).json()).to.deep.equal({ error: API_ERROR.invalidSignature });
    expect((await verify(presented(answer))).statusCode).to.equal(200);
  });

  it('refuses a well-signed token id the portal never issued with 401 invalid_token', async () => {
    const ghs = String(Math.floor(Date.now() / 1000) + 30);
    const fields = { guq: 'never-issued', gss: '', gui: '1', goi: 'G0000001', gul: 'ja', ghs };
    const response = await verify({ ...fields, gsg: partnerSignature(DEMO.secret, DEMO.code, fields) });
    expect(response.json()).to.deep.equal({ error: API_ERROR.invalidToken });
  });
});

describe('Partner products in and outside demo mode', () => {
  it('resolves a path authUrl (the demo partner) only in demo mode; absolute http(s) URLs always', () => {
    expect(resolveAuthUrl('/dev/partner', 'http://localhost:3000', true)).to.equal('http://localhost:3000/dev/partner');
    expect(resolveAuthUrl('/dev/partner', 'https://portal.example.com', false)).to.equal(undefined);
    expect(resolveAuthUrl('https://partner.example.com/sso', 'https://portal.example.com', false)).to.equal('https://partner.example.com/sso');
    expect(resolveAuthUrl('//evil.example.com/x', 'https://portal.example.com', true)).to.equal(undefined);
    expect(resolveAuthUrl('javascript:alert(1)', 'https://portal.example.com', true)).to.equal(undefined);
  });

  it('adds the demo partner in demo mode also to a database seeded before it existed', async () => {
    const database = await createTestDatabase();
    try {
      const first = await createTestApp({ testDatabase: database, env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
      await first.db.deleteFrom('partnerProducts').execute();
      await first.close();
      const again = await createTestApp({ testDatabase: database, env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
      await again.close();
      expect(await database.db.selectFrom('partnerProducts').select(['code', 'authUrl']).execute()).to.deep.equal([{ code: 'demo-partner', authUrl: '/dev/partner' }]);
    } finally {
      await database.destroy();
    }
  });

  it('seeds no demo partner and serves no /dev/partner outside demo mode', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://portal.example.com', DEMO: undefined } });
    try {
      expect((await app.app.inject({ url: '/dev/partner' })).statusCode).to.equal(404);
      expect(await app.db.selectFrom('partnerProducts').selectAll().execute()).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });
});
