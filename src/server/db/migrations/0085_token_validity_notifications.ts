/**
 * Token validity without a round trip (issue 20): every change of when an admin's access tokens stop being good —
 * admins.tokens_valid_after (logout, password change and reset), admin_organization_tokens (a role change or removal
 * in one organisation) — and the removal of an admin notifies the channel `portal_token_validity` with the admin's id,
 * at commit. Each instance keeps those times in memory and forgets an admin's on the notification
 * (src/server/domain/tokenValidity.ts). A trigger, so no write path can forget to tell.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create function notify_token_validity() returns trigger language plpgsql as $$
  begin
    -- the admin's id is the column the trigger names (id of admins, admin_id of admin_organization_tokens)
    perform pg_notify('portal_token_validity', to_jsonb(coalesce(new, old)) ->> tg_argv[0]);
    return null;
  end
  $$`,
  `create trigger admins_token_validity after update of tokens_valid_after or delete on admins
    for each row execute function notify_token_validity('id')`,
  `create trigger admin_organization_tokens_validity after insert or update or delete on admin_organization_tokens
    for each row execute function notify_token_validity('admin_id')`,
];

const downStatements = [
  `drop trigger admin_organization_tokens_validity on admin_organization_tokens`,
  `drop trigger admins_token_validity on admins`,
  `drop function notify_token_validity()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
