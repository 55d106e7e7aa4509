import { expect } from 'chai';
import { sql } from 'kysely';
import sinon from 'sinon';
import { createDatabase, type DatabaseHandle } from '../../../src/server/db/index.js';
import { endAdminTokens, endOrganizationTokens } from '../../../src/server/domain/admins.js';
import { createTokenValidity, type TokenValidity } from '../../../src/server/domain/tokenValidity.js';
import { startTcpProxy, type TcpProxy } from '../support/tcpProxy.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

const now = () => Math.floor(Date.now() / 1000);

/** Polls until the check holds (a notification crosses to another connection within moments), at most 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) {
    if (await check()) return true;
  }
  return check();
}

async function addAdmin(database: DatabaseHandle, email: string): Promise<number> {
  const row = await database.db.insertInto('admins').values({ email }).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

describe('token validity kept in memory (issue 20)', function () {
  this.timeout(30_000);
  let testDatabase: TestDatabase;
  let validity: TokenValidity;
  let adminId: number;

  before(async function () {
    // alone, the file makes the process's migrated PGlite template first (tens of seconds on a busy machine)
    this.timeout(120_000);
    testDatabase = await createTestDatabase();
    validity = createTokenValidity(testDatabase.database);
    adminId = await addAdmin(testDatabase.database, 'cached@example.com');
    await testDatabase.db.insertInto('organizations').values({ gloplaId: 'G0000001', gloplaIdName: 'One', corporationAccountName: 'One', corporationOfficialName: 'One', corporationAccountCode: 'C1' }).execute();
  });

  after(async () => {
    await validity?.close();
    await testDatabase?.destroy();
  });

  it('asks the database once per admin, then answers from memory', async () => {
    const issuedAt = now();
    // nothing is kept before the listener listens
    expect(await eventually(async () => testDatabase.database.notificationsListening())).to.equal(true);
    await eventually(async () => (await validity.isCurrent(adminId, issuedAt, 'G0000001')) && (await validity.isCurrent(adminId, issuedAt, 'G0000001')));
    const selects = sinon.spy(testDatabase.db, 'selectFrom');
    try {
      for (let call = 0; call < 5; call += 1) expect(await validity.isCurrent(adminId, issuedAt, 'G0000001')).to.equal(true);
      expect(selects.callCount).to.equal(0);
    } finally {
      selects.restore();
    }
  });

  it('refuses an unknown admin', async () => {
    expect(await validity.isCurrent(999_999, now(), 'G0000001')).to.equal(false);
  });

  it("ends the tokens at once when this instance writes the change (logout, then a role change in one organisation)", async () => {
    const before = now() - 10;
    expect(await validity.isCurrent(adminId, before, 'G0000001')).to.equal(true);
    await endAdminTokens(testDatabase.db, adminId, (before + 5) * 1000);
    expect(await validity.isCurrent(adminId, before, 'G0000001')).to.equal(false);
    expect(await validity.isCurrent(adminId, before + 5, 'G0000001')).to.equal(true);
    const organization = await testDatabase.db.selectFrom('organizations').select('id').where('gloplaId', '=', 'G0000001').executeTakeFirstOrThrow();
    await endOrganizationTokens(testDatabase.db, adminId, organization.id, (before + 8) * 1000);
    expect(await validity.isCurrent(adminId, before + 5, 'G0000001')).to.equal(false);
    expect(await validity.isCurrent(adminId, before + 5, 'G0000002')).to.equal(true);
  });

  it('hears a change written by anyone else through the notification (another instance, a script)', async () => {
    const adminId = await addAdmin(testDatabase.database, 'notified@example.com');
    const issuedAt = now() - 100;
    await endAdminTokens(testDatabase.db, adminId, (issuedAt - 10) * 1000);
    expect(await validity.isCurrent(adminId, issuedAt, 'G0000001')).to.equal(true);
    // a write that does not pass through endAdminTokens: only the trigger's notification tells
    await sql`update admins set tokens_valid_after = to_timestamp(${issuedAt + 1}) where id = ${adminId}`.execute(testDatabase.db);
    expect(await eventually(async () => !(await validity.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
  });

  it('keeps at most its bound of admins, the least recently used going first', async () => {
    const small = createTokenValidity(testDatabase.database, { maxEntries: 2 });
    try {
      const ids = [adminId, await addAdmin(testDatabase.database, 'second@example.com'), await addAdmin(testDatabase.database, 'third@example.com')];
      await eventually(async () => {
        for (const id of ids) await small.isCurrent(id, now(), 'G0000001');
        const selects = sinon.spy(testDatabase.db, 'selectFrom');
        try {
          await small.isCurrent(ids[2]!, now(), 'G0000001');
          await small.isCurrent(ids[1]!, now(), 'G0000001');
          const keptTwo = selects.callCount === 0;
          await small.isCurrent(ids[0]!, now(), 'G0000001');
          return keptTwo && selects.callCount > 0;
        } finally {
          selects.restore();
        }
      });
      const selects = sinon.spy(testDatabase.db, 'selectFrom');
      try {
        await small.isCurrent(ids[0]!, now(), 'G0000001');
        await small.isCurrent(ids[1]!, now(), 'G0000001');
        expect(selects.callCount).to.equal(0);
      } finally {
        selects.restore();
      }
    } finally {
      await small.close();
    }
  });

  describe('two instances on one PostgreSQL database', () => {
    let other: DatabaseHandle | undefined;
    let otherValidity: TokenValidity | undefined;

    before(function () {
      if (!testDatabase.url) this.skip();
      other = createDatabase({ databaseUrl: testDatabase.url, poolSize: 2 });
      otherValidity = createTokenValidity(other);
    });

    after(async () => {
      await otherValidity?.close();
      await other?.close();
    });

    it('a logout on instance A refuses the token on instance B within moments', async () => {
      const adminId = await addAdmin(testDatabase.database, 'instance-b@example.com');
      const issuedAt = now() - 50;
      expect(await eventually(() => otherValidity!.isCurrent(adminId, issuedAt, 'G0000001').then(async (current) => current && otherValidity!.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      const started = Date.now();
      await endAdminTokens(testDatabase.db, adminId, (issuedAt + 1) * 1000);
      expect(await eventually(async () => !(await otherValidity!.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      expect(Date.now() - started, 'ms until B refused').to.be.below(2000);
    });

    it('while its listening connection is lost, asks the database every time, and keeps again once it listens again', async () => {
      const adminId = await addAdmin(testDatabase.database, 'unheard@example.com');
      const issuedAt = now() - 40;
      await endAdminTokens(testDatabase.db, adminId, (issuedAt - 10) * 1000);
      expect(await eventually(() => otherValidity!.isCurrent(adminId, issuedAt, 'G0000001'))).to.equal(true);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = 'corporate-admin-portal (listen)'`.execute(testDatabase.db);
      // both instances' listeners are gone: a change now notifies nobody
      await sql`update admins set tokens_valid_after = to_timestamp(${issuedAt + 1}) where id = ${adminId}`.execute(testDatabase.db);
      expect(await eventually(async () => !(await otherValidity!.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      expect(await eventually(async () => !(await validity.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      // listening again (reconnected after a second): answers from memory once more
      expect(
        await eventually(async () => {
          await validity.isCurrent(adminId, issuedAt + 1, 'G0000001');
          const selects = sinon.spy(testDatabase.db, 'selectFrom');
          try {
            return (await validity.isCurrent(adminId, issuedAt + 1, 'G0000001')) && selects.callCount === 0;
          } finally {
            selects.restore();
          }
        }),
      ).to.equal(true);
    });
  });
  interface Instance {
    database: DatabaseHandle;
    validity: TokenValidity;
    logger: { warn: sinon.SinonSpy; info: sinon.SinonSpy; debug: sinon.SinonSpy };
  }

  describe('an instance whose listening connection goes silent (no FIN, no RST: a NAT or load balancer forgot it)', () => {
    let proxy: TcpProxy | undefined;
    const opened: Instance[] = [];

    /** Instance C: its pool straight to PostgreSQL, its listening connection through the proxy (LISTEN_DATABASE_URL). */
    function instanceBehindProxy(heartbeatIntervalMs: number, maxAgeSeconds: number): Instance {
      const listenUrl = new URL(testDatabase.url!);
      listenUrl.host = `127.0.0.1:${proxy!.port}`;
      const logger = { warn: sinon.fake(), info: sinon.fake(), debug: sinon.fake() };
      const database = createDatabase({ databaseUrl: testDatabase.url, listenDatabaseUrl: listenUrl.toString(), heartbeatIntervalMs, poolSize: 2, logger });
      database.onNotificationsInterrupted = sinon.fake();
      const instance = { database, validity: createTokenValidity(database, { maxAgeSeconds }), logger };
      opened.push(instance);
      return instance;
    }

    /** Logged out on another instance after C has kept the admin's validity while listening. */
    async function logoutHeardBeforeSilence(instance: Instance, email: string) {
      const adminId = await addAdmin(testDatabase.database, email);
      const issuedAt = now() - 30;
      expect(await eventually(async () => instance.database.notificationsListening() && (await instance.validity.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      proxy!.blackHole();
      await endAdminTokens(testDatabase.db, adminId, (issuedAt + 1) * 1000);
      return { adminId, issuedAt };
    }

    beforeEach(async function () {
      if (!testDatabase.url) this.skip();
      const target = new URL(testDatabase.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    });

    afterEach(async () => {
      for (const { database, validity } of opened.splice(0)) {
        await validity.close();
        await database.close();
      }
      await proxy?.dispose();
    });

    it('notices by its heartbeat, drops what it kept, refuses the logged-out token, says so, and listens again once the path is back', async () => {
      const instance = instanceBehindProxy(200, 3600);
      const { adminId, issuedAt } = await logoutHeardBeforeSilence(instance, 'silent-heartbeat@example.com');
      // the notification is lost; the heartbeat that does not come back takes the connection as lost
      expect(await eventually(async () => !(await instance.validity.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
      expect(instance.database.notificationsListening()).to.equal(false);
      expect((instance.database.onNotificationsInterrupted as sinon.SinonSpy).called, 'the metric is counted').to.equal(true);
      expect(instance.logger.warn.lastCall.lastArg).to.match(/database notifications interrupted \(portal_token_validity\)/);
      proxy!.restore();
      expect(await eventually(async () => instance.database.notificationsListening())).to.equal(true);
      expect(instance.logger.info.lastCall.lastArg).to.match(/listening again/);
    });

    it('refuses the logged-out token within the bounded age even when no heartbeat tells', async () => {
      const instance = instanceBehindProxy(3_600_000, 1);
      const { adminId, issuedAt } = await logoutHeardBeforeSilence(instance, 'silent-age@example.com');
      expect(instance.database.notificationsListening(), 'the heartbeat has not noticed').to.equal(true);
      expect(await eventually(async () => !(await instance.validity.isCurrent(adminId, issuedAt, 'G0000001')))).to.equal(true);
    });
  });
});
