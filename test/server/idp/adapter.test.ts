import { expect } from 'chai';
import { loadConfig } from '../../../src/server/config.js';
import { runRetention } from '../../../src/server/domain/retention.js';
import { createAdapterClass, grantIdsOfAccount } from '../../../src/server/idp/adapter.js';
import { createTestDatabase, TEST_ENV, type TestDatabase } from '../support/testApp.js';

describe('identity provider: Kysely adapter', () => {
  let database: TestDatabase;
  let Adapter: ReturnType<typeof createAdapterClass>;

  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
    Adapter = createAdapterClass(database.db);
  });

  after(async () => {
    await database?.destroy();
  });

  it('stores, finds, updates and destroys a model by id', async () => {
    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: '7', kind: 'Session' } as never, 60);
    expect(await sessions.find('s1')).to.deep.include({ uid: 'u1', accountId: '7' });
    expect(await sessions.findByUid('u1')).to.deep.include({ accountId: '7' });
    expect(await new Adapter('Grant').find('s1'), 'models are separate').to.equal(undefined);
    await sessions.upsert('s1', { uid: 'u1', accountId: '8' } as never, 60);
    expect(await sessions.find('s1')).to.deep.include({ accountId: '8' });
    await sessions.destroy('s1');
    expect(await sessions.find('s1')).to.equal(undefined);
  });

  it('marks a consumed model with the time it was consumed', async () => {
    const codes = new Adapter('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g0' } as never, 60);
    expect(await codes.find('c1')).to.not.have.property('consumed');
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).to.be.a('number');
  });

  it('finds by user code', async () => {
    const deviceCodes = new Adapter('DeviceCode');
    await deviceCodes.upsert('d1', { userCode: 'ABCD-EFGH' } as never, 60);
    expect(await deviceCodes.findByUserCode('ABCD-EFGH')).to.deep.include({ userCode: 'ABCD-EFGH' });
  });

  it('never returns an expired model, and deletes it later', async () => {
    const tokens = new Adapter('AccessToken');
    await tokens.upsert('old', { grantId: 'g-old' } as never, 1);
    await database.db.updateTable('idpPayloads').set({ expiresAt: new Date(Date.now() - 2 * 3600_000) }).where('id', '=', 'old').execute();
    expect(await tokens.find('old')).to.equal(undefined);
    const { retention, mailRateLimit, signinThrottle } = loadConfig(TEST_ENV);
    const result = await runRetention(database.db, { retention, rateLimitWindowSeconds: mailRateLimit.windowSeconds, signinLockoutSeconds: signinThrottle.lockoutSeconds });
    expect(result.ran && result.deleted.idp_payloads).to.be.at.least(1);
    const rows = await database.db.selectFrom('idpPayloads').select('id').where('id', '=', 'old').execute();
    expect(rows).to.have.length(0);
  });

  it('revokes everything of a grant at once, and lists the grants of an account', async () => {
    await new Adapter('Grant').upsert('g1', { accountId: '5' } as never, 60);
    await new Adapter('AccessToken').upsert('a1', { grantId: 'g1', accountId: '5' } as never, 60);
    await new Adapter('RefreshToken').upsert('r1', { grantId: 'g1', accountId: '5' } as never, 60);
    await new Adapter('RefreshToken').upsert('r2', { grantId: 'g2', accountId: '5' } as never, 60);
    expect(await grantIdsOfAccount(database.db, '5')).to.deep.equal(['g1']);
    await new Adapter('RefreshToken').revokeByGrantId('g1');
    expect(await new Adapter('Grant').find('g1'), 'the grant itself').to.equal(undefined);
    expect(await new Adapter('AccessToken').find('a1')).to.equal(undefined);
    expect(await new Adapter('RefreshToken').find('r1')).to.equal(undefined);
    expect(await new Adapter('RefreshToken').find('r2')).to.not.equal(undefined);
  });
});
