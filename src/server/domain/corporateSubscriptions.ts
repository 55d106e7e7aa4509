/**
 * Corporate subscriptions (SPEC §3 Subscription, §4 'Application', §5 'Application', §7 'Corporate subscriptions'):
 * an organisation's applications, keyed by requestCode. Every read and write names the organisation: another
 * organisation's requestCode reads as unknown (undefined), so the API answers 404. The caller has checked that the
 * session's admin manages the organisation.
 *
 * Writes run in one transaction: the checks (corporateSubscriptionChecks.ts) read inside it, the stored application is
 * locked (for update), and a dry run is the same transaction rolled back, so it answers exactly what the real run
 * would store (requestCode '' and id 0 for a new application, id 0 for new learner rows).
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Subscription, SubscriptionSummary, SubscriptionWriteAnswer } from '../../common/api/answers.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import type { SubscriptionsConfig } from '../config.js';
import { isoTimestamp, jsonMembers, jsonObject, jsonValue } from '../db/formats.js';
import type { Db } from '../db/index.js';
import type { Database } from '../db/types.js';
import { allInt, anyInt } from '../db/lists.js';
import { compiledOnce } from '../db/preparedStatements.js';
import { changesBetween, type AuditTrail } from './audit.js';
import { businessCalendar } from './businessCalendar.js';
import { applicationStartsOn, deadlineErrors, storedLearners } from './classDeadlines.js';
import { checkApplication, type LearnerRow, type StoredApplication, type SubscriptionForm } from './corporateSubscriptionChecks.js';
import { BILLING_CONTACTS, CONTACTS, findContactRecord } from './contacts.js';
import { claimKey, recordAnswer, type IdempotentRequest } from './idempotency.js';
import { randomRequestCode } from './requestCodes.js';
import { serviceGroupLinks, type CatalogueReader } from './services.js';
import { readSyncPage, type SyncPage, type SyncStart } from './sync.js';
import { etagColumn, etagKey, listVersion, requireVersion, type Precondition } from './versions.js';
import { recordWebhookEvent } from './webhookOutbox.js';

export type { SubscriptionForm } from './corporateSubscriptionChecks.js';

/** Who reads or writes: the catalogue reader (organisation, role, language, link rewriting), today (Asia/Tokyo), the settings. */
export interface SubscriptionReader extends CatalogueReader {
  today: string;
  settings: SubscriptionsConfig;
}

/** Who writes: a reader whose real writes are recorded in the organisation's audit trail. */
export interface SubscriptionWriter extends SubscriptionReader {
  trail: AuditTrail;
}

/** The application was refused: the field errors of SPEC §8 'Application errors' (the API answers 422). */
export class ApplicationRefused extends Error {
  constructor(readonly fieldErrors: FieldError[]) {
    super(`Application refused: ${fieldErrors.map((error) => `${error.field} ${error.code}`).join(', ')}`);
    this.name = 'ApplicationRefused';
  }
}

export type SubscriptionOrder = 'starts_on' | '-starts_on';

/** 'A' + 9 digits: anything else is no application's (and is never sent to the database). */
const REQUEST_CODE = /^A[0-9]{9}$/;

// ---------------------------------------------------------------------------------------------------
// Reads

function subscriptionQuery(db: Db, organizationId: number, key: string) {
  return db
    .selectFrom('corporateSubscriptions')
    .leftJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .leftJoin('projects', 'projects.id', 'projectClasses.projectId')
    .select([
      'corporateSubscriptions.id',
      'corporateSubscriptions.requestCode',
      'corporateSubscriptions.serviceGroupId',
      applicationStartsOn.as('startsOn'),
      'corporateSubscriptions.appliedAt',
      'corporateSubscriptions.billingContactId',
      'corporateSubscriptions.contactId',
      'corporateSubscriptions.billingNote',
      'corporateSubscriptions.projectClassId',
      'projectClasses.name as projectClassName',
      'projects.projectCode',
      'projects.name as projectName',
      'corporateSubscriptions.learnerCount',
      etagColumn(key, 'corporateSubscriptions').as('etag'),
    ])
    .where('corporateSubscriptions.organizationId', '=', organizationId);
}

type SubscriptionRow = Awaited<ReturnType<ReturnType<typeof subscriptionQuery>['executeTakeFirstOrThrow']>>;
type SummaryService = SubscriptionSummary['services'][number];

