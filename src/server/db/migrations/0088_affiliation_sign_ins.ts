/**
 * When an admin first signed in for an organisation (issue 25 finding 5): an admin's account events (lockouts,
 * password and name changes) reach only the organisations the admin has signed in to, not one whose manager merely
 * added them (domain/audit.ts). Null until the first sign-in for that affiliation; a new affiliation starts over.
 *
 * Existing affiliations take the sign-ins known so far: the trail's signIn.succeeded entries and the organisation
 * choices of grants still alive (idp/organizationChoice.ts).
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'alter table affiliations add column first_signed_in_at timestamptz',
  `update affiliations set first_signed_in_at = signed_in.first
    from (select actor_admin_id as admin_id, organization_id, min(occurred_at) as first from audit_events
          where action = 'signIn.succeeded' and actor_admin_id is not null group by actor_admin_id, organization_id) as signed_in
    where affiliations.admin_id = signed_in.admin_id and affiliations.organization_id = signed_in.organization_id`,
  `update affiliations set first_signed_in_at = now()
    where first_signed_in_at is null and exists (select 1 from idp_payloads as choice
      where choice.model = 'OrganizationChoice' and choice.payload->>'accountId' = affiliations.admin_id::text
        and choice.payload->>'organizationId' = affiliations.organization_id::text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('alter table affiliations drop column if exists first_signed_in_at').execute(db);
}
