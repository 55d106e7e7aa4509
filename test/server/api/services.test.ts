import { expect } from 'chai';
import { bearer } from '../support/oidc.js';
import { useTestApp } from '../support/testApp.js';
import { accessToken } from '../support/tokens.js';

describe('GET /api/v2/services', () => {
  const ctx = useTestApp({ env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });
  const get = async (url: string) => ctx.app.inject({ url, headers: bearer(await accessToken(ctx.app)) });

  it('needs a signed-in admin', async () => {
    const response = await ctx.app.inject({ url: '/api/v2/services' });
    expect(response.statusCode).to.equal(401);
    expect(response.json()).to.deep.equal({ error: 'invalid_access_token' });
  });

  it('lists the nine services of the family in the asked language, ordered by id', async () => {
    const response = await get('/api/v2/services?lang=en');
    expect(response.statusCode).to.equal(200);
    const { services } = response.json();
    expect(services.map((service: { id: number }) => service.id)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 9, 10]);
    expect(services[0]).to.include({ name: 'Unlimited Library' });
    expect(services[0].service_group).to.deep.equal({ id: 1, name: services[0].service_group.name });
    expect(services[0].thumbnail_url).to.match(/^data:image\/svg\+xml,/);
  });

  it('answers in Japanese by default', async () => {
    const { services } = (await get('/api/v2/services')).json();
    expect(services[0].name).to.equal('見放題ライブラリ');
  });

  it('refuses a language the portal does not have', async () => {
    const response = await get('/api/v2/services?lang=fr');
    expect(response.statusCode).to.equal(422);
    expect(response.json().errors[0]).to.include({ field: 'lang', code: 'invalid' });
  });
});