/** The services of the applications, in the group's order, by application id. */
async function servicesOf(db: Db, reader: CatalogueReader, subscriptionIds: number[]): Promise<Map<number, SummaryService[]>> {
  const byId = new Map<number, SummaryService[]>(subscriptionIds.map((id) => [id, []]));
  if (subscriptionIds.length === 0) return byId;
  const rows = await db
    .selectFrom('subscriptionServices')
    .innerJoin('services', 'services.id', 'subscriptionServices.serviceId')
    .innerJoin('serviceGroups', 'serviceGroups.id', 'services.serviceGroupId')
    .select(['subscriptionServices.subscriptionId', 'services.id', 'services.name', 'services.subtitle', 'serviceGroups.id as groupId', 'serviceGroups.name as groupName'])
    .where('subscriptionServices.subscriptionId', '=', anyInt(subscriptionIds))
    .orderBy('services.position')
    .orderBy('services.id')
    .execute();
  const { language } = reader;
  for (const row of rows) {
    byId.get(row.subscriptionId)!.push({ id: row.id, name: row.name[language], subtitle: row.subtitle[language], serviceGroup: { id: row.groupId, name: row.groupName[language] } });
  }
  return byId;
}

function summaryOf(row: SubscriptionRow, services: SummaryService[], today: string): SubscriptionSummary {
  const changeDeadline = businessCalendar().changeDeadline(row.startsOn);
  return {
    id: row.id,
    requestCode: row.requestCode,
    etag: row.etag,
    isUpdatable: today <= changeDeadline,
    changeDeadline,
    appliedAt: new Date(row.appliedAt).toISOString(),
    startsOn: [row.startsOn],
    userCount: row.learnerCount,
    services,
    project: row.projectCode !== null && row.projectName !== null ? { projectCode: row.projectCode, name: row.projectName } : null,
    projectClass: row.projectClassId !== null && row.projectClassName !== null ? { id: row.projectClassId, name: row.projectClassName } : null,
  };
}

/** A page of the organisation's applications (1-based), each in wire form (JSON), and whether another follows. */
export type SubscriptionPage = {
  subscriptionsJson: string[];
  nextPage: number | null;
  /** The list's version when the page was read (migration 0113); undefined: an empty page. */
  version: string | undefined;
};

/** What the list is asked for: a page (1-based) of `perPage`, optionally of one service group, in an order of start dates. */
export interface SubscriptionFilter {
  serviceGroupId?: number;
  order?: SubscriptionOrder;
  page: number;
  perPage: number;
}

/** Which rows a page reads: as far as the page reaches (and one row past it: whether another follows), from its offset. */
interface PageBounds {
  reach: number;
  limit: number;
  offset: number;
}

const pageBounds = ({ page, perPage }: SubscriptionFilter): PageBounds => ({ reach: page * perPage + 1, limit: perPage + 1, offset: (page - 1) * perPage });

/** The list's filter as its query takes it: the organisation, optionally one service group, the order, the page's bounds. */
interface PageSelection {
  organizationId: number;
  serviceGroupId: number | undefined;
  order: SubscriptionOrder | undefined;
  bounds: PageBounds;
}

/**
 * The ids and start dates of a page of the list, and one row past it (whether another follows). The start date is
 * applicationStartsOn's: the class's when the application has one, else its own. The two kinds are read apart, each
 * only as far as the page reaches: the applications without a class in the order of the organisation's start-date
 * index (migration 0112: its entries alone), those of a class (few) through their classes; the page is then taken
 * from both. At 20,000 applications of one group, sorting them all had been most of the statement (issue 47).
 */
export function applicationPageQuery(db: Db, organizationId: number, filter: SubscriptionFilter) {
  return pageQuery(db, { organizationId, serviceGroupId: filter.serviceGroupId, order: filter.order, bounds: pageBounds(filter) });
}

