/**
 * Secrets the portal must read back, sealed at rest (AES-256-GCM): authenticator-app secrets (issue 29), single-sign-on
 * client secrets (issue 45), webhook signing secrets (issue 46). One set of keys seals them all: SECRET_KEY
 * (TWO_STEP_SECRET_KEY, its former name, is read too), required outside demo mode, newest first — the first seals,
 * each opens what it sealed, so keys rotate by putting a new one first. In demo mode one key is generated once and kept
 * in the database (a key beside what it seals protects nothing against a copy of the database: demo only).
 *
 * Each use (`purpose`) seals under its own key, derived from the configured one (HKDF-SHA256), and may bind the value
 * to its row (`context`, the additional data): a value copied onto another row or read as another use does not open.
 * The authenticator app's purpose uses the key itself, as it did before the others existed.
 *
 * Sealed form: `v2.<key id>.<iv>.<tag>.<ciphertext>`, base64url; `v1.<iv>.<tag>.<ciphertext>` (before key ids) opens
 * with the newest key.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import { serverSecret } from './serverSecrets.js';

/** Where the keys come from: the configured keys (newest first), or in demo mode the database's. */
export interface SecretKeys {
  db: Db;
  configuredKeys: readonly Buffer[] | undefined;
}

export type SealPurpose = 'authenticatorApp' | 'ssoClientSecret' | 'webhookSecret';

interface SealingKey {
  id: string;
  key: Buffer;
}

/** A key's id, stored with what it sealed so that keys can be rotated: the first characters of its hash. */
const keyIdOf = (key: Buffer) => createHash('sha256').update(key).digest('base64url').slice(0, 8);

const derived = (key: Buffer, purpose: SealPurpose) => (purpose === 'authenticatorApp' ? key : Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `corporate-admin-portal ${purpose}`, 32)));

async function sealingKeys(keys: SecretKeys, purpose: SealPurpose): Promise<SealingKey[]> {
  const all = keys.configuredKeys ?? [Buffer.from(await serverSecret(keys.db, 'twoStepSecretKey'), 'base64url')];
  return all.map((key) => ({ id: keyIdOf(key), key: derived(key, purpose) }));
}

/** `text` sealed with the newest key for `purpose`, bound to `context` (e.g. the row's id). */
export async function sealSecret(keys: SecretKeys, purpose: SealPurpose, text: string, context = ''): Promise<string> {
  const [newest] = await sealingKeys(keys, purpose);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', newest!.key, iv).setAAD(Buffer.from(context, 'utf8'));
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return ['v2', newest!.id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** Opens what `sealSecret` sealed with the same purpose and context; throws when no key can or it was altered. */
export async function openSecret(keys: SecretKeys, purpose: SealPurpose, stored: string, context = ''): Promise<string> {
  const parts = stored.split('.');
  if (!((parts[0] === 'v2' && parts.length === 5) || (parts[0] === 'v1' && parts.length === 4))) throw new Error('not a sealed secret');
  const [iv, tag, sealed] = parts.slice(-3) as [string, string, string];
  const known = await sealingKeys(keys, purpose);
  const sealer = parts[0] === 'v2' ? known.find((candidate) => candidate.id === parts[1]) : known[0];
  if (!sealer) throw new Error('the key that sealed this secret is not configured (SECRET_KEY)');
  // the tag's length fixed: a shortened tag would be easier to forge
  const decipher = createDecipheriv('aes-256-gcm', sealer.key, Buffer.from(iv, 'base64url'), { authTagLength: 16 }).setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
