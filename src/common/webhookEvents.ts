/**
 * The events an organisation's webhook endpoints subscribe to (issue 46 item 5): the one list, shared by the server
 * (the routes' schemas, the outbox) and the browser (the Webhooks page's choices and words: locales/*\/webhooks.json).
 */
export const WEBHOOK_EVENT_TYPES = [
  'corporate_subscription.created',
  'corporate_subscription.updated',
  'corporate_subscription.confirmed',
  'corporate_subscription.cancelled',
  'learners.updated',
  'deadline.approaching',
  'admin.invited',
  'admin.joined',
  'admin.removed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event 'Send test event' delivers: to one endpoint, whatever it subscribes to (never in an outbox). */
export const WEBHOOK_TEST_EVENT = 'webhook_endpoint.test';

export function isWebhookEventType(value: unknown): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(value);
}