function pageQuery(db: Db, { organizationId, serviceGroupId, order, bounds }: PageSelection) {
  const direction = order === 'starts_on' ? 'asc' : 'desc';
  const listed = (eb: ExpressionBuilder<Database, 'corporateSubscriptions'>) =>
    eb.and([
      eb('corporateSubscriptions.organizationId', '=', organizationId),
      ...(serviceGroupId === undefined ? [] : [eb('corporateSubscriptions.serviceGroupId', '=', serviceGroupId)]),
    ]);
  const withoutClass = db
    .selectFrom('corporateSubscriptions')
    .where(listed)
    .select(['corporateSubscriptions.id', sql<string>`corporate_subscriptions.starts_on`.as('startsOnDate')])
    .where('corporateSubscriptions.projectClassId', 'is', null)
    .orderBy('corporateSubscriptions.startsOn', direction)
    .orderBy('corporateSubscriptions.id', direction)
    .limit(bounds.reach);
  const ofClass = db
    .selectFrom('corporateSubscriptions')
    .where(listed)
    .innerJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .select(['corporateSubscriptions.id', sql<string>`coalesce(project_classes.starts_on, corporate_subscriptions.starts_on)`.as('startsOnDate')])
    .orderBy('startsOnDate', direction)
    .orderBy('corporateSubscriptions.id', direction)
    .limit(bounds.reach);
  return db
    .selectFrom(sql<{ id: number; startsOnDate: string }>`((${withoutClass}) union all (${ofClass}))`.as('applications'))
    // the date as the list writes it, made for the page's rows only
    .select(['applications.id', 'applications.startsOnDate', sql<string>`to_char(applications.starts_on_date, 'YYYY-MM-DD')`.as('startsOn')])
    .orderBy('applications.startsOnDate', direction)
    .orderBy('applications.id', direction)
    .limit(bounds.limit)
    .offset(bounds.offset);
}

/**
 * The page's applications in wire form as PostgreSQL writes them, but for the id (a public id: publicIds.ts) and the
 * change deadline (the business calendar), which come between `head` (request_code, etag) and `tail` (applied_at …
 * services): summaryOf's fields in the answer schema's order with the same values (a test holds them equal). The page
 * is chosen first, so the versions and the rest are written for its rows only; each service's JSON is written once,
 * and the page's services gathered in one pass rather than a subquery a row (issue 47: a page of 999).
 */
function listedQuery(db: Db, { language, key, ...selection }: PageSelection & { language: string; key: string }) {
  const ref = (column: string) => jsonValue(sql.ref(column));
  const service = jsonObject({
    id: ref('services.id'),
    name: jsonValue(sql`services.name ->> ${language}::text`),
    subtitle: jsonValue(sql`services.subtitle ->> ${language}::text`),
    service_group: jsonObject({ id: ref('serviceGroups.id'), name: jsonValue(sql`service_groups.name ->> ${language}::text`) }),
  });
  const project = sql<string>`case when projects.project_code is not null and projects.name is not null
    then ${jsonObject({ project_code: ref('projects.projectCode'), name: ref('projects.name') })} else 'null' end`;
  const projectClass = sql<string>`case when corporate_subscriptions.project_class_id is not null and project_classes.name is not null
    then ${jsonObject({ id: ref('corporateSubscriptions.projectClassId'), name: ref('projectClasses.name') })} else 'null' end`;
  const direction = selection.order === 'starts_on' ? 'asc' : 'desc';
  return db
    .with('page', () => pageQuery(db, selection))
    // materialized: written once per service, not once per row that names it
    .with((cte) => cte('serviceJson').materialized(), (cte) =>
      cte
        .selectFrom('services')
        .innerJoin('serviceGroups', 'serviceGroups.id', 'services.serviceGroupId')
        .select(['services.id', 'services.position', service.as('json')]),
    )
    .with('pageServices', (cte) =>
      cte
        .selectFrom('page')
        .innerJoin('subscriptionServices', 'subscriptionServices.subscriptionId', 'page.id')
        .innerJoin('serviceJson', 'serviceJson.id', 'subscriptionServices.serviceId')
        // in the group's order, as servicesOf reads them
        .select(['page.id', sql<string>`'[' || string_agg(service_json.json, ',' order by service_json.position, service_json.id) || ']'`.as('json')])
        .groupBy('page.id'),
    )
    .selectFrom('page')
    .innerJoin('corporateSubscriptions', 'corporateSubscriptions.id', 'page.id')
    .leftJoin('pageServices', 'pageServices.id', 'page.id')
    .leftJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .leftJoin('projects', 'projects.id', 'projectClasses.projectId')
    .select([
      'page.id',
      'page.startsOn',
      listVersion(db, 'applications', selection.organizationId).as('version'),
      jsonMembers({ request_code: ref('corporateSubscriptions.requestCode'), etag: jsonValue(etagColumn(key, 'corporateSubscriptions')) }).as('head'),
      jsonMembers({
        applied_at: jsonValue(isoTimestamp('corporateSubscriptions.appliedAt')),
        starts_on: sql<string>`'[' || ${ref('page.startsOn')} || ']'`,
        user_count: ref('corporateSubscriptions.learnerCount'),
        project,
        project_class: projectClass,
        services: sql<string>`coalesce(page_services.json, '[]')`,
      }).as('tail'),
    ])
    .orderBy('page.startsOnDate', direction)
    .orderBy('page.id', direction);
}

