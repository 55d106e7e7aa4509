/**
 * The webhooks' outbox (issue 46 item 5): an event is written in the transaction of the change that causes it, with a
 * delivery to each of the organisation's sending endpoints that subscribe to its type and a job of the queue for each
 * (mail/queue.ts, kind `webhook_delivery`). The change, its event and the jobs commit together or not at all, so an
 * event is never lost when the process dies after the commit: another instance takes the jobs over (at least once).
 *
 * An event is Standard Webhooks' payload `{type, timestamp, data}`; its id (`msg_…`) is the `webhook-id` of every
 * attempt and resend, so a receiver can drop a repeat. `data` names what changed; the integration reads the rest
 * through the API.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { toSnakeKey } from '../../common/keyCase.js';
import { WEBHOOK_TEST_EVENT, type WebhookEventType } from '../../common/webhookEvents.js';
import type { Db } from '../db/index.js';
import type { AuditTrail } from './audit.js';
import { enqueueJob } from '../mail/queue.js';

/** The queue's job kind of one delivery. */
export const WEBHOOK_DELIVERY_JOB = 'webhook_delivery';

export interface WebhookDeliveryJob {
  deliveryId: string;
}

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** JSON.stringify's replacer writing keys as the API does (snake_case). */
function snakeKeys(this: unknown, _key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [toSnakeKey(key), inner]));
}

const newEventId = () => `msg_${randomBytes(16).toString('base64url')}`;

/** Stores the event and one delivery (and its job) per endpoint, in `trx`; the endpoints are the caller's choice. */
async function writeEvent(trx: Db, organizationId: number, type: string, data: Record<string, unknown>, endpointIds: string[]): Promise<string> {
  const id = newEventId();
  const payload: WebhookPayload = { type, timestamp: new Date().toISOString(), data: { organizationId, ...data } };
  await trx.insertInto('webhookEvents').values({ id, organizationId, type, payload: sql`cast(${JSON.stringify(payload, snakeKeys)} as jsonb)` }).execute();
  for (const endpointId of endpointIds) await queueDelivery(trx, randomUUID(), endpointId, id);
  return id;
}

async function queueDelivery(trx: Db, deliveryId: string, endpointId: string, eventId: string): Promise<void> {
  await trx.insertInto('webhookDeliveries').values({ id: deliveryId, endpointId, eventId }).execute();
  await enqueueJob(trx, WEBHOOK_DELIVERY_JOB, { deliveryId } satisfies WebhookDeliveryJob);
}

/**
 * The event of a change, in the change's transaction: delivered to the organisation's sending endpoints that subscribe
 * to its type (none: nothing is written). `data`'s keys are written in snake_case, as the API answers.
 */
export async function recordWebhookEvent(trx: Db, organizationId: number, type: WebhookEventType, data: Record<string, unknown>): Promise<void> {
  const endpoints = await trx
    .selectFrom('webhookEndpoints')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('disabledAt', 'is', null)
    .where(sql<boolean>`${type} = any(events)`)
    .execute();
  if (endpoints.length === 0) return;
  await writeEvent(trx, organizationId, type, data, endpoints.map((endpoint) => endpoint.id));
}

/** An admin as the events admin.invited, admin.joined and admin.removed name them. */
export const adminEventData = (admin: { id: number; email: string }, role: string) => ({ adminId: admin.id, email: admin.email, role });

/** 'Send test event': a `webhook_endpoint.test` event to this endpoint only; false when the organisation has no such endpoint. */
export async function sendTestEvent(db: Db, organizationId: number, endpointId: string, trail: AuditTrail): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const endpoint = await trx.selectFrom('webhookEndpoints').select(['id', 'url']).where('organizationId', '=', organizationId).where('id', '=', endpointId).executeTakeFirst();
    if (!endpoint) return false;
    const eventId = await writeEvent(trx, organizationId, WEBHOOK_TEST_EVENT, { endpointId }, [endpointId]);
    await trail.record(trx, { action: 'webhook.testEventSent', target: { type: 'webhookEndpoint', id: endpointId, label: endpoint.url }, changes: { eventId: { before: null, after: eventId } } });
    return true;
  });
}

/** 'Resend': the delivery's event again, same `webhook-id`, on a new schedule; false when the organisation has no such delivery. */
export async function resendDelivery(db: Db, organizationId: number, endpointId: string, deliveryId: string, trail: AuditTrail): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const delivery = await trx
      .selectFrom('webhookDeliveries')
      .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
      .select(['webhookDeliveries.eventId', 'webhookEndpoints.url'])
      .where('webhookEndpoints.organizationId', '=', organizationId)
      .where('webhookDeliveries.endpointId', '=', endpointId)
      .where('webhookDeliveries.id', '=', deliveryId)
      .executeTakeFirst();
    if (!delivery) return false;
    await queueDelivery(trx, randomUUID(), endpointId, delivery.eventId);
    await trail.record(trx, { action: 'webhook.deliveryResent', target: { type: 'webhookEndpoint', id: endpointId, label: delivery.url }, changes: { eventId: { before: null, after: delivery.eventId } } });
    return true;
  });
}
