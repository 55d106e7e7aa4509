/**
 * Just-in-time creation of members (issue 45, a connection's option, off by default): the IdP signed in an address at
 * a verified domain routed to the connection, and the portal has no admin at that address. The admin is created
 * activated without a password (they sign in through the IdP) with the affiliation to the connection's organisation as
 * a member — never a manager — and the trail's entry, in one transaction.
 *
 * Only an address no admin has: an admin of another organisation (or one removed from every organisation) is not
 * added by the IdP's word alone; a manager invites them as before. Two first sign-ins at once create one admin: the
 * second finds the first's once it has committed, or is refused.
 *
 * The names come from the IdP's family and given names where the connection maps them and the admin name's rules
 * (schemas/admin-name.json) accept them; else from the e-mail's local part (taro.yamada: 太郎 is not guessed, 'taro'
 * and 'yamada' are), which the rules accept. Kana names: the name when it is phonetic (Latin letters), else the same
 * Latin default. The admin corrects them in My Account.
 */
import type { AffiliationRole } from '../db/types.js';
import type { Db } from '../db/index.js';
import type { AuditTrail } from '../domain/audit.js';
import { adminEventData, recordWebhookEvent } from '../domain/webhookOutbox.js';
import { validateForm } from '../api/validation.js';

export interface ProvisionedName {
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
}

/** The role a created admin gets (issue 45: members, never managers). */
const PROVISIONED_ROLE: AffiliationRole = 'member';
const NAME_LENGTH = 50;

/** Whether the admin name's rule (the form's field) accepts `value` for `field`. */
const accepted = (field: keyof ProvisionedName, value: string) => !(validateForm('admin-name', { lastName: 'a', firstName: 'a', kanaLastName: 'a', kanaFirstName: 'a', [field]: value }) ?? []).length;

/** The IdP's name when the rule takes it (spaces tidied), else undefined. */
function fromIdp(field: keyof ProvisionedName, value: string | undefined): string | undefined {
  const tidy = value?.normalize('NFC').replace(/\s+/g, ' ').trim();
  return tidy && [...tidy].length <= NAME_LENGTH && accepted(field, tidy) ? tidy : undefined;
}

/** Names from the e-mail's local part: its first word the given name, the rest the family name ('Admin' when none). */
function fromEmail(email: string): { family: string; given: string } {
  const words = (email.split('@')[0] ?? '').split(/[^A-Za-z0-9]+/).filter(Boolean).map((word) => word.slice(0, NAME_LENGTH));
  if (words.length === 0) return { family: 'Admin', given: 'Admin' };
  return { given: words[0]!, family: words.length > 1 ? words.slice(1).join(' ').slice(0, NAME_LENGTH).trim() : words[0]! };
}

export function provisionedName(email: string, idp: { familyName?: string; givenName?: string }): ProvisionedName {
  const fallback = fromEmail(email);
  const lastName = fromIdp('lastName', idp.familyName) ?? fallback.family;
  const firstName = fromIdp('firstName', idp.givenName) ?? fallback.given;
  return {
    lastName,
    firstName,
    kanaLastName: accepted('kanaLastName', lastName) ? lastName : fallback.family,
    kanaFirstName: accepted('kanaFirstName', firstName) ? firstName : fallback.given,
  };
}

/**
 * Creates the admin at `email` (activated, no password) with the member's affiliation to `organizationId`, recorded
 * by `trail` naming the connection; undefined when an admin has the address already (nothing created).
 */
export async function provisionMember(
  db: Db,
  input: { email: string; organizationId: number; connection: { id: string; name: string }; name: ProvisionedName },
  trail: AuditTrail,
): Promise<{ id: number; email: string } | undefined> {
  return db.transaction().execute(async (trx) => {
    const admin = await trx
      .insertInto('admins')
      .values({ email: input.email, ...input.name, activatedAt: new Date() })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returning(['id', 'email'])
      .executeTakeFirst();
    if (!admin) return undefined;
    await trx.insertInto('affiliations').values({ adminId: admin.id, organizationId: input.organizationId, role: PROVISIONED_ROLE }).execute();
    await trail.record(trx, {
      action: 'membership.provisioned',
      target: { type: 'admin', id: admin.id, label: admin.email },
      changes: { role: { before: null, after: PROVISIONED_ROLE }, ssoConnection: { before: null, after: `${input.connection.name} (${input.connection.id})` } },
    });
    await recordWebhookEvent(trx, input.organizationId, 'admin.joined', adminEventData(admin, PROVISIONED_ROLE));
    return admin;
  });
}
