/**
 * A large provider around the demo data (issue 27 item 5), built in PostgreSQL with set-based SQL (generate_series,
 * never a row at a time from Node): organisations with their admins, learners, applications with their learners, and
 * the audit trail of 400 days. G0000001 (the demo manager's) gets its own large share of each, so the pages a
 * newcomer signs in to show a provider's largest customer. Sizes scale with BENCH_LARGE_SCALE (1 = the issue's).
 */
import { sql } from 'kysely';
import { AUDIT_ACTIONS } from '../../src/common/auditActions.js';
import type { Db } from '../../src/server/db/index.js';

export interface LargeSizes {
  organizations: number;
  admins: number;
  learners: number;
  applications: number;
  learnersPerApplication: number;
  auditEntries: number;
  auditDays: number;
  /** G0000001's share of each; its applications are all of the hodai group (Service Details lists a page of 999 of them), with more learners each. */
  own: { admins: number; learners: number; applications: number; learnersPerApplication: number; auditEntries: number };
}

/** The sizes at `scale`, G0000001's share at `ownScale`. */
export function largeSizes(scale: number, ownScale = scale): LargeSizes {
  const of = (count: number) => Math.max(1, Math.round(count * scale));
  const own = (count: number) => Math.max(1, Math.round(count * ownScale));
  return {
    organizations: of(10_000),
    admins: of(30_000),
    learners: of(2_000_000),
    applications: of(300_000),
    learnersPerApplication: 10,
    auditEntries: of(5_000_000),
    auditDays: 400,
    own: { admins: own(300), learners: own(50_000), applications: own(2_000), learnersPerApplication: 20, auditEntries: own(500_000) },
  };
}

/** The target type each action acts on (the Activity log's filter pairs them so). */
const TARGET_OF: Record<string, string> = {
  membership: 'admin',
  invitation: 'admin',
  subscription: 'subscription',
  contact: 'contact',
  billingContact: 'billingContact',
  users: 'users',
  user: 'user',
  account: 'admin',
  signIn: 'admin',
  organization: 'organization',
  apiClient: 'apiClient',
  webhook: 'webhookEndpoint',
};

/** The target type of an action: its prefix's, single sign-on's by what it changes (a domain or a connection). */
const targetOf = (action: string) => (action.startsWith('sso.') ? (action.startsWith('sso.domain') ? 'ssoDomain' : 'ssoConnection') : TARGET_OF[action.split('.')[0]!]!);

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const ACTIONS = `array[${AUDIT_ACTIONS.map(literal).join(',')}]`;
const TARGETS = `array[${AUDIT_ACTIONS.map((action) => literal(targetOf(action))).join(',')}]`;