/**
 * The organisation's applications (SPEC 2.9): newest start first by default, optionally of one service group, a page
 * at a time (issue 27: a provider's organisation holds thousands), each written by PostgreSQL (listedQuery) with its
 * public id (`publicId`) and change deadline, counted once per start date (the calendar remembers them).
 */
/**
 * The list's statement compiled once per database and shape (a service group or not, the order) and run with the
 * caller's values: building and compiling it cost ~1.2 ms of the portal's CPU a request.
 */
const listedStatement = compiledOnce(
  { organizationId: -1, serviceGroupId: -2, reach: -3, limit: -4, offset: -5, language: '\u0000language', key: '\u0000key' },
  (db, shape: { grouped: boolean; order: SubscriptionOrder | undefined }, values) =>
    listedQuery(db, {
      organizationId: values.organizationId,
      serviceGroupId: shape.grouped ? values.serviceGroupId : undefined,
      order: shape.order,
      bounds: { reach: values.reach, limit: values.limit, offset: values.offset },
      language: values.language,
      key: values.key,
    }),
);

export async function listSubscriptions(db: Db, reader: SubscriptionReader, filter: SubscriptionFilter, publicId: (id: number) => number): Promise<SubscriptionPage> {
  const shape = { grouped: filter.serviceGroupId !== undefined, order: filter.order };
  const values = { organizationId: reader.organizationId, serviceGroupId: filter.serviceGroupId ?? 0, ...pageBounds(filter), language: reader.language, key: await etagKey(db) };
  const { rows } = await db.executeQuery(listedStatement(db, shape, values));
  const calendar = businessCalendar();
  const subscriptionsJson = rows.slice(0, filter.perPage).map((row) => {
    const changeDeadline = calendar.changeDeadline(row.startsOn);
    return `{"id":${publicId(row.id)},${row.head},"is_updatable":${reader.today <= changeDeadline},"change_deadline":"${changeDeadline}",${row.tail}}`;
  });
  return { subscriptionsJson, nextPage: rows.length > filter.perPage ? filter.page + 1 : null, version: rows[0]?.version };
}

/** The list's version, compiled once and planned once per connection: every kept page asks it. */
const versionStatement = compiledOnce(
  { organizationId: -1 },
  (db, _shape: 'version', values) => db.selectNoFrom(listVersion(db, 'applications', values.organizationId).as('version')),
  'application_list_version',
);

/** The version of the organisation's application list (migration 0113): a page kept under it still holds while it stands. */
export async function applicationListVersion(db: Db, organizationId: number): Promise<string> {
  return (await db.executeQuery(versionStatement(db, 'version', { organizationId }))).rows[0]!.version;
}

/**
 * The organisation's applications changed since the position and those cancelled, a page at a time (incremental sync,
 * issue 46: domain/sync.ts), each as the list shows it. Every write of an application updates its row (its services,
 * learners and admins with it), so its updated_at is the time of its last change.
 */
export async function subscriptionChanges(db: Db, reader: SubscriptionReader, page: SyncStart & { limit: number }): Promise<SyncPage<SubscriptionSummary>> {
  const key = await etagKey(db);
  return readSyncPage(db, 'corporateSubscriptions', reader.organizationId, page, async (trx, ids) => {
    const rows = await subscriptionQuery(trx, reader.organizationId, key).where('corporateSubscriptions.id', '=', anyInt(ids)).execute();
    const services = await servicesOf(trx, reader, ids);
    return new Map(rows.map((row) => [row.id, summaryOf(row, services.get(row.id)!, reader.today)]));
  });
}

async function adminsOf(db: Db, subscriptionId: number): Promise<Subscription['admins']> {
  return db
    .selectFrom('subscriptionAdmins')
    .innerJoin('admins', 'admins.id', 'subscriptionAdmins.adminId')
    .select(['admins.id', 'admins.firstName', 'admins.lastName', 'admins.email'])
    .where('subscriptionAdmins.subscriptionId', '=', subscriptionId)
    .orderBy('admins.id')
    .execute();
}

