/**
 * Secrets sealed at rest with SECRET_KEY's keys (sealedSecrets.ts; issues 44–46): each purpose under its own key, bound
 * to its row; rotation by a new key first; a single-sign-on client secret sealed before SECRET_KEY covered it still
 * opens (ssoSecrets.ts).
 */
import { createCipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { openSecret, sealSecret, type SecretKeys } from '../../../src/server/domain/sealedSecrets.js';
import { serverSecret } from '../../../src/server/domain/serverSecrets.js';
import { openClientSecret, sealClientSecret } from '../../../src/server/domain/ssoSecrets.js';
import { createTestDatabase, type TestDatabase } from '../support/testApp.js';

const refused = (attempt: Promise<unknown>) => attempt.then(() => 'opened', () => 'refused');

describe('Secrets sealed at rest (SECRET_KEY)', () => {
  let database: TestDatabase;
  let keys: SecretKeys;
  const [older, newer] = [randomBytes(32), randomBytes(32)];
  before(async function () {
    this.timeout(60_000);
    database = await createTestDatabase();
    keys = { db: database.db, configuredKeys: [older] };
  });
  after(async () => database?.destroy());

  it('opens what it sealed for the same purpose and row, a fresh nonce each time, the secret nowhere in the sealed text', async () => {
    const id = randomUUID();
    const [first, second] = [await sealClientSecret(keys, id, 'the secret'), await sealClientSecret(keys, id, 'the secret')];
    expect(first).to.match(/^v2\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/).and.not.equal(second);
    expect(first).to.not.include('the secret');
    expect(await openClientSecret(keys, id, first)).to.equal('the secret');
    expect(await openClientSecret(keys, id, second)).to.equal('the secret');
  });

  it('refuses a sealed secret copied onto another row, read as another purpose, altered, cut short or malformed', async () => {
    const id = randomUUID();
    const sealed = await sealSecret(keys, 'ssoClientSecret', 'the secret', id);
    const [version, kid, iv, tag, body] = sealed.split('.') as [string, string, string, string, string];
    const flipped = Buffer.from(body, 'base64url');
    flipped[0]! ^= 1;
    const attempts = [
      openSecret(keys, 'ssoClientSecret', sealed, randomUUID()),
      openSecret(keys, 'webhookSecret', sealed, id),
      openSecret(keys, 'ssoClientSecret', [version, kid, iv, tag, flipped.toString('base64url')].join('.'), id),
      openSecret(keys, 'ssoClientSecret', [version, kid, iv, Buffer.from(tag, 'base64url').subarray(0, 12).toString('base64url'), body].join('.'), id),
      openSecret(keys, 'ssoClientSecret', ['v3', kid, iv, tag, body].join('.'), id),
      openSecret(keys, 'ssoClientSecret', 'plain text', id),
    ];
    for (const [index, attempt] of attempts.entries()) expect(await refused(attempt), `attempt ${index}`).to.equal('refused');
  });

  it('seals with the newest key and opens with whichever key sealed; a removed key opens nothing', async () => {
    const sealedByOlder = await sealSecret(keys, 'webhookSecret', 'whsec_a', 'endpoint');
    const rotated = { ...keys, configuredKeys: [newer, older] };
    const sealedByNewer = await sealSecret(rotated, 'webhookSecret', 'whsec_b', 'endpoint');
    expect(sealedByNewer.split('.')[1]).to.not.equal(sealedByOlder.split('.')[1]);
    expect(await openSecret(rotated, 'webhookSecret', sealedByOlder, 'endpoint')).to.equal('whsec_a');
    expect(await openSecret(rotated, 'webhookSecret', sealedByNewer, 'endpoint')).to.equal('whsec_b');
    expect(await refused(openSecret({ ...keys, configuredKeys: [newer] }, 'webhookSecret', sealedByOlder, 'endpoint'))).to.equal('refused');
  });

  it('opens a client secret of the first form (v1, under a key kept in the database), and only for its connection', async () => {
    const id = randomUUID();
    const secret = Buffer.from(await serverSecret(database.db, 'sso_client_secret_key'), 'base64url');
    const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sso connection client secret', 32));
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(id, 'utf8'));
    const sealed = Buffer.concat([cipher.update('the first secret', 'utf8'), cipher.final(), cipher.getAuthTag()]);
    const former = ['v1', iv.toString('base64url'), sealed.toString('base64url')].join('.');
    expect(await openClientSecret(keys, id, former)).to.equal('the first secret');
    expect(await refused(openClientSecret(keys, randomUUID(), former))).to.equal('refused');
  });
});
