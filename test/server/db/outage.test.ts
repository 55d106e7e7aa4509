/**
 * The database going away: every API call answers 503 maintenance, /readyz 503, /healthz stays 200,
 * the process stays up, and everything works again once the database is back, without a restart.
 */
import { expect } from 'chai';
import type { FastifyInstance } from 'fastify';
import { findPostgres } from '../support/postgres.js';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.js';
import { createTestApp, createTestDatabase, type TestApp, type TestDatabase } from '../support/testApp.js';

const registration = {
  corporation_name: 'Outage Inc.',
  departments: 'IT',
  person_in_charge: 'Taro',
  phone_number: '0312345678',
  email: 'ops@example.com',
  zip_code: '1000001',
  address: 'Tokyo',
  scale_of_employees: '1to299',
};

/** The registration request is the write these tests probe; its captcha and limits are not what they test. */
const env = { CAPTCHA: 'off', MAIL_RATE_LIMIT_PER_CLIENT: '1000', MAIL_RATE_LIMIT_PER_EMAIL: '1000' };

async function expectMaintenance(app: FastifyInstance) {
  const post = await app.inject({ method: 'POST', url: '/api/v2/registration_requests', payload: registration });
  expect(post.statusCode, post.body).to.equal(503);
  expect(post.json()).to.deep.equal({ error: 'maintenance' });

  const notices = await app.inject({ url: '/api/v1/notices' });
  expect(notices.statusCode).to.equal(503);
  expect(notices.json()).to.deep.equal({ error: 'maintenance' });

  expect((await app.inject({ url: '/readyz' })).statusCode).to.equal(503);
  expect((await app.inject({ url: '/healthz' })).statusCode).to.equal(200);
}

async function expectWorking(app: FastifyInstance) {
  const post = await app.inject({ method: 'POST', url: '/api/v2/registration_requests', payload: registration });
  expect(post.statusCode, post.body).to.equal(201);
  expect((await app.inject({ url: '/api/v1/notices' })).statusCode).to.equal(200);
  expect((await app.inject({ url: '/readyz' })).statusCode).to.equal(200);
}

describe('database outage', function () {
  this.timeout(30_000);

  describe('PostgreSQL behind a proxy that is cut and restored', () => {
    let proxy: TcpProxy | undefined;
    let testDatabase: TestDatabase | undefined;
    let testApp: TestApp | undefined;

    before(async function () {
      const found = await findPostgres();
      if ('reason' in found) {
        console.log(`      (skipped: ${found.reason})`);
        this.skip();
      }
      const target = new URL(found.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const connectUrl = new URL(found.url);
      connectUrl.hostname = '127.0.0.1';
      connectUrl.port = String(proxy.port);
      testDatabase = await createTestDatabase({ baseUrl: found.url, connectUrl: connectUrl.toString(), poolSize: 3 });
      testApp = await createTestApp({ testDatabase, env });
    });

    after(async () => {
      await testApp?.close();
      await proxy?.open().catch(() => undefined); // the database is dropped through a direct connection anyway
      await testDatabase?.destroy();
      await proxy?.dispose();
    });

    it('works through the proxy', async () => {
      await expectWorking(testApp!.app);
    });

    it('answers 503 maintenance while the database is unreachable, and stays up', async () => {
      await proxy!.close();
      await expectMaintenance(testApp!.app);
      // Again: the pool must not get stuck on the failures.
      await expectMaintenance(testApp!.app);
    });

    it('recovers by itself when the database is back', async () => {
      await proxy!.open();
      await expectWorking(testApp!.app);
      const rows = await testApp!.db.selectFrom('registrationRequests').select('id').execute();
      expect(rows).to.have.length(2);
    });

    it('during traffic: every write answers 201 or 503 (never 500), and every 201 is stored', async () => {
      const before = await testApp!.db.selectFrom('registrationRequests').select('id').execute();
      const acknowledged: string[] = [];
      const statuses = new Set<number>();
      let running = true;
      // four clients writing without pause while the database goes away and comes back
      const clients = Array.from({ length: 4 }, async (_, client) => {
        for (let index = 0; running; index += 1) {
          const email = `traffic-${client}-${index}@example.com`;
          const response = await testApp!.app.inject({ method: 'POST', url: '/api/v2/registration_requests', payload: { ...registration, email } });
          statuses.add(response.statusCode);
          if (response.statusCode === 201) acknowledged.push(email);
          else expect(response.json(), response.body).to.deep.equal({ error: 'maintenance' });
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await proxy!.close();
      await new Promise((resolve) => setTimeout(resolve, 500));
      await proxy!.open();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      running = false;
      await Promise.all(clients);

      expect([...statuses].sort()).to.deep.equal([201, 503]);
      const stored = await testApp!.db.selectFrom('registrationRequests').select('email').where('email', 'like', 'traffic-%').execute();
      expect(stored.map((row) => row.email)).to.include.members(acknowledged);
      expect(acknowledged.length).to.be.greaterThan(0);
      expect((await testApp!.db.selectFrom('registrationRequests').select('id').execute()).length).to.be.at.least(before.length + acknowledged.length);
      await expectWorking(testApp!.app);
    });

    it('survives a cut while connections are idle in the pool', async () => {
      await expectWorking(testApp!.app); // leaves idle clients in the pool
      await proxy!.close(); // kills them: the pool emits 'error', which must not crash the process
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expectMaintenance(testApp!.app);
      await proxy!.open();
      await expectWorking(testApp!.app);
    });
  });

  describe('PGlite closed under the app', () => {
    let testDatabase: TestDatabase;
    let testApp: TestApp;

    before(async function () {
      // the process's first PGlite in the PostgreSQL lane: the migrated template is made first (tens of seconds on a busy machine)
      this.timeout(120_000);
      testDatabase = await createTestDatabase({ baseUrl: '' });
      testApp = await createTestApp({ testDatabase, env });
    });
    after(async () => {
      await testApp.close();
      await testDatabase.destroy();
    });

    it('answers 503 maintenance instead of 500', async () => {
      await expectWorking(testApp.app);
      await testDatabase.database.close();
      await expectMaintenance(testApp.app);
    });
  });
});