async function detailOf(db: Db, reader: SubscriptionReader, row: SubscriptionRow): Promise<Subscription> {
  const services = (await servicesOf(db, reader, [row.id])).get(row.id)!;
  const links = await serviceGroupLinks(db, reader, [row.serviceGroupId]);
  const group = await db.selectFrom('serviceGroups').select('selection').where('id', '=', row.serviceGroupId).executeTakeFirstOrThrow();
  const billingContact = row.billingContactId === null ? undefined : await findContactRecord(db, BILLING_CONTACTS, reader.organizationId, row.billingContactId);
  const contact = row.contactId === null ? undefined : await findContactRecord(db, CONTACTS, reader.organizationId, row.contactId);
  return {
    ...summaryOf(row, [], reader.today),
    services: services.map((service) => ({ ...service, serviceGroup: { ...service.serviceGroup, urls: links.get(service.serviceGroup.id) ?? [] } })),
    type: row.projectClassId === null ? 'standard' : 'class',
    term: group.selection === 'single' ? (services[0]?.subtitle ?? null) : null,
    admins: await adminsOf(db, row.id),
    users: await storedLearners(db, row.id),
    billingContact: billingContact ?? null,
    billingContactId: row.billingContactId,
    contact: contact ?? null,
    contactId: row.contactId,
    billingNote: row.billingNote,
    classDeadlines: row.projectClassId === null ? null : businessCalendar().classDeadlines(row.startsOn, reader.today, reader.settings.enlargementDays),
  };
}

/** One application of the organisation (SPEC 2.10); undefined when the organisation has none with this requestCode. */
export async function findSubscription(db: Db, reader: SubscriptionReader, requestCode: string): Promise<Subscription | undefined> {
  if (!REQUEST_CODE.test(requestCode)) return undefined;
  const row = await subscriptionQuery(db, reader.organizationId, await etagKey(db)).where('corporateSubscriptions.requestCode', '=', requestCode).executeTakeFirst();
  return row && detailOf(db, reader, row);
}

