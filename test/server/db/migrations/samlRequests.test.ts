/** Migration 0101 (issue 45): SAML requests and accepted assertion ids, bounded, gone with their connection. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('Migration 0101: saml_requests and saml_assertions (issue 45)', () => {
  let database: TestDatabase;
  let connectionId: string;
  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
    const organization = await database.db
      .insertInto('organizations')
      .values({ gloplaId: 'G0000453', gloplaIdName: 'G0000453', corporationAccountName: 'M', corporationOfficialName: 'M', corporationAccountCode: 'G0000453' })
      .returning('id')
      .executeTakeFirstOrThrow();
    connectionId = randomUUID();
    await database.db.insertInto('ssoConnections').values({ id: connectionId, organizationId: organization.id, protocol: 'saml', name: 'M', attributeEmail: 'nameID' }).execute();
  });
  after(async () => database?.destroy());

  const inserted = async (relayState: string) => {
    try {
      await database.db.insertInto('samlRequests').values({ relayState, connectionId, requestId: '_r', expiresAt: new Date() }).execute();
      return true;
    } catch {
      return false;
    }
  };

  it('keeps a RelayState of 16 to 80 characters only, and each once', async () => {
    expect(await inserted('a'.repeat(15))).to.equal(false);
    expect(await inserted('a'.repeat(81))).to.equal(false);
    expect(await inserted('b'.repeat(16))).to.equal(true);
    expect(await inserted('b'.repeat(16))).to.equal(false);
  });

  it('drops a connection\'s requests and assertion ids with it', async () => {
    await database.db.insertInto('samlAssertions').values({ assertionId: `_a${randomUUID()}`, connectionId, expiresAt: new Date() }).execute();
    await database.db.deleteFrom('ssoConnections').where('id', '=', connectionId).execute();
    expect(await database.db.selectFrom('samlRequests').select('relayState').execute()).to.deep.equal([]);
    expect(await database.db.selectFrom('samlAssertions').select('assertionId').execute()).to.deep.equal([]);
  });
});
