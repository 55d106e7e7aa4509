import { expect } from 'chai';
import { bearer } from '../support/oidc.js';
import { accessToken } from '../support/tokens.js';
import { useTestApp } from '../support/testApp.js';

describe('GET /api/v2/enabled_feature_flags/:name', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });

  before(async () => {
    await ctx.db.insertInto('featureFlags').values({ name: 'switched_off', enabled: false }).execute();
  });

  async function flag(name: string) {
    const response = await ctx.app.inject({ url: `/api/v2/enabled_feature_flags/${name}`, headers: bearer(await accessToken(ctx.app)) });
    expect(response.statusCode).to.equal(200);
    return response.json();
  }

  it('answers enabled for an enabled flag', async () => {
    expect(await flag('product_admin_roles')).to.deep.equal({ enabled: true });
  });

  it('answers disabled for a disabled or unknown flag', async () => {
    expect(await flag('switched_off')).to.deep.equal({ enabled: false });
    expect(await flag('no_such_flag')).to.deep.equal({ enabled: false });
  });
});
