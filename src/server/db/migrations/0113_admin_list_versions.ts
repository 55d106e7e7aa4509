/**
 * The version of each organisation's admin list (issue 47: at 3,000 admins the list is 1.46 MB that PostgreSQL takes
 * ~25 ms to write, and SPEC §7 gives `GET affiliations` no paging). The portal keeps an organisation's answer and reads
 * only this version while nothing has changed (api/affiliations.ts); a trigger on every table the list shows moves it,
 * whoever writes — the domain, a foreign key's cascade, an operator's SQL alike.
 *
 * - A version is the next value of one sequence, never a count per organisation: a version seen once never comes back,
 *   even after the table is emptied, so an answer kept under it cannot be mistaken for a newer one.
 * - The triggers are deferred to the commit: the version's row lock is taken last in the writing transaction and held
 *   only for its commit, so a write never waits on it (nor deadlocks) halfway through its own statements.
 * - An admin's change moves the lists of every organisation the admin belongs to, in the order of their ids.
 * - No foreign key: an organisation deleted with its affiliations leaves a row of two numbers behind.
 *
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

/** A table the list shows: whose lists a row's change moves (its organisation's, or its admin's organisations'), the columns shown, and which rows count. */
interface Source {
  table: string;
  /** `organization`: the row's `key` column is an organisation id; `admin`: an admin id. */
  of: 'organization' | 'admin';
  key: string;
  /** A row's update counts when one of these changed; none: updates never count. */
  shown: readonly string[];
  /** Whether a row inserted or deleted counts (an organisation's own row has no list before it has affiliations). */
  insertsAndDeletes: boolean;
  /** Only rows where this holds count, written for `row` (NEW or OLD). */
  rows?: (row: 'new' | 'old') => string;
}

const SOURCES: readonly Source[] = [
  { table: 'affiliations', of: 'organization', key: 'organization_id', shown: ['role', 'updated_at'], insertsAndDeletes: true },
  { table: 'organizations', of: 'organization', key: 'id', shown: ['glopla_id', 'corporation_official_name', 'two_step_required'], insertsAndDeletes: false },
  { table: 'admins', of: 'admin', key: 'id', shown: ['first_name', 'last_name', 'kana_first_name', 'kana_last_name', 'email', 'activated_at'], insertsAndDeletes: false },
  // the invitations the list shows: open activation tokens
  {
    table: 'admin_tokens',
    of: 'admin',
    key: 'admin_id',
    shown: ['used_at', 'expires_at', 'organization_id'],
    insertsAndDeletes: true,
    rows: (row) => `${row}.purpose = 'activation'`,
  },
  // two-step sign-in: a confirmed authenticator app or a passkey
  { table: 'admin_authenticator_apps', of: 'admin', key: 'admin_id', shown: ['confirmed_at'], insertsAndDeletes: true },
  { table: 'admin_passkeys', of: 'admin', key: 'admin_id', shown: [], insertsAndDeletes: true },
];

const MOVE_FUNCTION = `create function admin_list_changed() returns trigger language plpgsql as $$
  declare
    changed_id int := (to_jsonb(case when tg_op = 'DELETE' then old else new end) ->> tg_argv[1])::int;
  begin
    insert into admin_list_versions (organization_id, version)
      select organization_id, nextval('admin_list_version')
      from (select changed_id as organization_id where tg_argv[0] = 'organization'
            union select organization_id from affiliations where tg_argv[0] = 'admin' and admin_id = changed_id) touched
      order by organization_id
    on conflict (organization_id) do update set version = excluded.version;
    return null;
  end
  $$`;

/** The triggers of one table, each deferred to the commit. */
function triggersOf({ table, of, key, shown, insertsAndDeletes, rows }: Source): string[] {
  const trigger = (name: string, event: string, when: string[]) =>
    `create constraint trigger ${table}_admin_list_${name} after ${event} on ${table} deferrable initially deferred for each row
      ${when.length > 0 ? `when (${when.join(' and ')})` : ''} execute function admin_list_changed('${of}', '${key}')`;
  const filter = (row: 'new' | 'old') => (rows ? [rows(row)] : []);
  const changed = `(${shown.map((column) => `old.${column} is distinct from new.${column}`).join(' or ')})`;
  return [
    ...(insertsAndDeletes ? [trigger('insert', 'insert', filter('new')), trigger('delete', 'delete', filter('old'))] : []),
    ...(shown.length > 0 ? [trigger('update', 'update', [...filter('new'), changed])] : []),
  ];
}

/** The trigger names of a table, as triggersOf creates them. */
const triggerNames = (source: Source) => triggersOf(source).map((statement) => /create constraint trigger (\w+)/.exec(statement)![1]!);

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    'create sequence admin_list_version',
    'create table admin_list_versions (organization_id int primary key, version bigint not null)',
    MOVE_FUNCTION,
    ...SOURCES.flatMap(triggersOf),
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const source of SOURCES) {
    for (const name of triggerNames(source)) await sql.raw(`drop trigger if exists ${name} on ${source.table}`).execute(db);
  }
  for (const statement of ['drop function if exists admin_list_changed()', 'drop table if exists admin_list_versions', 'drop sequence if exists admin_list_version']) {
    await sql.raw(statement).execute(db);
  }
}
