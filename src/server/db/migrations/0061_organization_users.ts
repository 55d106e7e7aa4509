/**
 * The organisation's learners (SPEC §3 Organisation user, 2.15 Users): the rows the Users page lists, downloads as CSV
 * and bulk-updates. Only name_id changes through the portal; names and e-mail come from elsewhere.
 * - name_id_type: 'email' (nameId must be blank), 'nameId' (nameId required) or null (no identity provider specified:
 *   nameId must be blank), SPEC §5 CSV upload;
 * - name_id: single-byte alphanumerics or empty (checked here too, so no path can store another value).
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table organization_users (
    id serial primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    last_name text not null,
    first_name text not null,
    kana_last_name text not null default '',
    kana_first_name text not null default '',
    email text not null,
    name_id text not null default '' check (name_id ~ '^[A-Za-z0-9]*$' and length(name_id) <= 255),
    name_id_type text check (name_id_type in ('email', 'nameId')),
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (organization_id, email)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists organization_users').execute(db);
}
