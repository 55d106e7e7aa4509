/**
 * Single sign-on with the customer's own identity provider (issue 45): an organisation's connections (SAML 2.0 or
 * OpenID Connect) and its e-mail domains, proved by a DNS TXT record, that route its admins to one of them.
 *
 * - Ids are random UUIDs, not a shared sequence: a connection's id is in its public SAML URLs (entity ID, ACS,
 *   metadata), and neither it nor a domain's id tells one customer how many others exist.
 * - A domain is verified by at most one organisation (the partial unique index); a pending one may be claimed by
 *   several, and only the first to publish its record and verify gets it.
 * - A domain's connection is one of the same organisation's (the composite foreign key); deleting the connection
 *   leaves the domain routed by default (connection_id null) — set null names that column only.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  `create table sso_connections (
    id uuid primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    protocol text not null check (protocol in ('saml', 'oidc')),
    name text not null check (char_length(name) between 1 and 100),
    state text not null default 'draft' check (state in ('draft', 'on', 'paused')),
    issuer text,
    client_id text,
    client_secret_encrypted text,
    idp_metadata_xml text,
    idp_metadata_url text,
    attribute_email text not null,
    attribute_family_name text,
    attribute_given_name text,
    trust_idp_mfa boolean not null default false,
    jit_provisioning boolean not null default false,
    idp_initiated boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (organization_id, id),
    check (protocol = 'oidc' or (issuer is null and client_id is null and client_secret_encrypted is null)),
    check (protocol = 'saml' or (idp_metadata_xml is null and idp_metadata_url is null))
  )`,
  `create index sso_connections_organization on sso_connections (organization_id, created_at, id)`,
  `create index sso_connections_state on sso_connections (organization_id, state)`,
  `create table sso_domains (
    id uuid primary key,
    organization_id integer not null references organizations (id) on delete cascade,
    domain text not null check (domain = lower(domain) and char_length(domain) between 3 and 253),
    connection_id uuid,
    verification_token text not null,
    verified_at timestamptz,
    require_sso boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (organization_id, domain),
    foreign key (organization_id, connection_id) references sso_connections (organization_id, id) on delete set null (connection_id)
  )`,
  `create unique index sso_domains_verified on sso_domains (domain) where verified_at is not null`,
  `create index sso_domains_organization on sso_domains (organization_id, created_at, id)`,
  `create index sso_domains_connection on sso_domains (connection_id) where connection_id is not null`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop table if exists sso_domains').execute(db);
  await sql.raw('drop table if exists sso_connections').execute(db);
}
