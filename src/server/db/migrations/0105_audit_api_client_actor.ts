/**
 * An API client as the audit trail's actor (issue 46): its id and its name at the time (the trail outlives a revoked
 * client, so no foreign key), beside actor_admin_id, which is null for a client's entries.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table audit_events add column actor_api_client_id uuid').execute(db);
  await sql.raw('alter table audit_events add column actor_api_client_name text').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table audit_events drop column actor_api_client_name').execute(db);
  await sql.raw('alter table audit_events drop column actor_api_client_id').execute(db);
}
