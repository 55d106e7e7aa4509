/**
 * Public ids (issue 25 finding 6): the ids of contacts, billing contacts, corporate subscriptions, their learner rows
 * and audit events come from sequences shared by every organisation, so the numbers themselves would tell one customer
 * how many records all the others made. Every answer shows, and every path, body, query and cursor takes, a keyed
 * permutation of the stored id instead; the database keeps its own ids and nothing else changes.
 *
 * Why a permutation at the wire rather than a number per organisation in the database: it needs no migration, no
 * per-organisation counter (which every write of an organisation, and the trail's one-statement fan-out, would have to
 * lock), and no translation of the foreign keys; a deleted record's number is never given again; and the trail keeps
 * the ids it recorded, shown through the same permutation, so entries show the id the API shows.
 *
 * The permutation is a Feistel network (AES-128 as its round function) over 31 bits for the `integer` columns (1..MAX_ID:
 * a public id fits the schemas and the columns) and over 48 bits for the `bigint` audit event ids (safe integers). Its key is a server secret (domain/serverSecrets.ts), one per kind derived from it, so the same
 * stored number is a different public number in each table. The key must never change: every public id would.
 *
 * An id of another organisation, or any other number, decodes to some stored id the organisation does not have, so it
 * answers exactly as an unknown id always did (404, a field error).
 */
import { createCipheriv, createHmac, type Cipher } from 'node:crypto';
import type { AuditTargetType } from '../../common/auditActions.js';
import type { Db } from '../db/index.js';
import { serverSecret } from './serverSecrets.js';

/** The largest `integer` id (the columns and the schemas' bound). */
const MAX_INT_ID = 2 ** 31 - 1;
/** The largest audit event id shown (a `bigint` column, shown as text; far beyond any trail's count). */
const MAX_EVENT_ID = 2 ** 48;
const ROUNDS = 8;
/** The public ids a codec keeps at hand (a few MB at most). */
const REMEMBERED_IDS = 65_536;

export type IdKind = 'contact' | 'billingContact' | 'subscription' | 'learner' | 'auditEvent';

/** One kind's permutation of 1..max. */
export interface IdCodec {
  /** The public id of a stored id (0, 'none', stays 0). */
  toPublic(id: number): number;
  /** The stored id of a public id; undefined when it is no public id at all (not an integer of 1..max). */
  toStored(publicId: number): number | undefined;
}

export type PublicIds = Readonly<Record<IdKind, IdCodec>>;

/**
 * An alternating Feistel network (FF1's structure: halves of `bits` / 2 rounded down and up) over `bits` bits, with
 * AES-128 as its round function, cycle-walked into 0..max-1 (stepping on until the value is in the domain keeps it a
 * permutation of the domain).
 */
function feistelCodec(key: Buffer, bits: number, max: number): IdCodec {
  const cipher: Cipher = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false);
  const block = Buffer.alloc(16);
  const round = (index: number, value: number, bitsOut: number): number => {
    block.writeUInt8(index, 0);
    block.writeUIntBE(value, 1, 6);
    return cipher.update(block).readUIntBE(0, 6) % 2 ** bitsOut;
  };
  const u = Math.floor(bits / 2);
  const v = bits - u;
  // A has the high u bits, B the low v; each round the half of m bits becomes the other's, changed
  const roundBits = (index: number) => (index % 2 === 0 ? u : v);
  const encrypt = (x: number): number => {
    let [a, b] = [Math.floor(x / 2 ** v), x % 2 ** v];
    for (let index = 0; index < ROUNDS; index += 1) [a, b] = [b, xor(a, round(index, b, roundBits(index)))];
    return a * 2 ** v + b;
  };
  const decrypt = (x: number): number => {
    let [a, b] = [Math.floor(x / 2 ** v), x % 2 ** v];
    for (let index = ROUNDS - 1; index >= 0; index -= 1) [a, b] = [xor(b, round(index, a, roundBits(index))), a];
    return a * 2 ** v + b;
  };
  const walk = (step: (x: number) => number, x: number): number => {
    let y = step(x);
    while (y >= max) y = step(y);
    return y;
  };
  const isId = (value: number) => Number.isSafeInteger(value) && value >= 1 && value <= max;
  // the ids a list shows again and again (a page of 999 applications, its contacts): eight AES blocks each otherwise
  const remembered = new Map<number, number>();
  return {
    toPublic: (id) => {
      if (id === 0) return 0;
      let publicId = remembered.get(id);
      if (publicId !== undefined) return publicId;
      if (!isId(id)) throw new RangeError(`id ${id} is beyond the public ids`);
      publicId = walk(encrypt, id - 1) + 1;
      if (remembered.size >= REMEMBERED_IDS) remembered.clear();
      remembered.set(id, publicId);
      return publicId;
    },
    toStored: (publicId) => (isId(publicId) ? walk(decrypt, publicId - 1) + 1 : undefined),
  };
}

/** XOR of two numbers below 2^48 (JavaScript's ^ takes 32 bits). */
function xor(x: number, y: number): number {
  const high = 2 ** 24;
  return ((Math.floor(x / high) ^ Math.floor(y / high)) >>> 0) * high + (((x % high) ^ (y % high)) >>> 0);
}

