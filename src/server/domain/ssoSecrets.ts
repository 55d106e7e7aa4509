/**
 * A single-sign-on connection's OpenID Connect client secret, sealed at rest (issue 45) with SECRET_KEY's keys
 * (sealedSecrets.ts), bound to the connection's id: a sealed secret copied onto another connection does not open there.
 *
 * Secrets sealed before SECRET_KEY covered them (`v1.<iv>.<ciphertext and tag>`, under a key kept in the database)
 * still open; the next change of the connection's secret seals them anew.
 */
import { createDecipheriv, hkdfSync } from 'node:crypto';
import { openSecret, sealSecret, type SecretKeys } from './sealedSecrets.js';
import { serverSecret } from './serverSecrets.js';

/** The secret sealed for the connection. */
export const sealClientSecret = (keys: SecretKeys, connectionId: string, secret: string) => sealSecret(keys, 'ssoClientSecret', secret, connectionId);

/** The connection's secret; throws when the sealed text is not the connection's or was altered. */
export async function openClientSecret(keys: SecretKeys, connectionId: string, sealedText: string): Promise<string> {
  return sealedText.split('.').length === 3 ? openFormerSeal(keys, connectionId, sealedText) : openSecret(keys, 'ssoClientSecret', sealedText, connectionId);
}

const TAG_BYTES = 16;

/** The first form, under a key derived from a server secret kept in the database. */
async function openFormerSeal({ db }: SecretKeys, connectionId: string, sealedText: string): Promise<string> {
  const [version, iv, sealed] = sealedText.split('.');
  const bytes = Buffer.from(sealed ?? '', 'base64url');
  if (version !== 'v1' || !iv || bytes.length < TAG_BYTES) throw new Error('not a sealed client secret');
  const secret = Buffer.from(await serverSecret(db, 'sso_client_secret_key'), 'base64url');
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sso connection client secret', 32));
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES })
    .setAAD(Buffer.from(connectionId, 'utf8'))
    .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
