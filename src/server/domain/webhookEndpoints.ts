/**
 * An organisation's webhook endpoints (issue 46 item 5): where its events are POSTed, which events, and the signing
 * secret (Standard Webhooks' `whsec_<base64>`), shown once when the endpoint is made and kept sealed
 * (sealedSecrets.ts, bound to the endpoint's id) because signing needs the key itself. Every read and write names the
 * organisation: another organisation's endpoint reads as unknown (the API answers 404).
 *
 * An endpoint's version is its row's (versions.ts); its writes record the trail's entries in their transaction. The
 * deliveries are listed per endpoint, newest first, a page at a time.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { WebhookEventType } from '../../common/webhookEvents.js';
import type { Db } from '../db/index.js';
import type { WebhookDeliveryStatus } from '../db/types.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { sealSecret, type SecretKeys } from './sealedSecrets.js';
import { etagColumn, etagKey, satisfies, type Precondition } from './versions.js';

/** The most endpoints an organisation has (the list is answered whole; an event is fanned out to each). */
export const MAX_ENDPOINTS = 10;
/** The most deliveries a page of an endpoint's list has. */
export const DELIVERIES_PAGE = 50;
/** The secret's random bytes: Standard Webhooks asks for 24 to 64. */
const SECRET_BYTES = 32;

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  /** When it stopped sending (a delivery failed its whole schedule, or a manager turned it off); null: sending. */
  disabledAt: string | null;
  createdAt: string;
  updatedAt: string;
  etag: string;
}

export interface EndpointSettings {
  url?: string;
  events?: WebhookEventType[];
  /** false: stop sending; true: send again (after it was disabled). */
  enabled?: boolean;
}

export type WebhookWrite<Result> = { outcome: 'done'; result: Result } | { outcome: 'not_found' } | { outcome: 'stale' } | { outcome: 'limit' };

const selectRows = (db: Db, key: string) =>
  db.selectFrom('webhookEndpoints').select(['id', 'organizationId', 'url', 'events', 'disabledAt', 'createdAt', 'updatedAt', etagColumn(key, 'webhookEndpoints').as('etag')]);

type Row = Awaited<ReturnType<ReturnType<typeof selectRows>['executeTakeFirstOrThrow']>>;

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

function endpointOf(row: Row): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEventType[],
    disabledAt: iso(row.disabledAt),
    createdAt: iso(row.createdAt)!,
    updatedAt: iso(row.updatedAt)!,
    etag: row.etag,
  };
}

