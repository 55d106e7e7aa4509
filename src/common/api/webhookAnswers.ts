/**
 * The organisation's webhook endpoints and their deliveries (issue 46 item 5), as
 * organizations/{orgId}/webhook_endpoints answers them (managers). The signing secret is answered once, beside the
 * endpoint, when it is made: never again.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { WEBHOOK_EVENT_TYPES } from '../webhookEvents.js';
import { envelope, objectOf } from './answers.js';

const etag = { type: 'string', description: "the record's version (its ETag): send it in If-Match to change the record as you saw it" } as const;
const timeOrNull = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

export const webhookEndpointSchema = objectOf({
  id: { type: 'string', format: 'uuid' },
  url: { type: 'string', description: 'where the events are POSTed' },
  events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENT_TYPES }, description: 'the event types sent to it' },
  disabledAt: timeOrNull('when it stopped sending (a delivery failed its whole retry schedule, or a manager turned it off); null: sending'),
  createdAt: { type: 'string', format: 'date-time' },
  updatedAt: { type: 'string', format: 'date-time' },
  etag,
});
export type WebhookEndpoint = FromSchema<typeof webhookEndpointSchema>;

/** The list, with the event types an endpoint may subscribe to (the one list: the Webhooks page offers them). */
export const webhookEndpointsAnswerSchema = objectOf({
  webhookEndpoints: { type: 'array', items: webhookEndpointSchema },
  eventTypes: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENT_TYPES }, description: 'every event type there is' },
});
export type WebhookEndpointsAnswer = FromSchema<typeof webhookEndpointsAnswerSchema>;
export const webhookEndpointAnswerSchema = envelope('webhookEndpoint', webhookEndpointSchema);
export type WebhookEndpointAnswer = FromSchema<typeof webhookEndpointAnswerSchema>;
/** A new endpoint: its signing secret this once. */
export const webhookEndpointWithSecretAnswerSchema = objectOf({
  webhookEndpoint: webhookEndpointSchema,
  secret: { type: 'string', description: "the signing secret (Standard Webhooks' whsec_<base64>), shown this once: keep it now" },
});
export type WebhookEndpointWithSecretAnswer = FromSchema<typeof webhookEndpointWithSecretAnswerSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

export const webhookDeliverySchema = objectOf({
  id: { type: 'string', format: 'uuid' },
  eventId: { type: 'string', description: 'the event\'s id: its webhook-id header, the same on every attempt and resend' },
  eventType: { type: 'string' },
  status: { type: 'string', enum: WEBHOOK_DELIVERY_STATUSES, description: 'pending (being sent or retried), succeeded (answered 2xx), failed (its retry schedule ran out)' },
  attempts: { type: 'integer' },
  responseStatus: { type: ['integer', 'null'], description: "the last attempt's answer status; null: no answer (refused, timed out)" },
  responseMs: { type: ['integer', 'null'], description: 'how long the last attempt took, ms' },
  lastError: { type: ['string', 'null'] },
  lastAttemptAt: timeOrNull('null: not tried yet'),
  createdAt: { type: 'string', format: 'date-time' },
});
export type WebhookDelivery = FromSchema<typeof webhookDeliverySchema>;

export const webhookDeliveriesAnswerSchema = objectOf({
  deliveries: { type: 'array', items: webhookDeliverySchema },
  nextCursor: { type: ['string', 'null'], description: 'the next (older) page: send it as cursor; null: this is the last' },
});
export type WebhookDeliveriesAnswer = FromSchema<typeof webhookDeliveriesAnswerSchema>;
