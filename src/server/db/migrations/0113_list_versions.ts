/**
 * The versions of an organisation's largest lists (issue 47): its admins (3,000 admins are 1.46 MB that PostgreSQL
 * takes ~25 ms to write, and SPEC §7 gives `GET affiliations` no paging) and its applications (Service Details' page
 * of 999). The portal keeps a list's answer and reads only its version while nothing has changed (api/keptAnswers.ts);
 * a trigger on every table the list shows moves it, whoever writes — the domain, a foreign key's cascade, an
 * operator's SQL alike. A change to what every organisation's lists show (the catalogue) moves the version of
 * organisation 0, which the reads ask too.
 *
 * - A version is the next value of one sequence, never a count per list: a version seen once never comes back, even
 *   after the table is emptied, so an answer kept under it cannot be mistaken for a newer one.
 * - The triggers are deferred to the commit: the version's row lock is taken last in the writing transaction and held
 *   only for its commit, so a write never waits on it (nor deadlocks) halfway through its own statements.
 * - An admin's change moves the admin lists of every organisation the admin belongs to, in the order of their ids.
 * - No foreign key: an organisation deleted with its rows leaves a row of numbers behind.
 *
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

/** The lists with a version. */
export const VERSIONED_LISTS = ['admins', 'applications'] as const;

/** Whose list a row's change moves: the organisation named by its `key` column, its admin's organisations, its application's, or every organisation's. */
type Owner = 'organization' | 'admin' | 'application' | 'everyone';

/** A table a list shows: the list, whose version a row's change moves, the columns shown, and which rows count. */
interface Source {
  list: (typeof VERSIONED_LISTS)[number];
  table: string;
  of: Owner;
  /** The column naming the organisation, admin or application (none for `everyone`). */
  key: string;
  /** A row's update counts when one of these changed; `*`: any change; none: updates never count. */
  shown: readonly string[];
  /** Whether a row inserted or deleted counts (an organisation's own row has no list before it has affiliations). */
  insertsAndDeletes: boolean;
  /** Only rows where this holds count, written for `row` (NEW or OLD). */
  rows?: (row: 'new' | 'old') => string;
}

const ANY_CHANGE = ['*'];

const SOURCES: readonly Source[] = [
  { list: 'admins', table: 'affiliations', of: 'organization', key: 'organization_id', shown: ['role', 'updated_at'], insertsAndDeletes: true },
  { list: 'admins', table: 'organizations', of: 'organization', key: 'id', shown: ['glopla_id', 'corporation_official_name', 'two_step_required'], insertsAndDeletes: false },
  { list: 'admins', table: 'admins', of: 'admin', key: 'id', shown: ['first_name', 'last_name', 'kana_first_name', 'kana_last_name', 'email', 'activated_at'], insertsAndDeletes: false },
  // the invitations the list shows: open activation tokens
  {
    list: 'admins',
    table: 'admin_tokens',
    of: 'admin',
    key: 'admin_id',
    shown: ['used_at', 'expires_at', 'organization_id'],
    insertsAndDeletes: true,
    rows: (row) => `${row}.purpose = 'activation'`,
  },
  // two-step sign-in: a confirmed authenticator app or a passkey
  { list: 'admins', table: 'admin_authenticator_apps', of: 'admin', key: 'admin_id', shown: ['confirmed_at'], insertsAndDeletes: true },
  { list: 'admins', table: 'admin_passkeys', of: 'admin', key: 'admin_id', shown: [], insertsAndDeletes: true },
  // Service Details' list: the applications (their learner counts are kept on them), their services, their projects
  // and classes, and the catalogue's names
  { list: 'applications', table: 'corporate_subscriptions', of: 'organization', key: 'organization_id', shown: ANY_CHANGE, insertsAndDeletes: true },
  { list: 'applications', table: 'subscription_services', of: 'application', key: 'subscription_id', shown: ANY_CHANGE, insertsAndDeletes: true },
  { list: 'applications', table: 'projects', of: 'organization', key: 'organization_id', shown: ANY_CHANGE, insertsAndDeletes: true },
  ...['project_classes', 'services', 'service_groups'].map((table): Source => ({ list: 'applications', table, of: 'everyone', key: '', shown: ANY_CHANGE, insertsAndDeletes: true })),
];

const MOVE_FUNCTION = `create function list_changed() returns trigger language plpgsql as $$
  declare
    changed_list text := tg_argv[0];
    changed_owner text := tg_argv[1];
    changed_id int := case when changed_owner = 'everyone' then 0 else (to_jsonb(case when tg_op = 'DELETE' then old else new end) ->> tg_argv[2])::int end;
  begin
    insert into list_versions (organization_id, list, version)
      select organization_id, changed_list, nextval('list_version')
      from (select changed_id as organization_id where changed_owner in ('organization', 'everyone')
            union select organization_id from affiliations where changed_owner = 'admin' and admin_id = changed_id
            union select organization_id from corporate_subscriptions where changed_owner = 'application' and id = changed_id) touched
      order by organization_id
    on conflict (organization_id, list) do update set version = excluded.version;
    return null;
  end
  $$`;

/** The triggers of one table, each deferred to the commit. */
function triggersOf({ list, table, of, key, shown, insertsAndDeletes, rows }: Source): string[] {
  const trigger = (event: string, when: string[]) =>
    `create constraint trigger ${table}_${list}_list_${event} after ${event} on ${table} deferrable initially deferred for each row
      ${when.length > 0 ? `when (${when.join(' and ')})` : ''} execute function list_changed('${list}', '${of}', '${key}')`;
  const filter = (row: 'new' | 'old') => (rows ? [rows(row)] : []);
  const changed = shown === ANY_CHANGE ? '(old.* is distinct from new.*)' : `(${shown.map((column) => `old.${column} is distinct from new.${column}`).join(' or ')})`;
  return [
    ...(insertsAndDeletes ? [trigger('insert', filter('new')), trigger('delete', filter('old'))] : []),
    ...(shown.length > 0 ? [trigger('update', [...filter('new'), changed])] : []),
  ];
}

/** The trigger names of a table, as triggersOf creates them. */
const triggerNames = (source: Source) => triggersOf(source).map((statement) => /create constraint trigger (\w+)/.exec(statement)![1]!);

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    'create sequence list_version',
    'create table list_versions (organization_id int not null, list text not null, version bigint not null, primary key (organization_id, list))',
    MOVE_FUNCTION,
    ...SOURCES.flatMap(triggersOf),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const source of SOURCES) {
    for (const name of triggerNames(source)) await sql.raw(`drop trigger if exists ${name} on ${source.table}`).execute(db);
  }
  for (const statement of ['drop function if exists list_changed()', 'drop table if exists list_versions', 'drop sequence if exists list_version']) {
    await sql.raw(statement).execute(db);
  }
}
