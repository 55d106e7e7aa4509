/** A connection's OIDC client secret sealed at rest (issue 45): AES-256-GCM under a key derived from a server secret, bound to the connection. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { openClientSecret, sealClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

describe("Single-sign-on connections' sealed client secrets (issue 45)", () => {
  let database: TestDatabase;
  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
  });
  after(async () => database?.destroy());

  it('opens what it sealed for the connection, a fresh nonce each time, the secret nowhere in the sealed text', async () => {
    const id = randomUUID();
    const [first, second] = [await sealClientSecret(database.db, id, 'the secret'), await sealClientSecret(database.db, id, 'the secret')];
    expect(first).to.match(/^v1\.[\w-]{16}\.[\w-]+$/).and.not.equal(second);
    expect(first).to.not.include('the secret');
    expect(await openClientSecret(database.db, id, first)).to.equal('the secret');
    expect(await openClientSecret(database.db, id, second)).to.equal('the secret');
  });

  it("refuses a sealed secret copied onto another connection, altered, cut short, or of another version", async () => {
    const id = randomUUID();
    const sealed = await sealClientSecret(database.db, id, 'the secret');
    const [version, iv, body] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0]! ^= 1;
    const attempts = [
      openClientSecret(database.db, randomUUID(), sealed),
      openClientSecret(database.db, id, [version, iv, flipped.toString('base64url')].join('.')),
      openClientSecret(database.db, id, [version, iv, Buffer.from(body, 'base64url').subarray(0, -4).toString('base64url')].join('.')),
      openClientSecret(database.db, id, ['v2', iv, body].join('.')),
      openClientSecret(database.db, id, 'plain text'),
    ];
    for (const [index, attempt] of attempts.entries()) {
      const outcome = await attempt.then(() => 'opened', () => 'refused');
      expect(outcome, `attempt ${index}`).to.equal('refused');
    }
  });

  it('derives its key from a server secret of its own in the database (shared by every instance on it), not the two-step keys', async () => {
    const id = randomUUID();
    const sealed = await sealClientSecret(database.db, id, 'shared');
    const row = await database.db.selectFrom('serverSecrets').select('name').where('name', '=', 'sso_client_secret_key').executeTakeFirst();
    expect(row?.name).to.equal('sso_client_secret_key');
    expect(await openClientSecret(database.db, id, sealed)).to.equal('shared');
  });
});
