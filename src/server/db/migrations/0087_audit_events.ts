/**
 * The audit trail (issue 21): who did what, when, in each organisation. One row per recorded action, written in the
 * transaction of the write it describes (domain/audit.ts). The actor's e-mail and the target's label are copied at the
 * time: the trail outlives renamed and removed admins, contacts and subscriptions (so no foreign keys).
 *
 * Append-only: a trigger refuses every update, and every delete unless the session set `portal.audit_retention` to
 * 'on' (the retention clean-up does, domain/retention.ts). A trigger rather than grants, because the portal's role
 * owns its tables (an owner's privileges cannot be revoked from itself) and PGlite has one role.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table audit_events (
    id bigint generated always as identity primary key,
    organization_id integer not null,
    actor_admin_id integer,
    actor_email text not null default '',
    occurred_at timestamptz not null default now(),
    action text not null,
    target_type text not null,
    target_id text not null,
    target_label text not null default '',
    changes jsonb not null default '{}'::jsonb
  )`,
  // the page and the export: one organisation, newest first, (occurred_at, id) as the cursor
  `create index audit_events_organization_page on audit_events (organization_id, occurred_at desc, id desc)`,
  // the retention clean-up
  `create index audit_events_occurred_at on audit_events (occurred_at)`,
  `create function audit_events_append_only() returns trigger language plpgsql as $$
  begin
    if tg_op = 'DELETE' and current_setting('portal.audit_retention', true) = 'on' then return old; end if;
    raise exception 'audit_events is append-only (% refused)', tg_op using errcode = '42501';
  end
  $$`,
  `create trigger audit_events_append_only before update or delete on audit_events
    for each row execute function audit_events_append_only()`,
  `create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`,
];

const downStatements = [
  `drop table audit_events`,
  `drop function audit_events_append_only()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
