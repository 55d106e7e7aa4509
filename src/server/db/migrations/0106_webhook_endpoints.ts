/**
 * Webhooks (issue 46 item 5): an organisation's endpoints, its events (the outbox, written in the transaction of the
 * change that causes them) and their deliveries to each endpoint (sent by the job queue, mail_queue kind
 * `webhook_delivery`, retried on the Standard Webhooks schedule).
 *
 * - An endpoint's signing secret is sealed (domain/webhookSecrets.ts): signing needs the key itself, not a hash.
 * - An event's id is its `webhook-id` (msg_…): the same on every attempt and every resend, so a receiver drops repeats.
 * - Deliveries are listed per endpoint, newest first (the index), and go with their endpoint and event.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table webhook_endpoints (
    id uuid primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    url text not null check (char_length(url) between 1 and 2000),
    events text[] not null,
    secret_encrypted text not null,
    disabled_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (organization_id, id)
  )`,
  `create index webhook_endpoints_organization on webhook_endpoints (organization_id, created_at, id)`,
  `create table webhook_events (
    id text primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    type text not null,
    payload jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create index webhook_events_created on webhook_events (created_at)`,
  `create table webhook_deliveries (
    id uuid primary key,
    endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
    event_id text not null references webhook_events (id) on delete cascade,
    status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
    attempts integer not null default 0,
    response_status integer,
    response_ms integer,
    last_error text,
    last_attempt_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at desc, id desc)`,
  `create index webhook_deliveries_event on webhook_deliveries (event_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists webhook_deliveries').execute(db);
  await sql.raw('drop table if exists webhook_events').execute(db);
  await sql.raw('drop table if exists webhook_endpoints').execute(db);
}