/** The stored billing contact and contact of an application (an update that leaves them out keeps them). */
export async function storedContactIds(db: Db, organizationId: number, requestCode: string): Promise<{ billingContactId: number | null; contactId: number | null } | undefined> {
  if (!REQUEST_CODE.test(requestCode)) return undefined;
  return db
    .selectFrom('corporateSubscriptions')
    .select(['billingContactId', 'contactId'])
    .where('organizationId', '=', organizationId)
    .where('requestCode', '=', requestCode)
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------------
// Writes

class DryRunRollback extends Error {}

/** Runs the work in one transaction; a dry run rolls it back and answers what the work returned. */
async function inTransaction<T>(db: Db, dryRun: boolean, work: (trx: Db) => Promise<T>): Promise<T> {
  if (!dryRun) return db.transaction().execute(work);
  let result: T | undefined;
  try {
    await db.transaction().execute(async (trx) => {
      result = await work(trx);
      throw new DryRunRollback();
    });
  } catch (error) {
    if (!(error instanceof DryRunRollback)) throw error;
  }
  return result as T;
}

type StoredRow = StoredApplication & { requestCode: string; adminIds: number[]; etag: string };

/** The organisation's application, locked for the transaction, its version under the tags' key; undefined when unknown. */
async function lockStored(trx: Db, key: string, organizationId: number, requestCode: string): Promise<StoredRow | undefined> {
  if (!REQUEST_CODE.test(requestCode)) return undefined;
  const row = await trx
    .selectFrom('corporateSubscriptions')
    .select(['id', 'requestCode', 'serviceGroupId', 'projectClassId', applicationStartsOn.as('startsOn'), etagColumn(key, 'corporateSubscriptions').as('etag')])
    .where('organizationId', '=', organizationId)
    .where('requestCode', '=', requestCode)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return undefined;
  const services = await trx.selectFrom('subscriptionServices').select('serviceId').where('subscriptionId', '=', row.id).execute();
  const admins = await trx.selectFrom('subscriptionAdmins').select('adminId').where('subscriptionId', '=', row.id).execute();
  const learners = await trx.selectFrom('subscriptionLearners').select(['id', 'email']).where('subscriptionId', '=', row.id).orderBy('position').execute();
  return { ...row, serviceIds: services.map((service) => service.serviceId), adminIds: admins.map((admin) => admin.adminId), learners };
}

/** The columns of the form: with a class, no billing contact, contact nor billing note (SPEC §5, §7 payload rules). */
function subscriptionValues(form: SubscriptionForm) {
  const withClass = (form.projectClassId ?? 0) > 0;
  return {
    startsOn: form.startsOn,
    projectClassId: withClass ? form.projectClassId! : null,
    billingContactId: withClass ? null : (form.billingContactId ?? null),
    contactId: withClass ? null : (form.contactId ?? null),
    billingNote: withClass ? null : form.billingNote || null,
  };
}

/** Tries of a random requestCode before giving up: a taken one is rare (the codes are sparse), several in a row a fault. */
const REQUEST_CODE_TRIES = 5;

/** Stores the application with a random unused requestCode (requestCodes.ts: nothing to count other organisations by). */
async function insertSubscription(trx: Db, organizationId: number, serviceGroupId: number, form: SubscriptionForm): Promise<number> {
  for (let attempt = 1; ; attempt += 1) {
    const row = await trx
      .insertInto('corporateSubscriptions')
      .values({ ...subscriptionValues(form), organizationId, serviceGroupId, requestCode: randomRequestCode() })
      .onConflict((conflict) => conflict.column('requestCode').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return row.id;
    if (attempt === REQUEST_CODE_TRIES) throw new Error(`no unused requestCode in ${REQUEST_CODE_TRIES} tries`);
  }
}

async function replaceServicesAndAdmins(trx: Db, subscriptionId: number, form: SubscriptionForm): Promise<void> {
  await trx.deleteFrom('subscriptionServices').where('subscriptionId', '=', subscriptionId).execute();
  await trx.deleteFrom('subscriptionAdmins').where('subscriptionId', '=', subscriptionId).execute();
  // one array parameter per list, whatever its length (db/lists.ts)
  await trx.insertInto('subscriptionServices').columns(['subscriptionId', 'serviceId']).expression(sql`select ${subscriptionId}::int, unnest(${form.serviceIds}::int[])`).execute();
  await trx.insertInto('subscriptionAdmins').columns(['subscriptionId', 'adminId']).expression(sql`select ${subscriptionId}::int, unnest(${[...new Set(form.adminIds)]}::int[])`).execute();
}

/** Learner rows with their positions as one array per column: `unnest` turns them back into rows (db/lists.ts). */
function learnerColumns(rows: Array<[number, LearnerRow]>) {
  return sql`unnest(
    ${rows.map(([, user]) => user.id ?? 0)}::int[], ${rows.map(([position]) => position)}::int[], ${rows.map(([, user]) => user.firstName)}::text[],
    ${rows.map(([, user]) => user.lastName)}::text[], ${rows.map(([, user]) => user.kanaFirstName)}::text[], ${rows.map(([, user]) => user.kanaLastName)}::text[],
    ${rows.map(([, user]) => user.email)}::text[]
  ) as given(id, position, first_name, last_name, kana_first_name, kana_last_name, email)`;
}

/** The learner rows in the form's order: rows with an id keep (and update) that learner, the others are new, the rest go. */
async function writeLearners(trx: Db, subscriptionId: number, users: LearnerRow[]): Promise<void> {
  const keptIds = users.flatMap((user) => (user.id === undefined ? [] : [user.id]));
  await trx.deleteFrom('subscriptionLearners').where('subscriptionId', '=', subscriptionId).where('id', '<>', allInt(keptIds)).execute();
  const kept = [...users.entries()].filter(([, user]) => user.id !== undefined);
  if (kept.length > 0) {
    await sql`update subscription_learners as learner
      set position = given.position, first_name = given.first_name, last_name = given.last_name, kana_first_name = given.kana_first_name,
        kana_last_name = given.kana_last_name, email = given.email
      from ${learnerColumns(kept)}
      where learner.subscription_id = ${subscriptionId} and learner.id = given.id`.execute(trx);
  }
  const added = [...users.entries()].filter(([, user]) => user.id === undefined);
  if (added.length > 0) {
    await trx
      .insertInto('subscriptionLearners')
      .columns(['subscriptionId', 'position', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'])
      .expression(sql`select ${subscriptionId}::int, position, first_name, last_name, kana_first_name, kana_last_name, email from ${learnerColumns(added)}`)
      .execute();
  }
}

/**
 * The answer of a write. A dry run shows new learner rows as id 0, a new application as id 0, requestCode '' and etag
 * '', a changed one with the version the check was made on (`stored`): the real run's If-Match.
 */
async function writeAnswer(trx: Db, key: string, reader: SubscriptionReader, subscriptionId: number, users: LearnerRow[], dryRun: { stored?: StoredRow } | undefined) {
  const row = await subscriptionQuery(trx, reader.organizationId, key).where('corporateSubscriptions.id', '=', subscriptionId).executeTakeFirstOrThrow();
  const subscription = await detailOf(trx, reader, row);
  if (!dryRun) return subscription;
  const shown = { ...subscription, users: subscription.users.map((user, index) => ({ ...user, id: users[index]?.id ?? 0 })) };
  return dryRun.stored ? { ...shown, etag: dryRun.stored.etag } : { ...shown, id: 0, requestCode: '', etag: '' };
}

/** Refuses a change of the stored application made on another version than the one there is (issue 28). */
const requireStoredVersion = (stored: StoredRow, precondition: Precondition | undefined) =>
  requireVersion(stored.etag, precondition, { type: 'subscription', id: stored.requestCode });

function refuseWhen(errors: FieldError[]): void {
  if (errors.length > 0) throw new ApplicationRefused(errors);
}

const notUpdatable = (): FieldError => ({ field: 'request_code', code: FIELD_ERROR.notUpdatable, meta: {} });

/** A write's answer; `replayed`: the first answer of an earlier request with the same Idempotency-Key (nothing written now). */
export type WriteResult = SubscriptionWriteAnswer & { replayed?: true };

/** The write, in the caller's transaction; with an Idempotency-Key (a real run), once: a repeat answers the first answer. */
async function once(trx: Db, idempotency: IdempotentRequest | undefined, write: () => Promise<SubscriptionWriteAnswer>): Promise<WriteResult> {
  if (!idempotency) return write();
  const first = await claimKey<SubscriptionWriteAnswer>(trx, idempotency);
  if (first) return { ...first.answer, replayed: true };
  const answer = await write();
  await recordAnswer(trx, idempotency, answer);
  return answer;
}

/** What the audit trail compares of an application: the form's choices and how many learners (their rows can be thousands). */
function auditView(application: { startsOn: string; serviceIds: number[]; adminIds: number[]; projectClassId?: number | null; learners: number }) {
  const { startsOn, serviceIds, adminIds, projectClassId, learners } = application;
  return { startsOn, serviceIds: [...serviceIds].sort((a, b) => a - b), adminIds: [...new Set(adminIds)].sort((a, b) => a - b), projectClassId: projectClassId || null, learners };
}

const storedView = (stored: StoredRow) => auditView({ ...stored, learners: stored.learners.length });
const formView = (form: SubscriptionForm) => auditView({ ...form, learners: form.users.length });

/** The webhook event of each write (issue 46): a confirmed application's learners changing is an update of it. */
const WEBHOOK_EVENTS = {
  'subscription.created': 'corporate_subscription.created',
  'subscription.updated': 'corporate_subscription.updated',
  'subscription.confirmedUpdated': 'corporate_subscription.updated',
  'subscription.cancelled': 'corporate_subscription.cancelled',
} as const;

/** Records a real write (a dry run is rolled back anyway, and records nothing): its trail entry and its webhook event. */
async function recordWrite(trx: Db, writer: SubscriptionWriter, dryRun: boolean, entry: { action: keyof typeof WEBHOOK_EVENTS; requestCode: string; before?: object; after?: object }): Promise<void> {
  if (dryRun) return;
  const target = { type: 'subscription', id: entry.requestCode, label: entry.requestCode } as const;
  await writer.trail.record(trx, { action: entry.action, target, changes: changesBetween(entry.before, entry.after) });
  await recordWebhookEvent(trx, writer.organizationId, WEBHOOK_EVENTS[entry.action], { requestCode: entry.requestCode });
}

/** A new application (POST): checked, stored with a new requestCode, answered with its warnings. */
export async function createSubscription(db: Db, reader: SubscriptionWriter, form: SubscriptionForm, dryRun: boolean, idempotency?: IdempotentRequest): Promise<WriteResult> {
  const key = await etagKey(db);
  return inTransaction(db, dryRun, (trx) =>
    once(trx, dryRun ? undefined : idempotency, async () => {
      const checked = await checkApplication(trx, reader, form);
      refuseWhen(checked.errors);
      const id = await insertSubscription(trx, reader.organizationId, checked.group!.id, form);
      await replaceServicesAndAdmins(trx, id, form);
      await writeLearners(trx, id, form.users);
      const corporateSubscription = await writeAnswer(trx, key, reader, id, form.users, dryRun ? {} : undefined);
      await recordWrite(trx, reader, dryRun, { action: 'subscription.created', requestCode: corporateSubscription.requestCode, after: formView(form) });
      return { corporateSubscription, warnings: checked.warnings };
    }),
  );
}

/** How a change is made: a dry run or not, once per Idempotency-Key, on the version of If-Match (StaleVersion otherwise). */
export interface ChangeRequest {
  dryRun: boolean;
  idempotency?: IdempotentRequest;
  precondition?: Precondition;
}

/** A change of an application (PATCH) while it is updatable; undefined when the organisation has no such application. */
export async function updateSubscription(db: Db, reader: SubscriptionWriter, requestCode: string, form: SubscriptionForm, request: ChangeRequest): Promise<WriteResult | undefined> {
  const { dryRun } = request;
  const key = await etagKey(db);
  return inTransaction(db, dryRun, async (trx) => {
    const stored = await lockStored(trx, key, reader.organizationId, requestCode);
    if (!stored) return undefined;
    // a repeat of a done request answers its first answer (its version is gone by now): the version is checked after
    return once(trx, dryRun ? undefined : request.idempotency, async () => {
      requireStoredVersion(stored, request.precondition);
      refuseWhen(businessCalendar().isUpdatable(stored.startsOn, reader.today) ? [] : [notUpdatable()]);
      const checked = await checkApplication(trx, reader, form, stored);
      refuseWhen(checked.errors);
      await trx.updateTable('corporateSubscriptions').set({ ...subscriptionValues(form), updatedAt: new Date() }).where('id', '=', stored.id).execute();
      await replaceServicesAndAdmins(trx, stored.id, form);
      await writeLearners(trx, stored.id, form.users);
      await recordWrite(trx, reader, dryRun, { action: 'subscription.updated', requestCode: stored.requestCode, before: storedView(stored), after: formView(form) });
      return { corporateSubscription: await writeAnswer(trx, key, reader, stored.id, form.users, dryRun ? { stored } : undefined), warnings: checked.warnings };
    });
  });
}

/** A confirmed application's admins stay (issue 17): a body naming others is refused, not silently kept. */
function confirmedAdminErrors(stored: StoredRow, adminIds: number[]): FieldError[] {
  const given = new Set(adminIds);
  const same = given.size === new Set(stored.adminIds).size && stored.adminIds.every((id) => given.has(id));
  return same ? [] : [{ field: 'admin_ids', code: FIELD_ERROR.notUpdatable, meta: {} }];
}

/**
 * A confirmed application (PATCH confirmed_corporate_subscriptions): one with a project class, whose learners change
 * past its change deadline. Only the learner rows are taken from the body; the rest stays as stored, and admins other
 * than the stored ones are refused (admin_ids notUpdatable).
 */
export async function updateConfirmedSubscription(
  db: Db,
  reader: SubscriptionWriter,
  requestCode: string,
  given: Pick<SubscriptionForm, 'users' | 'adminIds'>,
  request: ChangeRequest,
): Promise<WriteResult | undefined> {
  const { users } = given;
  const { dryRun } = request;
  const key = await etagKey(db);
  return inTransaction(db, dryRun, async (trx) => {
    const stored = await lockStored(trx, key, reader.organizationId, requestCode);
    if (!stored) return undefined;
    return once(trx, dryRun ? undefined : request.idempotency, async () => {
      requireStoredVersion(stored, request.precondition);
      refuseWhen(stored.projectClassId === null ? [notUpdatable()] : confirmedAdminErrors(stored, given.adminIds));
      const form: SubscriptionForm = { serviceIds: stored.serviceIds, adminIds: stored.adminIds, startsOn: stored.startsOn, projectClassId: stored.projectClassId!, users };
      const checked = await checkApplication(trx, reader, form, stored);
      const learners = await storedLearners(trx, stored.id);
      refuseWhen([...deadlineErrors({ startsOn: stored.startsOn, learners }, users, reader), ...checked.errors]);
      await writeLearners(trx, stored.id, users);
      await trx.updateTable('corporateSubscriptions').set({ updatedAt: new Date() }).where('id', '=', stored.id).execute();
      await recordWrite(trx, reader, dryRun, { action: 'subscription.confirmedUpdated', requestCode: stored.requestCode, before: storedView(stored), after: formView(form) });
      return { corporateSubscription: await writeAnswer(trx, key, reader, stored.id, users, dryRun ? { stored } : undefined), warnings: checked.warnings };
    });
  });
}

/** Cancels (deletes) an application while it is updatable (SPEC 2.10 'cancel order'). */
export async function deleteSubscription(db: Db, reader: SubscriptionWriter, requestCode: string, precondition?: Precondition): Promise<'deleted' | 'notFound'> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx) => {
    const stored = await lockStored(trx, key, reader.organizationId, requestCode);
    if (!stored) return 'notFound';
    requireStoredVersion(stored, precondition);
    refuseWhen(businessCalendar().isUpdatable(stored.startsOn, reader.today) ? [] : [notUpdatable()]);
    await trx.deleteFrom('corporateSubscriptions').where('id', '=', stored.id).execute();
    await recordWrite(trx, reader, false, { action: 'subscription.cancelled', requestCode: stored.requestCode, before: storedView(stored) });
    return 'deleted';
  });
}