/** A new signing secret in the specification's form: `whsec_` and the key in base64. */
export const newSigningSecret = () => `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;

export async function listEndpoints(db: Db, organizationId: number): Promise<WebhookEndpoint[]> {
  const rows = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).orderBy('createdAt').orderBy('id').limit(MAX_ENDPOINTS).execute();
  return rows.map(endpointOf);
}

export async function findEndpoint(db: Db, organizationId: number, id: string): Promise<WebhookEndpoint | undefined> {
  const row = await selectRows(db, await etagKey(db)).where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row && endpointOf(row);
}

const AUDITED = ['url', 'events', 'disabledAt'];
const target = (row: Pick<Row, 'id' | 'url'>) => ({ type: 'webhookEndpoint' as const, id: row.id, label: row.url });
const audited = (row: Row | undefined) => row && { url: row.url, events: [...row.events].sort(), disabledAt: row.disabledAt === null ? null : 'set' };

/** Locks the organisation's row against its other creations (no key update: rows that refer to it are still added). */
const lockOrganization = (trx: Db, organizationId: number) => trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forNoKeyUpdate().executeTakeFirstOrThrow();

/** A new endpoint and its secret (answered this once), unless the organisation has MAX_ENDPOINTS. */
export async function createEndpoint(
  keys: SecretKeys,
  organizationId: number,
  settings: { url: string; events: WebhookEventType[] },
  trail: AuditTrail,
): Promise<WebhookWrite<{ endpoint: WebhookEndpoint; secret: string }>> {
  const { db } = keys;
  const key = await etagKey(db);
  const id = randomUUID();
  const secret = newSigningSecret();
  const secretEncrypted = await sealSecret(keys, 'webhookSecret', secret, id);
  return db.transaction().execute(async (trx) => {
    await lockOrganization(trx, organizationId);
    const { count } = await trx.selectFrom('webhookEndpoints').select((eb) => eb.fn.countAll<string>().as('count')).where('organizationId', '=', organizationId).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_ENDPOINTS) return { outcome: 'limit' as const };
    await trx.insertInto('webhookEndpoints').values({ id, organizationId, url: settings.url, events: [...new Set(settings.events)], secretEncrypted }).execute();
    const row = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    await trail.record(trx, { action: 'webhook.endpointCreated', target: target(row), changes: changesBetween(undefined, audited(row), AUDITED) });
    return { outcome: 'done' as const, result: { endpoint: endpointOf(row), secret } };
  });
}

const lockedRow = (trx: Db, key: string, organizationId: number, id: string) =>
  selectRows(trx, key).where('organizationId', '=', organizationId).where('id', '=', id).forUpdate().executeTakeFirst();

/** Changes the endpoint's URL, events or whether it sends, if it is still the version asked for. */
export async function updateEndpoint(
  db: Db,
  organizationId: number,
  id: string,
  change: { settings: EndpointSettings; precondition?: Precondition },
  trail: AuditTrail,
): Promise<WebhookWrite<WebhookEndpoint>> {
  const key = await etagKey(db);
  const { settings } = change;
  return db.transaction().execute(async (trx) => {
    const before = await lockedRow(trx, key, organizationId, id);
    if (!before) return { outcome: 'not_found' as const };
    if (!satisfies(before.etag, change.precondition)) return { outcome: 'stale' as const };
    const disabledAt = settings.enabled === undefined ? undefined : settings.enabled ? null : (before.disabledAt ?? new Date());
    await trx
      .updateTable('webhookEndpoints')
      .set({
        ...(settings.url !== undefined && { url: settings.url }),
        ...(settings.events !== undefined && { events: [...new Set(settings.events)] }),
        ...(disabledAt !== undefined && { disabledAt }),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const after = await selectRows(trx, key).where('id', '=', id).executeTakeFirstOrThrow();
    const changes = changesBetween(audited(before), audited(after), AUDITED);
    if (Object.keys(changes).length > 0) await trail.record(trx, { action: 'webhook.endpointChanged', target: target(after), changes });
    return { outcome: 'done' as const, result: endpointOf(after) };
  });
}

/** Deletes the endpoint (its deliveries go with it; their queued jobs find nothing to send) if it is still the version asked for. */
export async function deleteEndpoint(db: Db, organizationId: number, id: string, precondition: Precondition | undefined, trail: AuditTrail): Promise<WebhookWrite<true>> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx) => {
    const row = await lockedRow(trx, key, organizationId, id);
    if (!row) return { outcome: 'not_found' as const };
    if (!satisfies(row.etag, precondition)) return { outcome: 'stale' as const };
    await trx.deleteFrom('webhookEndpoints').where('id', '=', id).execute();
    await trail.record(trx, { action: 'webhook.endpointDeleted', target: target(row), changes: changesBetween(audited(row), undefined, AUDITED) });
    return { outcome: 'done' as const, result: true as const };
  });
}

// ---------------------------------------------------------------------------------------------------
// Deliveries

export interface WebhookDeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  responseStatus: number | null;
  responseMs: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
}

/** Where a page starts: after the delivery made at this time (PostgreSQL's text, microseconds kept) with this id. */
interface Cursor {
  time: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const encodeDeliveryCursor = (cursor: Cursor) => Buffer.from(JSON.stringify([cursor.time, cursor.id])).toString('base64url');

/** The cursor in a request, or undefined when it is not one this API made. */
export function decodeDeliveryCursor(text: string): Cursor | undefined {
  try {
    const [time, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    return typeof time === 'string' && CURSOR_TIME.test(time) && typeof id === 'string' && UUID.test(id) ? { time, id } : undefined;
  } catch {
    return undefined;
  }
}

/** A page of the endpoint's deliveries, newest first, after the cursor; undefined when the organisation has no such endpoint. */
export async function listDeliveries(
  db: Db,
  organizationId: number,
  endpointId: string,
  cursor: Cursor | undefined,
): Promise<{ deliveries: WebhookDeliveryView[]; nextCursor: string | null } | undefined> {
  const endpoint = await db.selectFrom('webhookEndpoints').select('id').where('organizationId', '=', organizationId).where('id', '=', endpointId).executeTakeFirst();
  if (!endpoint) return undefined;
  let query = db
    .selectFrom('webhookDeliveries')
    .innerJoin('webhookEvents', 'webhookEvents.id', 'webhookDeliveries.eventId')
    .select([
      'webhookDeliveries.id',
      'webhookDeliveries.eventId',
      'webhookEvents.type as eventType',
      'webhookDeliveries.status',
      'webhookDeliveries.attempts',
      'webhookDeliveries.responseStatus',
      'webhookDeliveries.responseMs',
      'webhookDeliveries.lastError',
      'webhookDeliveries.lastAttemptAt',
      'webhookDeliveries.createdAt',
      sql<string>`webhook_deliveries.created_at::text`.as('cursorTime'),
    ])
    .where('webhookDeliveries.endpointId', '=', endpointId);
  if (cursor) query = query.where(sql<boolean>`(webhook_deliveries.created_at, webhook_deliveries.id) < (${cursor.time}::timestamptz, ${cursor.id}::uuid)`);
  const rows = await query.orderBy('webhookDeliveries.createdAt', 'desc').orderBy('webhookDeliveries.id', 'desc').limit(DELIVERIES_PAGE + 1).execute();
  const shown = rows.slice(0, DELIVERIES_PAGE);
  const last = shown.at(-1);
  return {
    deliveries: shown.map(({ cursorTime: _cursorTime, ...row }) => ({ ...row, lastAttemptAt: iso(row.lastAttemptAt), createdAt: iso(row.createdAt)! })),
    nextCursor: rows.length > DELIVERIES_PAGE && last ? encodeDeliveryCursor({ time: last.cursorTime, id: last.id }) : null,
  };
}
