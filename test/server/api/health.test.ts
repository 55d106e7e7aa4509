import { expect } from 'chai';
import { useTestApp } from '../support/testApp.js';

describe('health', () => {
  const ctx = useTestApp();

  it('GET /healthz answers 200 while the process is up', async () => {
    const response = await ctx.app.inject({ url: '/healthz' });
    expect(response.statusCode).to.equal(200);
    expect(response.json()).to.deep.equal({ status: 'ok' });
  });

  it('GET /readyz answers 200 while the database answers', async () => {
    const response = await ctx.app.inject({ url: '/readyz' });
    expect(response.statusCode).to.equal(200);
    expect(response.json()).to.deep.equal({ status: 'ok' });
  });
});