/** The codecs of a key (32 bytes): each kind's AES key derived from it. */
export function publicIdsOf(secret: Buffer): PublicIds {
  const codec = (kind: IdKind, bits: number, max: number) => feistelCodec(createHmac('sha256', secret).update(`public id: ${kind}`).digest().subarray(0, 16), bits, max);
  return {
    contact: codec('contact', 31, MAX_INT_ID),
    billingContact: codec('billingContact', 31, MAX_INT_ID),
    subscription: codec('subscription', 31, MAX_INT_ID),
    learner: codec('learner', 31, MAX_INT_ID),
    auditEvent: codec('auditEvent', 48, MAX_EVENT_ID),
  };
}

/** The database's codecs: the key is the server secret every instance on it shares. */
export async function loadPublicIds(db: Db): Promise<PublicIds> {
  return publicIdsOf(Buffer.from(await serverSecret(db, 'public_ids'), 'base64url'));
}

// ---------------------------------------------------------------------------------------------------
// The records that carry such ids, as answered and as sent

/** A contact or billing contact as answered. */
export function publicContact<Record extends { id: number }>(codec: IdCodec, record: Record): Record {
  return { ...record, id: codec.toPublic(record.id) };
}

interface SubscriptionIds {
  id: number;
  users?: Array<{ id: number }>;
  billingContactId?: number | null;
  contactId?: number | null;
  billingContact?: { id: number } | null;
  contact?: { id: number } | null;
}

const publicOrNull = (codec: IdCodec, id: number | null | undefined) => (id === null || id === undefined ? id : codec.toPublic(id));

/** An application (summary or detail) as answered: its id, its learner rows', its contacts'. */
export function publicSubscription<Subscription extends SubscriptionIds>(ids: PublicIds, subscription: Subscription): Subscription {
  const shown: SubscriptionIds = { ...subscription, id: ids.subscription.toPublic(subscription.id) };
  if (subscription.users) shown.users = subscription.users.map((user) => ({ ...user, id: ids.learner.toPublic(user.id) }));
  if (subscription.billingContactId !== undefined) shown.billingContactId = publicOrNull(ids.billingContact, subscription.billingContactId);
  if (subscription.contactId !== undefined) shown.contactId = publicOrNull(ids.contact, subscription.contactId);
  if (subscription.billingContact) shown.billingContact = publicContact(ids.billingContact, subscription.billingContact);
  if (subscription.contact) shown.contact = publicContact(ids.contact, subscription.contact);
  return shown as Subscription;
}

/** A stored id for a public one in a body: a number that is no public id becomes 0, which no record has. */
const storedOr0 = (codec: IdCodec, id: number) => codec.toStored(id) ?? 0;

/** An application form as sent (validated), with the stored ids of its contacts and learner rows. */
export function storedSubscriptionForm<Form extends { users: Array<{ id?: number }>; billingContactId?: number; contactId?: number }>(ids: PublicIds, form: Form): Form {
  const stored = { ...form, users: form.users.map((user) => (user.id === undefined ? user : { ...user, id: storedOr0(ids.learner, user.id) })) };
  if (form.billingContactId !== undefined) stored.billingContactId = storedOr0(ids.billingContact, form.billingContactId);
  if (form.contactId !== undefined) stored.contactId = storedOr0(ids.contact, form.contactId);
  return stored;
}

/** The trail's targets whose ids are such ids (the others — admins, requestCodes, learners of the Users page — are shown as recorded). */
const CODED_TARGETS: Partial<Record<AuditTargetType, IdKind>> = { contact: 'contact', billingContact: 'billingContact' };

/** A trail entry's target id as answered. */
export function publicTargetId(ids: PublicIds, type: AuditTargetType, recorded: string): string {
  const kind = CODED_TARGETS[type];
  if (!kind) return recorded;
  const id = /^\d{1,10}$/.test(recorded) ? Number(recorded) : 0;
  return id >= 1 && id <= MAX_INT_ID ? String(ids[kind].toPublic(id)) : recorded;
}

/** The id a target of `type` is recorded by, given its id as answered; undefined when there is none (a coded type's id that is no public id). */
export function recordedTargetId(ids: PublicIds, type: AuditTargetType, given: string): string | undefined {
  const kind = CODED_TARGETS[type];
  if (!kind) return given;
  const stored = /^\d{1,16}$/.test(given) ? ids[kind].toStored(Number(given)) : undefined;
  return stored === undefined ? undefined : String(stored);
}

/**
 * The (type, recorded id) pairs a target id filter matches: as given for the targets shown as recorded, the stored id
 * for the coded ones (none when it is no public id).
 */
export function recordedTargetIds(ids: PublicIds, given: string): { codedTypes: AuditTargetType[]; coded: Array<{ type: AuditTargetType; id: string }> } {
  const codedTypes = Object.keys(CODED_TARGETS) as AuditTargetType[];
  const coded = codedTypes.flatMap((type) => {
    const id = recordedTargetId(ids, type, given);
    return id === undefined ? [] : [{ type, id }];
  });
  return { codedTypes, coded };
}
