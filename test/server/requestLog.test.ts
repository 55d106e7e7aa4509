/**
 * The request log (issue 11): one JSON line per request, written when it is answered, with its request id, status and
 * duration, and who asked (admin id, the session's and the path's organisation) when known; LOG_LEVEL honoured.
 */
import { expect } from 'chai';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { capturingLogger } from './support/log.js';
import { bearer } from './support/oidc.js';
import { accessToken } from './support/tokens.js';
import { createTestDatabase, TEST_ENV, useTestApp } from './support/testApp.js';

describe('Request log', () => {
  const log = capturingLogger();
  const ctx = useTestApp({ logger: log.logger, env: { SEED: 'demo', PUBLIC_URL: 'http://localhost:3000' } });

  beforeEach(() => {
    log.lines.length = 0;
  });

  const requestLines = () => log.lines.filter((line) => line.msg === 'request completed' || line.msg === 'incoming request');

  it('writes one line per request, with its request id, method, URL, status and duration', async () => {
    await ctx.app.inject({ url: '/api/v1/notices' });
    const lines = requestLines();
    expect(lines).to.have.length(1);
    const [line] = lines as [Record<string, unknown>];
    expect(line.msg).to.equal('request completed');
    expect(line.reqId).to.be.a('string').and.not.equal('');
    expect(line.req).to.include({ method: 'GET', url: '/api/v1/notices' });
    expect(line.res).to.deep.equal({ statusCode: 200 });
    expect(line.responseTime).to.be.a('number').and.be.at.least(0);
    expect(line).not.to.have.property('adminId');
  });

  it('names the signed-in admin and the organisations of the session and of the path', async () => {
    const organization = await ctx.db.selectFrom('organizations').select('id').where('gloplaId', '=', 'G0000001').executeTakeFirstOrThrow();
    const response = await ctx.app.inject({ url: `/api/v2/organizations/${organization.id}/affiliations`, headers: bearer(await accessToken(ctx.app, { sub: '1' })) });
    expect(response.statusCode).to.equal(200);
    const [line] = requestLines() as [Record<string, unknown>];
    expect(line).to.include({ adminId: 1, gloplaId: 'G0000001', organizationId: String(organization.id) });
    expect(JSON.stringify(line)).not.to.match(/authorization|bearer/i);
  });

  it('keeps the health probes out of the info log', async () => {
    await ctx.app.inject({ url: '/healthz' });
    await ctx.app.inject({ url: '/readyz' });
    expect(requestLines()).to.deep.equal([]);
  });
});

describe('LOG_LEVEL', () => {
  it('sets the level of the log the app builds', async function () {
    this.timeout(30_000);
    const database = await createTestDatabase();
    try {
      const app = await buildApp(loadConfig({ ...TEST_ENV, LOG_LEVEL: 'error' }), { database: database.database });
      try {
        expect(app.log.level).to.equal('error');
      } finally {
        await app.close();
      }
    } finally {
      await database.destroy();
    }
  });
});
