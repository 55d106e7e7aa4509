import { expect } from 'chai';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

const NAME = { last_name: '鈴木', first_name: '一郎', kana_last_name: 'すずき', kana_first_name: 'いちろう' };

describe('PATCH /api/v2/organizations/:orgId/affiliations/admins/:adminId (name change)', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000', REAUTH_WINDOW: '600' } });

  async function patch(path: string, token: string, payload: Record<string, unknown> = NAME) {
    return ctx.app.inject({ method: 'PATCH', url: `/api/v2/${path}`, headers: bearer(token), payload });
  }

  it("changes the signed-in admin's own name and answers with the affiliation", async () => {
    const response = await patch('organizations/1/affiliations/admins/2', await accessToken(ctx.app, { sub: '2' }));
    expect(response.statusCode, response.body).to.equal(200);
    expect(response.json()).to.deep.equal({
      affiliation: {
        role: 'member',
        etag: response.json().affiliation.etag,
        organization: { id: 1, glopla_id: 'G0000001', corporation_official_name: '株式会社デモ' },
        admin: { id: 2, email: 'member@example.com', ...NAME, activated_at: response.json().affiliation.admin.activated_at, invitation_expires_at: null, invitation_expired: false, two_step: false },
      },
    });
    const admin = await ctx.db.selectFrom('admins').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(response.json().affiliation.admin.activated_at).to.equal(new Date(admin.activatedAt!).toISOString());
    expect(admin).to.include({ lastName: '鈴木', firstName: '一郎', kanaLastName: 'すずき', kanaFirstName: 'いちろう' });
  });

  it("refuses someone else's name with 403, even for a manager of the organisation", async () => {
    const response = await patch('organizations/1/affiliations/admins/2', await accessToken(ctx.app, { sub: '1' }));
    expect(response.statusCode).to.equal(403);
    expect(response.json()).to.deep.equal({ error: 'forbidden' });
  });

  it("refuses an organisation the admin does not belong to with 403", async () => {
    const response = await patch('organizations/2/affiliations/admins/2', await accessToken(ctx.app, { sub: '2' }));
    expect(response.statusCode).to.equal(403);
    expect(response.json()).to.deep.equal({ error: 'forbidden' });
    const unknown = await patch('organizations/999/affiliations/admins/2', await accessToken(ctx.app, { sub: '2' }));
    expect(unknown.statusCode).to.equal(403);
  });

  it('refuses an organisation other than the one the session was signed in for, even one the admin belongs to', async () => {
    // admin 1 manages G0000001 (id 1) and is a member of G0000002 (id 2)
    const forOne = await patch('organizations/2/affiliations/admins/1', await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000001' }));
    expect(forOne.statusCode).to.equal(403);
    expect(forOne.json()).to.deep.equal({ error: 'forbidden' });
    const forTwo = await patch('organizations/2/affiliations/admins/1', await accessToken(ctx.app, { sub: '1', gloplaId: 'G0000002' }));
    expect(forTwo.statusCode).to.equal(200);
    expect(forTwo.json().affiliation.organization).to.include({ id: 2, glopla_id: 'G0000002' });
  });

  it('validates the body with schemas/admin-name.json (422 field errors)', async () => {
    const response = await patch('organizations/1/affiliations/admins/2', await accessToken(ctx.app, { sub: '2' }), {
      ...NAME,
      first_name: '',
      kana_last_name: '鈴木',
    });
    expect(response.statusCode).to.equal(422);
    const fields = response.json().errors.map((error: { field: string; code: string }) => `${error.field}:${error.code}`);
    expect(fields).to.include.members(['first_name:blank', 'kana_last_name:invalid']);
  });

  it('asks for the password again when the last entry is older than REAUTH_WINDOW (403 reauthentication_expired)', async () => {
    const token = await accessToken(ctx.app, { sub: '2', authTime: Math.floor(Date.now() / 1000) - 601 });
    const response = await patch('organizations/1/affiliations/admins/2', token);
    expect(response.statusCode).to.equal(403);
    expect(response.json()).to.deep.equal({ error: 'reauthentication_expired' });
  });
});