/** Statements in order; `n` numbers are integers from largeSizes, so they are written into the SQL as they are. */
function statements(size: LargeSizes): string[] {
  const others = (total: number, own: number) => Math.max(0, total - own);
  // the demo organisation and the first generated one: every generated row hangs off one of them
  const g = `(select id from organizations where glopla_id = 'G0000001')`;
  // the generated admins' ids are consecutive (one statement): the first hundred act in the trail (G0000001's)
  const firstAdmin = `(select min(id) from admins where email like 'large-admin-%')`;
  const orgOf = (n: string) => `((select min(id) from organizations where glopla_id like 'L%') + (${n} % ${size.organizations}))`;
  return [
    `insert into organizations (glopla_id, glopla_id_name, corporation_account_name, corporation_official_name, corporation_account_code)
      select 'L' || lpad(n::text, 7, '0'), 'large' || n, 'Large ' || n, '株式会社ラージ' || n, 'LC' || n from generate_series(1, ${size.organizations}) n`,
    `insert into admins (email, first_name, last_name, kana_first_name, kana_last_name, activated_at)
      select 'large-admin-' || n || '@example.com', '太郎', '大規模' || n, 'たろう', 'だいきぼ', case when n % 4 = 3 then null else now() end
      from generate_series(1, ${size.admins + size.own.admins}) n`,
    // the first own.admins of them join G0000001, the others one organisation each; every tenth a manager
    `insert into affiliations (admin_id, organization_id, role)
      select id, case when k <= ${size.own.admins} then ${g} else ${orgOf('k')} end, case when k % 10 = 0 then 'manager' else 'member' end
      from (select id, row_number() over (order by id) as k from admins where email like 'large-admin-%') a`,
    `insert into admin_tokens (admin_id, purpose, token_hash, expires_at, organization_id)
      select a.id, 'activation', md5(random()::text || a.id), now() + interval '3 days', f.organization_id
      from admins a join affiliations f on f.admin_id = a.id where a.email like 'large-admin-%' and a.activated_at is null`,
    `insert into organization_users (organization_id, last_name, first_name, kana_last_name, kana_first_name, email, name_id)
      select ${g}, '学習', '者' || n, 'がくしゅう', 'しゃ', 'learner-' || n || '@large.example.com', 'N' || n from generate_series(1, ${size.own.learners}) n`,
    `insert into organization_users (organization_id, last_name, first_name, kana_last_name, kana_first_name, email)
      select ${orgOf('n')}, '学習', '者' || n, 'がくしゅう', 'しゃ', 'learner-' || n || '@large.example.com' from generate_series(1, ${others(size.learners, size.own.learners)}) n`,
    // applications over two years around today, G0000001's of hodai, the others' in the groups that have services
    `insert into corporate_subscriptions (organization_id, request_code, service_group_id, starts_on, applied_at)
      select case when n <= ${size.own.applications} then ${g} else ${orgOf('n')} end, 'A' || lpad((500000000 + n)::text, 9, '0'),
        case when n <= ${size.own.applications} then (select id from service_groups where identifier = 'hodai') else groups.ids[1 + n % array_length(groups.ids, 1)] end,
        current_date - 365 + (n % 730), now() - make_interval(days => n % 400)
      from generate_series(1, ${size.applications}) n,
        (select array_agg(id order by id) as ids from service_groups where exists (select from services where services.service_group_id = service_groups.id)) groups`,
    `insert into subscription_services (subscription_id, service_id)
      select cs.id, (select min(id) from services where services.service_group_id = cs.service_group_id)
      from corporate_subscriptions cs where cs.request_code like 'A5%'`,
    `insert into subscription_learners (subscription_id, first_name, last_name, kana_first_name, kana_last_name, email, position)
      select cs.id, '太郎', '受講' || k, 'たろう', 'じゅこう', 'app-' || cs.id || '-' || k || '@large.example.com', k
      from corporate_subscriptions cs cross join generate_series(1, ${Math.max(size.learnersPerApplication, size.own.learnersPerApplication)}) k
      where cs.request_code like 'A5%' and k <= case when cs.organization_id = ${g} then ${size.own.learnersPerApplication} else ${size.learnersPerApplication} end`,
    // the trail: entries evenly over the days, the actions in turn (each about 1/${AUDIT_ACTIONS.length} of them)
    ...[
      { organization: g, count: size.own.auditEntries },
      { organization: orgOf('n'), count: others(size.auditEntries, size.own.auditEntries) },
    ].map(
      ({ organization, count }) => `insert into audit_events (organization_id, actor_admin_id, actor_email, occurred_at, action, target_type, target_id, target_label, changes)
      select ${organization}, ${firstAdmin} + n % 100, 'large-admin-' || (1 + n % 100) || '@example.com', now() - make_interval(secs => n::double precision * ${size.auditDays * 86400} / ${count}),
        (${ACTIONS})[1 + n % ${AUDIT_ACTIONS.length}], (${TARGETS})[1 + n % ${AUDIT_ACTIONS.length}], (n % 1000)::text, 'target ' || (n % 1000),
        jsonb_build_object('role', jsonb_build_object('before', 'member', 'after', 'manager'))
      from generate_series(1, ${count}) n`,
    ),
  ];
}

/** The table a statement inserts into. */
const tableOf = (statement: string) => /insert into (\w+)/.exec(statement)![1]!;

/**
 * The tables after `organizations` in two chains, each on a connection of its own (the machine's two cores): a table
 * after the ones it reads from. The audit trail (5 M rows) weighs about what the learners and applications do.
 */
