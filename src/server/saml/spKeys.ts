/**
 * The portal's own SAML service-provider key pair and its self-signed certificate (issue 45): it signs AuthnRequests
 * and is published in every connection's SP metadata. Generated once and kept in the database like the other server
 * secrets (server_secrets, domain/serverSecrets.ts), so every instance signs with the same key and a restart keeps
 * it; two instances creating it at once agree on the first one stored. Node's crypto cannot issue a certificate:
 * `selfsigned` does (RSA 2048, SHA-256).
 */
import { generate } from 'selfsigned';
import { onceByKey } from '../../common/onceByKey.js';
import type { Db } from '../db/index.js';

const SECRET_NAME = 'saml_sp_key';
/** The certificate's lifetime: IdPs take the SP's certificate as a key holder, not as a trust anchor; a rollover is a new row. */
const CERTIFICATE_YEARS = 10;

export interface SpKeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** The certificate, PEM. */
  certificate: string;
}

const cache = new WeakMap<Db, Promise<SpKeyPair>>();

async function newKeyPair(): Promise<SpKeyPair> {
  const notBeforeDate = new Date();
  const notAfterDate = new Date(notBeforeDate);
  notAfterDate.setUTCFullYear(notAfterDate.getUTCFullYear() + CERTIFICATE_YEARS);
  const pems = await generate([{ name: 'commonName', value: 'Corporate admin portal SAML service provider' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true }],
  });
  return { privateKey: pems.private, certificate: pems.cert };
}

async function loadOrCreate(db: Db): Promise<SpKeyPair> {
  const stored = await db.selectFrom('serverSecrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirst();
  if (stored) return JSON.parse(stored.value) as SpKeyPair;
  const created = await newKeyPair();
  // two instances at once: one insert wins, both read the winner
  await db.insertInto('serverSecrets').values({ name: SECRET_NAME, value: JSON.stringify(created) }).onConflict((conflict) => conflict.column('name').doNothing()).execute();
  const row = await db.selectFrom('serverSecrets').select('value').where('name', '=', SECRET_NAME).executeTakeFirstOrThrow();
  return JSON.parse(row.value) as SpKeyPair;
}

/** The SP's key pair, created by the first instance that asks. */
export function spKeyPair(db: Db): Promise<SpKeyPair> {
  return onceByKey(cache, db, () => loadOrCreate(db));
}
