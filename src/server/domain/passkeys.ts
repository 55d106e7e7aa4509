/**
 * Passkeys (issue 29): an admin's WebAuthn credentials, through @simplewebauthn/server. A passkey is discoverable
 * (resident) and always used with user verification (a PIN or a fingerprint on the device), so a sign-in with one
 * alone is two factors — something held, something known or been (RFC 8176 `hwk`, `user`, `mfa`).
 *
 * Every ceremony has its challenge stored here and used once: a registration's under the admin, a sign-in's under the
 * provider's interaction. The relying party is the portal's own host (PUBLIC_URL): a passkey made for it works on it
 * alone.
 */
import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, AuthenticatorTransportFuture, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../db/index.js';
import type { AuditTrail } from './audit.js';

/** How long a ceremony may take (the browser's dialog included). */
const CEREMONY_SECONDS = 5 * 60;
const RP_NAME = 'Corporate Admin Portal';

/** The portal as a relying party: its host and origin (from PUBLIC_URL). */
export interface RelyingParty {
  db: Db;
  publicUrl: string;
}

const rpOf = (rp: RelyingParty) => ({ rpID: new URL(rp.publicUrl).hostname, origin: new URL(rp.publicUrl).origin });

/** A passkey as Sign-in security lists it. */
export interface PasskeyView {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function listPasskeys(db: Db, adminId: number): Promise<PasskeyView[]> {
  const rows = await db.selectFrom('adminPasskeys').select(['id', 'name', 'createdAt', 'lastUsedAt']).where('adminId', '=', adminId).orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, createdAt: new Date(row.createdAt).toISOString(), lastUsedAt: row.lastUsedAt && new Date(row.lastUsedAt).toISOString() }));
}

async function saveChallenge(db: Db, key: string, challenge: string): Promise<void> {
  const expiresAt = new Date(Date.now() + CEREMONY_SECONDS * 1000);
  await db
    .insertInto('webauthnChallenges')
    .values({ key, challenge, expiresAt })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ challenge, expiresAt }))
    .execute();
}

/** The ceremony's challenge, taken (a second answer to it finds none). */
async function takeChallenge(db: Db, key: string): Promise<string | undefined> {
  const row = await db.deleteFrom('webauthnChallenges').where('key', '=', key).where('expiresAt', '>', new Date()).returning('challenge').executeTakeFirst();
  return row?.challenge;
}

/** A browser's answer to a ceremony, posted as JSON text (no key conversion may touch it); undefined when it is no object. */
export function credentialOf(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Registration (Sign-in security)

const registrationKey = (adminId: number) => `registration:${adminId}`;

/** The options of a new passkey for the admin: discoverable, user verification required, none of theirs again. */
export async function registrationOptions(rp: RelyingParty, admin: { id: number; email: string }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await rp.db.selectFrom('adminPasskeys').select(['credentialId', 'transports']).where('adminId', '=', admin.id).execute();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rpOf(rp).rpID,
    userName: admin.email,
    userID: new TextEncoder().encode(String(admin.id)),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransportFuture[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  await saveChallenge(rp.db, registrationKey(admin.id), options.challenge);
  return options;
}

/** Verifies the browser's new credential against the admin's open registration and keeps it; undefined when it fails. */
export async function addPasskey(rp: RelyingParty, admin: { id: number; email: string }, input: { name: string; response: RegistrationResponseJSON }, trail: AuditTrail): Promise<PasskeyView | undefined> {
  const expectedChallenge = await takeChallenge(rp.db, registrationKey(admin.id));
  if (!expectedChallenge) return undefined;
  const { rpID, origin } = rpOf(rp);
  const verification = await verifyRegistrationResponse({ response: input.response, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: true }).catch(() => undefined);
  if (!verification?.verified) return undefined;
  const { credential } = verification.registrationInfo;
  const row = await rp.db.transaction().execute(async (trx) => {
    const stored = await trx
      .insertInto('adminPasskeys')
      .values({
        adminId: admin.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name: input.name,
      })
      .onConflict((conflict) => conflict.column('credentialId').doNothing())
      .returning(['id', 'name', 'createdAt', 'lastUsedAt'])
      .executeTakeFirst();
    if (stored) await trail.record(trx, { action: 'account.twoStepAdded', target: { type: 'admin', id: admin.id, label: admin.email }, changes: { factor: { before: null, after: 'passkey' } } });
    return stored;
  });
  return row && { id: row.id, name: row.name, createdAt: new Date(row.createdAt).toISOString(), lastUsedAt: null };
}

/** Renames one of the admin's passkeys; false when they have no such passkey. */
export async function renamePasskey(db: Db, adminId: number, id: number, name: string): Promise<boolean> {
  const renamed = await db.updateTable('adminPasskeys').set({ name }).where('adminId', '=', adminId).where('id', '=', id).returning('id').executeTakeFirst();
  return renamed !== undefined;
}

/** Removes one of the admin's passkeys; false when they have no such passkey. */
export async function removePasskey(db: Db, admin: { id: number; email: string }, id: number, trail: AuditTrail): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const removed = await trx.deleteFrom('adminPasskeys').where('adminId', '=', admin.id).where('id', '=', id).returning('name').executeTakeFirst();
    if (removed) await trail.record(trx, { action: 'account.twoStepRemoved', target: { type: 'admin', id: admin.id, label: admin.email }, changes: { factor: { before: 'passkey', after: null } } });
    return removed !== undefined;
  });
}

// ---------------------------------------------------------------------------------------------------
// Sign-in (the provider's pages)

const signInKey = (interactionUid: string) => `signin:${interactionUid}`;

/**
 * The options of a sign-in with a passkey for the provider's interaction: the admin's passkeys after their password
 * (the second step), or any passkey of this site (a discoverable credential: the sign-in without a password).
 */
export async function signInOptions(rp: RelyingParty, interactionUid: string, adminId?: number): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allowed = adminId === undefined ? [] : await rp.db.selectFrom('adminPasskeys').select(['credentialId', 'transports']).where('adminId', '=', adminId).execute();
  const options = await generateAuthenticationOptions({
    rpID: rpOf(rp).rpID,
    userVerification: 'required',
    allowCredentials: allowed.map((row) => ({ id: row.credentialId, transports: row.transports as AuthenticatorTransportFuture[] })),
  });
  await saveChallenge(rp.db, signInKey(interactionUid), options.challenge);
  return options;
}

/**
 * The admin a passkey's answer proves, for the interaction's open ceremony (and, after a password, only that admin's
 * passkey); undefined when it proves nothing. The passkey's signature counter and last use are kept.
 */
export async function verifySignIn(rp: RelyingParty, interactionUid: string, response: AuthenticationResponseJSON, adminId?: number): Promise<number | undefined> {
  const expectedChallenge = await takeChallenge(rp.db, signInKey(interactionUid));
  if (!expectedChallenge || typeof response?.id !== 'string') return undefined;
  const passkey = await rp.db.selectFrom('adminPasskeys').selectAll().where('credentialId', '=', response.id).executeTakeFirst();
  if (!passkey || (adminId !== undefined && passkey.adminId !== adminId)) return undefined;
  const { rpID, origin } = rpOf(rp);
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: true,
    credential: { id: passkey.credentialId, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: Number(passkey.counter), transports: passkey.transports as AuthenticatorTransportFuture[] },
  }).catch(() => undefined);
  if (!verification?.verified) return undefined;
  await rp.db.updateTable('adminPasskeys').set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() }).where('id', '=', passkey.id).execute();
  return passkey.adminId;
}
