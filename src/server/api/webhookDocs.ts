/**
 * The webhook events in the OpenAPI document (issue 46 item 5; OpenAPI 3.1 `webhooks`): for each event type of the one
 * list (common/webhookEvents.ts) the POST an endpoint receives — the Standard Webhooks headers and the body
 * `{type, timestamp, data}` with that event's data, as domain/webhookOutbox.ts writes it (snake_case).
 */
import { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT, type WebhookEventType } from '../../common/webhookEvents.js';

const integer = { type: 'integer' } as const;
const text = { type: 'string' } as const;
const date = { type: 'string', format: 'date' } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required: Object.keys(properties), properties });

const application = { organization_id: integer, request_code: { ...text, description: 'the application (GET organizations/{orgId}/corporate_subscriptions/{requestCode})' } };
const admin = { organization_id: integer, admin_id: integer, email: text, role: { type: 'string', enum: ['manager', 'member'] } };

/** Each event's `data`. */
export const WEBHOOK_EVENT_DATA: Record<WebhookEventType | typeof WEBHOOK_TEST_EVENT, ReturnType<typeof object>> = {
  'corporate_subscription.created': object(application),
  'corporate_subscription.updated': object(application),
  'corporate_subscription.confirmed': object({ ...application, starts_on: date, change_deadline: { ...date, description: 'the change deadline that passed' } }),
  'corporate_subscription.cancelled': object(application),
  'learners.updated': object({
    organization_id: integer,
    count: { ...integer, description: 'how many learners changed' },
    learner_ids: { type: 'array', items: integer, maxItems: 100, description: 'the first 100 of them; read the rest with updated_since' },
  }),
  'deadline.approaching': object({ ...application, starts_on: date, change_deadline: date, business_days_left: integer }),
  'admin.invited': object(admin),
  'admin.joined': object(admin),
  'admin.removed': object(admin),
  [WEBHOOK_TEST_EVENT]: object({ organization_id: integer, endpoint_id: { type: 'string', format: 'uuid' } }),
};

const header = (description: string) => ({ required: true, schema: { type: 'string' }, description });

/** The document's `webhooks`: one POST per event type. */
export function webhookDocuments(): Record<string, unknown> {
  const types: ReadonlyArray<keyof typeof WEBHOOK_EVENT_DATA> = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT];
  return Object.fromEntries(
    types.map((type) => [
      type,
      {
        post: {
          tags: ['Webhooks'],
          summary: `${type}: POSTed to the endpoints that subscribe to it (Standard Webhooks; retried until a 2xx answer)`,
          parameters: [
            { in: 'header', name: 'webhook-id', ...header("the event's id (msg_…): the same on every attempt and resend — drop repeats by it") },
            { in: 'header', name: 'webhook-timestamp', ...header('seconds since the epoch, when this attempt was signed') },
            { in: 'header', name: 'webhook-signature', ...header('v1,<base64 HMAC-SHA256 of "id.timestamp.body" under the endpoint secret\'s key (whsec_<base64>)>') },
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: object({ type: { type: 'string', const: type }, timestamp: { type: 'string', format: 'date-time' }, data: WEBHOOK_EVENT_DATA[type] }) } },
          },
          responses: { '2XX': { description: 'Delivered' }, default: { description: 'Not delivered: retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then the endpoint is turned off' } },
        },
      },
    ]),
  );
}
