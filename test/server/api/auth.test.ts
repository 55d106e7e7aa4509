import { expect } from 'chai';
import { requireAffiliation, requireManager, isReauthenticationExpired, type SignedInAdmin } from '../../../src/server/api/auth.js';
import { ApiError } from '../../../src/server/api/errors.js';
import { accessToken } from '../support/tokens.js';
import { bearer } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

const PUBLIC_URL = 'http://localhost:3000';
const ME = '/api/v2/admins/me/affiliations';

describe('API authentication: x-v2-admin-auth-token', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });

  async function call(headers: Record<string, string>) {
    return ctx.app.inject({ url: ME, headers });
  }

  it('accepts a valid access token', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { sub: '2' })));
    expect(response.statusCode).to.equal(200);
    expect(response.json().affiliations).to.have.length(1);
  });

  it('answers an expired token with 401 access_token_expired', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { expiresIn: -5 })));
    expect(response.statusCode).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'access_token_expired' });
  });

  it('answers a bad signature with 401 invalid_access_token', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { foreignKey: true })));
    expect(response.statusCode).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('answers an expired token with a bad signature as invalid, not expired', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { foreignKey: true, expiresIn: -5 })));
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('answers a token for another audience with 401 invalid_access_token', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { audience: 'https://other.example.com/api' })));
    expect(response.statusCode).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('answers a token of another issuer with 401 invalid_access_token', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { issuer: 'https://other.example.com/oidc' })));
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('does not take an ID token (typ JWT) for an access token', async () => {
    const response = await call(bearer(await accessToken(ctx.app, { typ: 'JWT' })));
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('answers a missing, empty or malformed header with 401 invalid_access_token', async () => {
    for (const headers of [{}, { 'x-v2-admin-auth-token': '' }, { 'x-v2-admin-auth-token': 'Bearer' }, { 'x-v2-admin-auth-token': 'Bearer not.a.jwt' }, { 'x-v2-admin-auth-token': 'Basic abc' }]) {
      const response = await call(headers as Record<string, string>);
      expect(response.statusCode, JSON.stringify(headers)).to.equal(401);
      expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
    }
  });

  it('guards every signed-in route', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/admin/re_authentication_expiration'],
      ['GET', '/api/v2/enabled_feature_flags/product_admin_roles'],
      ['PATCH', '/api/v2/organizations/1/affiliations/admins/1'],
      ['PUT', '/api/v2/admins/1/password'],
    ] as const) {
      const response = await ctx.app.inject({ method, url, payload: {} });
      expect(response.statusCode, `${method} ${url}`).to.equal(401);
      expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
    }
  });
});

describe('API access checks: affiliation and role', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL } });
  const manager: SignedInAdmin = { id: 1, authTime: undefined, gloplaId: 'G0000001' };
  const member: SignedInAdmin = { id: 2, authTime: undefined, gloplaId: 'G0000001' };

  async function refusal(promise: Promise<unknown>): Promise<ApiError | undefined> {
    return promise.then(
      () => undefined,
      (error: unknown) => error as ApiError,
    );
  }

  it('lets an affiliated admin in and answers with the role (joined through the affiliation)', async () => {
    expect(await requireAffiliation(ctx.db, manager, 1)).to.equal('manager');
    expect(await requireAffiliation(ctx.db, { ...manager, gloplaId: 'G0000002' }, 2)).to.equal('member');
    expect(await requireAffiliation(ctx.db, member, 1)).to.equal('member');
  });

  it("refuses an organisation other than the session's, even one the admin belongs to, and a session without one", async () => {
    expect(await refusal(requireAffiliation(ctx.db, manager, 2))).to.include({ statusCode: 403, apiCode: 'forbidden' });
    expect(await refusal(requireAffiliation(ctx.db, { ...manager, gloplaId: 'G0000002' }, 1))).to.include({ statusCode: 403 });
    expect(await refusal(requireAffiliation(ctx.db, { ...manager, gloplaId: undefined }, 1))).to.include({ statusCode: 403 });
  });

  it('refuses another organisation with 403 forbidden', async () => {
    const error = await refusal(requireAffiliation(ctx.db, member, 2));
    expect(error).to.be.instanceOf(ApiError);
    expect(error).to.include({ statusCode: 403, apiCode: 'forbidden' });
    expect(await refusal(requireAffiliation(ctx.db, member, Number.NaN))).to.include({ statusCode: 403 });
  });

  it('manager-only: a manager passes, a member of the same organisation is refused', async () => {
    expect(await requireManager(ctx.db, manager, 1)).to.equal('manager');
    expect(await refusal(requireManager(ctx.db, member, 1))).to.include({ statusCode: 403, apiCode: 'forbidden' });
    // the manager of G0000001 is only a member of G0000002
    expect(await refusal(requireManager(ctx.db, { ...manager, gloplaId: 'G0000002' }, 2))).to.include({ statusCode: 403, apiCode: 'forbidden' });
  });

  it('judges re-authentication by the time of the last password entry', () => {
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const at = (secondsAgo: number): SignedInAdmin => ({ id: 1, gloplaId: undefined, authTime: now / 1000 - secondsAgo });
    expect(isReauthenticationExpired(at(599), 600, now)).to.equal(false);
    expect(isReauthenticationExpired(at(601), 600, now)).to.equal(true);
    expect(isReauthenticationExpired({ id: 1, gloplaId: undefined, authTime: undefined }, 600, now)).to.equal(true);
  });
});
