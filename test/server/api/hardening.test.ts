/** Issue 7 finding 14 (part): API answers are never cached, and the server enforces the password strength score. */
import { expect } from 'chai';
import { issueToken } from '../../../src/server/domain/adminTokens.js';
import { hashPassword, verifyPassword } from '../../../src/server/domain/passwords.js';
import { DEMO_PASSWORD } from '../../../src/server/db/seed/demoData.js';
import { bearer, signIn } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';

/** Meets the policy of schemas/common.json (length, digit, both cases) but scores 0 (a dictionary word). */
const WEAK = 'Password1';

describe('Cache-Control: no-store on every API answer', () => {
  const ctx = useTestApp({ env: { SEED: 'demo' } });

  it('is sent on successes, errors and unknown API paths', async () => {
    const answers = await Promise.all([
      ctx.app.inject({ url: '/api/v1/notices' }),
      ctx.app.inject({ url: '/api/v2/admins/me/affiliations' }),
      ctx.app.inject({ method: 'POST', url: '/api/v2/registration_requests', payload: {} }),
      ctx.app.inject({ url: '/api/v2/nothing-here' }),
      ctx.app.inject({ url: '/api/v2/feature_flags' }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).to.deep.equal([200, 401, 422, 404, answers[4]!.statusCode]);
    for (const answer of answers) expect(answer.headers['cache-control'], answer.raw.req.url).to.equal('no-store');
  });
});

describe('the password strength score (≥ 2) is enforced by the server too', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', SIGNIN_FAILURE_DELAY_MS: '0' } });
  const weakPasswordError = (field: string) => ({ errors: [{ field, code: 'invalid', meta: { message_key: 'password.strength.0' } }] });

  it('activation refuses a weak password with 422 on the password field', async () => {
    const { id } = await ctx.db.insertInto('admins').values({ email: 'weak-activation@example.com' }).returning('id').executeTakeFirstOrThrow();
    const token = await issueToken(ctx.db, id, 'activation', 3600);
    const activate = (password: string) =>
      ctx.app.inject({
        method: 'PUT',
        url: `/api/v2/admins/${id}`,
        headers: { 'x-v2-admin-activate-token': `Bearer ${token}` },
        payload: { first_name: '一郎', last_name: '鈴木', kana_first_name: 'いちろう', kana_last_name: 'すずき', password },
      });
    const weak = await activate(WEAK);
    expect(weak.statusCode).to.equal(422);
    expect(weak.json()).to.deep.equal(weakPasswordError('password'));
    const admin = await ctx.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(admin.activatedAt).to.equal(null);
    expect((await activate('Kiwi-Harbor-93-Lantern')).statusCode).to.equal(200);
  });

  it('reset refuses a weak password with 422 on the new field', async () => {
    const { id } = await ctx.db
      .insertInto('admins')
      .values({ email: 'weak-reset@example.com', passwordHash: await hashPassword('OldPassw0rd!'), activatedAt: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = await issueToken(ctx.db, id, 'password_reset', 3600);
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/v2/admins/${id}/password`,
      headers: { 'x-v2-admin-reset-password-token': `Bearer ${token}` },
      payload: { new: WEAK },
    });
    expect(response.statusCode).to.equal(422);
    expect(response.json()).to.deep.equal(weakPasswordError('new'));
    const admin = await ctx.db.selectFrom('admins').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await verifyPassword(admin.passwordHash!, 'OldPassw0rd!')).to.equal(true);
  });

  it('password change refuses a weak password with 422 on the new field', async () => {
    const session = await signIn(ctx.app, { email: 'member@example.com', password: DEMO_PASSWORD });
    const response = await ctx.app.inject({
      method: 'PUT',
      url: '/api/v2/admins/2/password',
      headers: bearer(session.tokens.access_token),
      payload: { current: DEMO_PASSWORD, new: WEAK },
    });
    expect(response.statusCode).to.equal(422);
    expect(response.json()).to.deep.equal(weakPasswordError('new'));
  });
});
