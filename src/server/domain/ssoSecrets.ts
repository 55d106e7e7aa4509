/**
 * A single-sign-on connection's OpenID Connect client secret, sealed at rest (issue 45): AES-256-GCM under a key
 * derived (HKDF-SHA256) from a server secret of its own (domain/serverSecrets.ts), never the two-step keys. The
 * connection's id is the additional data, so a sealed secret copied onto another connection does not open there.
 *
 * Sealed form: `v1.<iv>.<ciphertext and tag>`, base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import { serverSecret } from './serverSecrets.js';

const SECRET_NAME = 'sso_client_secret_key';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

async function sealingKey(db: Db): Promise<Buffer> {
  const secret = Buffer.from(await serverSecret(db, SECRET_NAME), 'base64url');
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'sso connection client secret', 32));
}

/** The secret sealed for the connection. */
export async function sealClientSecret(db: Db, connectionId: string, secret: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await sealingKey(db), iv).setAAD(Buffer.from(connectionId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, iv.toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The connection's secret; throws when the sealed text is not the connection's or was altered. */
export async function openClientSecret(db: Db, connectionId: string, sealedText: string): Promise<string> {
  const [version, iv, sealed] = sealedText.split('.');
  if (version !== VERSION || !iv || !sealed) throw new Error('not a sealed client secret');
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < TAG_BYTES) throw new Error('not a sealed client secret');
  // the tag's length fixed: a shortened tag would be easier to forge
  const decipher = createDecipheriv('aes-256-gcm', await sealingKey(db), Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES })
    .setAAD(Buffer.from(connectionId, 'utf8'))
    .setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
}
