/**
 * SPEC §7 'Subscription payload rules': the body the application wizards send (dry run and real run alike) from the
 * form's data. One pure function, table-tested (test/common/subscriptionPayload.test.ts).
 */
import { startsOnAsSent } from './subscriptionRules.js';

/** The learner fields of a row (SPEC §5 'Learner rows'). */
const LEARNER_FIELDS = ['firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'] as const;

export interface SubscriptionPayloadOptions {
  /** create: the new wizard (POST); update: the edit wizard (PATCH). */
  mode: 'create' | 'update';
  /** The edited application's contact ids as loaded (SPEC §3 'Snapshot'); only for update. */
  snapshot?: { contactId?: unknown; billingContactId?: unknown };
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A learner row as sent: its id when it has one (an existing learner), none for a new row; no local keys. */
function learnerRow(row: Record<string, unknown>): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  if (typeof row.id === 'number' && row.id > 0) sent.id = row.id;
  for (const field of LEARNER_FIELDS) sent[field] = typeof row[field] === 'string' ? (row[field] as string).trim() : (row[field] ?? '');
  return sent;
}

export function subscriptionPayload(data: Record<string, unknown>, options: SubscriptionPayloadOptions): Record<string, unknown> {
  const payload: Record<string, unknown> = { ...data };
  if (typeof data.startsOn === 'string') payload.startsOn = startsOnAsSent(data.startsOn);
  const projectClassId = typeof data.projectClassId === 'number' ? data.projectClassId : 0;
  // 0 means none and is sent as null (SPEC §7); the server reads null as 0 before the form schema
  payload.projectClassId = projectClassId > 0 ? projectClassId : null;
  if (projectClassId > 0) {
    // a class brings its own billing and delivery: neither contact can be given
    delete payload.billingContactId;
    delete payload.contactId;
    if (options.mode === 'update') delete payload.billingNote;
  }
  if (options.mode === 'update' && options.snapshot) {
    if ('contactId' in payload && payload.contactId === options.snapshot.contactId) delete payload.contactId;
    if ('billingContactId' in payload && payload.billingContactId === options.snapshot.billingContactId) delete payload.billingContactId;
  }
  if (Array.isArray(data.users)) {
    // rows with all five fields blank are dropped (SPEC §5)
    payload.users = (data.users as Array<Record<string, unknown>>)
      .filter((row) => row !== null && typeof row === 'object' && !LEARNER_FIELDS.every((field) => isBlank(row[field])))
      .map(learnerRow);
  }
  return payload;
}
