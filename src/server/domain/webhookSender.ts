/**
 * Sends the webhook deliveries the outbox queued (issue 46 item 5), as Standard Webhooks has them: the event's JSON
 * POSTed with `webhook-id` (the event's id), `webhook-timestamp` (seconds) and `webhook-signature`
 * (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` under the endpoint's secret). A 2xx answer is delivered; anything
 * else (another status, a refused address, a time-out) is retried by the queue on the specification's schedule — 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each ±10 % — and then given up: the delivery failed, the endpoint disabled and
 * the organisation's managers mailed.
 *
 * The request is guardedFetch.ts's: the address checked after DNS resolution and connected to as checked (no
 * rebinding), never private, loopback nor link-local (demo mode: loopback, where the tests' receivers listen), no
 * redirect followed, 10 s at most, at most 64 KB of the answer read.
 */
import { createHmac } from 'node:crypto';
import type { Db } from '../db/index.js';
import { enqueueJob, MAIL_JOB, type RetrySchedule } from '../mail/queue.js';
import type { OutgoingMail } from '../mail/mailer.js';
import { mailLanguage, renderMail } from '../mail/templates.js';
import { activatedManagers } from './admins.js';
import { guardedRequest } from './guardedFetch.js';
import { openSecret, type SecretKeys } from './sealedSecrets.js';
import type { WebhookDeliveryJob } from './webhookOutbox.js';

/** Standard Webhooks' suggested retry schedule: the waits after the 1st, 2nd … 7th failed attempt. */
export const WEBHOOK_RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000] as const;
/** The jitter of each wait: ±10 %. */
const JITTER = 0.1;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_ANSWER_BYTES = 64 * 1024;

/** The wait before the next attempt after `attempts` failed ones (jittered); undefined once the schedule is done. */
export function webhookRetryDelayMs(attempts: number, random: () => number = Math.random): number | undefined {
  const base = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  return base === undefined ? undefined : Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** `v1,<signature>`: the key is the secret's base64 after `whsec_`. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface WebhookSenderDeps {
  keys: SecretKeys;
  publicUrl: string;
  /** Demo mode: http to loopback allowed (the tests' receivers). */
  allowLoopback: boolean;
  /** Answers a host's addresses (default: the system's resolver); tests name their own. */
  lookup?: (hostname: string) => Promise<string[]>;
}

const deliveryQuery = (db: Db, deliveryId: string) =>
  db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhookEndpoints', 'webhookEndpoints.id', 'webhookDeliveries.endpointId')
    .innerJoin('webhookEvents', 'webhookEvents.id', 'webhookDeliveries.eventId')
    .select(['webhookDeliveries.status', 'webhookEndpoints.id as endpointId', 'webhookEndpoints.url', 'webhookEndpoints.secretEncrypted', 'webhookEndpoints.disabledAt', 'webhookEvents.id as eventId', 'webhookEvents.payload'])
    .where('webhookDeliveries.id', '=', deliveryId);

/** One attempt of the delivery; throws (for the queue to retry) unless the endpoint answered 2xx. */
export async function sendDelivery(deps: WebhookSenderDeps, job: WebhookDeliveryJob, now: () => number = Date.now): Promise<void> {
  const { db } = deps.keys;
  const delivery = await deliveryQuery(db, job.deliveryId).executeTakeFirst();
  // the endpoint was deleted (its deliveries with it), or the delivery is done
  if (!delivery || delivery.status !== 'pending') return;
  if (delivery.disabledAt !== null) {
    await db.updateTable('webhookDeliveries').set({ status: 'failed', lastError: 'endpoint disabled' }).where('id', '=', job.deliveryId).execute();
    return;
  }
  const secret = await openSecret(deps.keys, 'webhookSecret', delivery.secretEncrypted, delivery.endpointId);
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(now() / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'corporate-admin-portal-webhooks',
    'webhook-id': delivery.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': webhookSignature(secret, delivery.eventId, timestamp, body),
  };
  const started = performance.now();
  let status: number | null = null;
  let error: string | null = null;
  try {
    ({ status } = await guardedRequest(delivery.url, {
      method: 'POST',
      headers,
      body,
      allowLoopback: deps.allowLoopback,
      lookup: deps.lookup,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      maxBytes: WEBHOOK_MAX_ANSWER_BYTES,
      truncate: true,
    }));
    if (status < 200 || status > 299) error = `answered ${status}`;
  } catch (cause) {
    error = (cause as Error).message.slice(0, 500);
  }
  await db
    .updateTable('webhookDeliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      status: error === null ? 'succeeded' : 'pending',
      responseStatus: status,
      responseMs: Math.round(performance.now() - started),
      lastError: error,
      lastAttemptAt: new Date(now()),
    }))
    .where('id', '=', job.deliveryId)
    .execute();
  if (error !== null) throw new Error(`webhook delivery ${job.deliveryId}: ${error}`);
}

/**
 * A delivery that failed its whole schedule: failed, its endpoint disabled and, the first time, the organisation's
 * managers mailed (in one transaction, so the mail goes if and only if the endpoint was disabled).
 */
export async function giveUpDelivery(deps: WebhookSenderDeps, job: WebhookDeliveryJob): Promise<void> {
  const { db } = deps.keys;
  await db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable('webhookDeliveries')
      .set({ status: 'failed' })
      .where('id', '=', job.deliveryId)
      .where('status', '=', 'pending')
      .returning('endpointId')
      .executeTakeFirst();
    if (!failed) return;
    const disabled = await trx
      .updateTable('webhookEndpoints')
      .set({ disabledAt: new Date(), updatedAt: new Date() })
      .where('id', '=', failed.endpointId)
      .where('disabledAt', 'is', null)
      .returning(['organizationId', 'url'])
      .executeTakeFirst();
    if (disabled) await mailManagers(trx, deps.publicUrl, disabled);
  });
}

async function mailManagers(trx: Db, publicUrl: string, endpoint: { organizationId: number; url: string }): Promise<void> {
  const organization = await trx.selectFrom('organizations').select(['corporationOfficialName', 'gloplaIdName']).where('id', '=', endpoint.organizationId).executeTakeFirstOrThrow();
  const managers = await activatedManagers(trx, endpoint.organizationId).execute();
  for (const manager of managers) {
    const language = mailLanguage(undefined, manager.language);
    const params = { organization: organization.corporationOfficialName || organization.gloplaIdName, url: endpoint.url };
    const mail = renderMail('webhookEndpointDisabled', language, params, `${publicUrl}/webhooks?locale=${language}`);
    await enqueueJob(trx, MAIL_JOB, { ...mail, to: manager.email } satisfies OutgoingMail);
  }
}

/** The deliveries' schedule for the queue: Standard Webhooks' waits, then given up as above. */
export const webhookRetrySchedule = (deps: WebhookSenderDeps): RetrySchedule => ({
  delayMs: (attempts) => webhookRetryDelayMs(attempts),
  givenUp: (job: WebhookDeliveryJob) => giveUpDelivery(deps, job),
});
