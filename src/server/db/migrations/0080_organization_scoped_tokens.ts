/**
 * One organisation's manager leaves another organisation's sessions and invitations alone (issue 15, finding 7):
 * - admin_organization_tokens: per admin and organisation, access tokens of the admin signed in for that
 *   organisation (the token's glopla_id) issued before this time are refused (a role change, a removal), where
 *   admins.tokens_valid_after (migration 0030) still ends every session (logout, password change and reset);
 * - admin_tokens.organization_id: the organisation whose invitation mailed an activation link; a new invitation
 *   closes that organisation's earlier links only. Links from before (null) belong to no one organisation.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table admin_organization_tokens (
    admin_id integer not null references admins (id) on delete cascade,
    organization_id integer not null references organizations (id) on delete cascade,
    tokens_valid_after timestamptz not null,
    primary key (admin_id, organization_id)
  )`,
  `alter table admin_tokens add column organization_id integer references organizations (id) on delete cascade`,
];

const downStatements = [`alter table admin_tokens drop column organization_id`, `drop table admin_organization_tokens`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
