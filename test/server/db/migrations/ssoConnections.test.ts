/**
 * Migration 0100 (issue 45): the database itself keeps a domain's connection within its organisation, a verified
 * domain to one organisation, and a connection's settings to its protocol.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '../../support/testApp.js';

describe('Migration 0100: single-sign-on connections and domains (issue 45)', () => {
  let database: TestDatabase;
  let one: number;
  let two: number;
  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
    const rows = await database.db
      .insertInto('organizations')
      .values(['G0000201', 'G0000202'].map((gloplaId) => ({ gloplaId, gloplaIdName: gloplaId, corporationAccountName: gloplaId, corporationOfficialName: gloplaId, corporationAccountCode: gloplaId })))
      .returning('id')
      .execute();
    [one, two] = rows.map((row) => row.id) as [number, number];
  });
  after(async () => database?.destroy());

  const connection = (organizationId: number, protocol: 'saml' | 'oidc' = 'oidc', extra: Record<string, unknown> = {}) =>
    database.db.insertInto('ssoConnections').values({ id: randomUUID(), organizationId, protocol, name: 'IdP', attributeEmail: 'email', ...extra }).returning('id').executeTakeFirstOrThrow();
  const domain = (organizationId: number, name: string, extra: Record<string, unknown> = {}) =>
    database.db.insertInto('ssoDomains').values({ id: randomUUID(), organizationId, domain: name, verificationToken: 't', ...extra }).returning('id').executeTakeFirstOrThrow();
  const refused = (work: Promise<unknown>) => work.then(() => 'stored', () => 'refused');

  it("refuses a domain routed to another organisation's connection, and routes it by default once its connection is deleted", async () => {
    const theirs = await connection(two);
    expect(await refused(domain(one, 'a.example.com', { connectionId: theirs.id }))).to.equal('refused');
    const own = await connection(one);
    const routed = await domain(one, 'b.example.com', { connectionId: own.id });
    await database.db.deleteFrom('ssoConnections').where('id', '=', own.id).execute();
    const row = await database.db.selectFrom('ssoDomains').select(['connectionId', 'organizationId']).where('id', '=', routed.id).executeTakeFirstOrThrow();
    expect(row).to.deep.equal({ connectionId: null, organizationId: one });
  });

  it('lets two organisations hold a pending domain but only one verify it', async () => {
    await domain(one, 'shared.example.com', { verifiedAt: new Date() });
    await domain(two, 'shared.example.com');
    expect(await refused(database.db.updateTable('ssoDomains').set({ verifiedAt: new Date() }).where('organizationId', '=', two).where('domain', '=', 'shared.example.com').execute())).to.equal('refused');
    expect(await refused(domain(one, 'SHOUT.example.com'))).to.equal('refused');
  });

  it("keeps each protocol's settings to its connections", async () => {
    expect(await refused(connection(one, 'saml', { clientId: 'x' }))).to.equal('refused');
    expect(await refused(connection(one, 'oidc', { idpMetadataUrl: 'https://idp.example.com' }))).to.equal('refused');
    expect(await refused(connection(one, 'oidc', { state: 'deleted' }))).to.equal('refused');
  });
});
