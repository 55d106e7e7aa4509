/**
 * GET organizations/{orgId}/audit_events (issue 21): the organisation's audit trail, newest first, a page at a time.
 * Changes are a list of {field, before, after} (not an object keyed by field: keys travel snake_cased, values do not).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../auditActions.js';
import { objectOf, PUBLIC_ID } from './answers.js';

/**
 * A value before or after a change: whatever the field held (text, a number, a list of ids), null when absent. Both
 * null: a field of personal data (a name, an e-mail, a phone number, an address, a nameId) changed, and the trail does
 * not keep its values.
 */
const changeValue = {} as const;

export const auditEventSchema = objectOf({
  id: { type: 'string', description: PUBLIC_ID },
  occurredAt: { type: 'string', format: 'date-time' },
  actor: objectOf({
    adminId: { type: ['integer', 'null'] },
    email: { type: 'string' },
    apiClientName: { type: ['string', 'null'], description: 'an API client acting (issue 46): its name at the time; null for an admin' },
  }),
  action: { type: 'string', enum: AUDIT_ACTIONS },
  target: objectOf({
    type: { type: 'string', enum: AUDIT_TARGET_TYPES },
    id: { type: 'string', description: "the target's id as the API shows it (a contact's: its public id; an application's: its requestCode)" },
    label: { type: 'string' },
  }),
  changes: { type: 'array', items: objectOf({ field: { type: 'string' }, before: changeValue, after: changeValue }) },
});
export type AuditEvent = FromSchema<typeof auditEventSchema>;

export const auditEventsAnswerSchema = objectOf({
  auditEvents: { type: 'array', items: auditEventSchema },
  /** The cursor of the next (older) page; null on the last page. */
  nextCursor: { type: ['string', 'null'], description: 'opaque: pass it back as the cursor' },
});
export type AuditEventsAnswer = FromSchema<typeof auditEventsAnswerSchema>;