const CHAINS = [
  ['admins', 'affiliations', 'admin_tokens', 'audit_events'],
  ['organization_users', 'corporate_subscriptions', 'subscription_services', 'subscription_learners'],
];

type Log = (line: string) => void;

async function timed(log: Log, what: string, work: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  const result = await work();
  const rows = (result as { numAffectedRows?: bigint } | undefined)?.numAffectedRows;
  log(`${rows === undefined ? '' : `${rows} rows `}in ${Date.now() - started} ms: ${what}`);
}

/**
 * Loads a table's statements with its secondary indexes (not its constraints') dropped and built again after, as bulk
 * loads are done: several times faster than keeping millions of index entries up to date row by row.
 */
async function loadTable(connection: Db, table: string, all: readonly string[], log: Log): Promise<void> {
  const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
    where schemaname = current_schema() and tablename = ${table} and indexname not in (select conname from pg_constraint)`.execute(connection);
  for (const { indexname } of indexes) await sql.raw(`drop index ${indexname}`).execute(connection);
  for (const statement of all.filter((candidate) => tableOf(candidate) === table)) {
    await timed(log, statement.trim().split('\n')[0]!.slice(0, 70), () => sql.raw(statement).execute(connection));
  }
  if (indexes.length > 0) {
    await timed(log, `${indexes.length} indexes of ${table} built`, async () => {
      for (const { indexdef } of indexes) await sql.raw(indexdef).execute(connection);
    });
  }
}

/**
 * `work` on a connection of its own, set for a bulk load: the database's triggers off, as a bulk loader runs
 * (docs/operations.md). Row by row, the list versions' deferred triggers (migration 0113) and the learner counts'
 * updates of millions of applications were most of the build; what they keep is written once after (`afterTriggersOff`).
 */
function onBulkConnection(db: Db, work: (connection: Db) => Promise<void>): Promise<void> {
  return db.connection().execute(async (connection) => {
    await sql`set maintenance_work_mem = '512MB'`.execute(connection);
    await sql`set synchronous_commit = off`.execute(connection);
    await sql`set session_replication_role = replica`.execute(connection);
    try {
      await work(connection);
    } finally {
      await sql`set session_replication_role = default`.execute(connection);
    }
  });
}

/** What the triggers keep, as docs/operations.md asks after a load with them off: the applications' learner counts (0111) and a new version of every list (0113). */
async function afterTriggersOff(connection: Db, log: Log): Promise<void> {
  await timed(log, 'learner counts', () =>
    sql`update corporate_subscriptions set learner_count = counted.learners
      from (select subscription_id, count(*)::int as learners from subscription_learners group by subscription_id) as counted
      where corporate_subscriptions.id = counted.subscription_id and corporate_subscriptions.learner_count <> counted.learners`.execute(connection),
  );
  await sql`update list_versions set version = nextval('list_version')`.execute(connection);
}

/**
 * Builds the provider in `db` (the demo data already there; a pool of at least two connections): the organisations,
 * then the CHAINS side by side, then the planner's statistics.
 */
export async function generateLargeProvider(db: Db, size: LargeSizes, log: Log = () => undefined): Promise<void> {
  const all = statements(size);
  const chained = CHAINS.flat();
  const unplaced = all.map(tableOf).filter((table) => table !== 'organizations' && !chained.includes(table));
  if (unplaced.length > 0) throw new Error(`bench/large/generate.ts: no chain loads ${unplaced.join(', ')}`);
  await onBulkConnection(db, (connection) => loadTable(connection, 'organizations', all, log));
  await Promise.all(CHAINS.map((chain) => onBulkConnection(db, async (connection) => {
    for (const table of chain) await loadTable(connection, table, all, log);
  })));
  await onBulkConnection(db, (connection) => afterTriggersOff(connection, log));
  // vacuumed as autovacuum leaves tables in use: their visibility maps set, so index-only scans read no table pages
  await timed(log, 'vacuum analyze', () => sql`vacuum analyze`.execute(db));
}
