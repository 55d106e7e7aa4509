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
import { sql } from 'kysely';
import type { Subscription, SubscriptionSummary, SubscriptionUser, SubscriptionWriteAnswer } from '../../common/api/answers.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import { addDays, isUpdatable } from '../../common/subscriptionRules.js';
import type { SubscriptionsConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { checkApplication, type LearnerRow, type StoredApplication, type SubscriptionForm } from './corporateSubscriptionChecks.js';
import { findBillingContact, findContact } from './contacts.js';
import { serviceGroupLinks, type CatalogueReader } from './services.js';

export type { SubscriptionForm } from './corporateSubscriptionChecks.js';

/** Who reads or writes: the catalogue reader (organisation, role, language, link rewriting), today (Asia/Tokyo), the settings. */
export interface SubscriptionReader extends CatalogueReader {
  today: string;
  settings: SubscriptionsConfig;
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

function subscriptionQuery(db: Db, organizationId: number) {
  return db
    .selectFrom('corporateSubscriptions')
    .leftJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .leftJoin('projects', 'projects.id', 'projectClasses.projectId')
    .select([
      'corporateSubscriptions.id',
      'corporateSubscriptions.requestCode',
      'corporateSubscriptions.serviceGroupId',
      sql<string>`to_char(corporate_subscriptions.starts_on, 'YYYY-MM-DD')`.as('startsOn'),
      'corporateSubscriptions.appliedAt',
      'corporateSubscriptions.billingContactId',
      'corporateSubscriptions.contactId',
      'corporateSubscriptions.billingNote',
      'corporateSubscriptions.projectClassId',
      'projectClasses.name as projectClassName',
      'projects.projectCode',
      'projects.name as projectName',
      sql<number>`(select count(*)::int from subscription_learners where subscription_learners.subscription_id = corporate_subscriptions.id)`.as('userCount'),
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
    .where('subscriptionServices.subscriptionId', 'in', subscriptionIds)
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
  return {
    id: row.id,
    requestCode: row.requestCode,
    isUpdatable: isUpdatable(row.startsOn, today),
    appliedAt: new Date(row.appliedAt).toISOString(),
    startsOn: [row.startsOn],
    userCount: row.userCount,
    services,
    project: row.projectCode !== null && row.projectName !== null ? { projectCode: row.projectCode, name: row.projectName } : null,
    projectClass: row.projectClassId !== null && row.projectClassName !== null ? { id: row.projectClassId, name: row.projectClassName } : null,
  };
}

/** The organisation's applications (SPEC 2.9): newest start first by default, optionally of one service group. */
export async function listSubscriptions(db: Db, reader: SubscriptionReader, filter: { serviceGroupId?: number; order?: SubscriptionOrder }): Promise<SubscriptionSummary[]> {
  const direction = filter.order === 'starts_on' ? 'asc' : 'desc';
  let query = subscriptionQuery(db, reader.organizationId).orderBy('corporateSubscriptions.startsOn', direction).orderBy('corporateSubscriptions.id', direction);
  if (filter.serviceGroupId !== undefined) query = query.where('corporateSubscriptions.serviceGroupId', '=', filter.serviceGroupId);
  const rows = await query.execute();
  const services = await servicesOf(
    db,
    reader,
    rows.map((row) => row.id),
  );
  return rows.map((row) => summaryOf(row, services.get(row.id)!, reader.today));
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

async function learnersOf(db: Db, subscriptionId: number): Promise<SubscriptionUser[]> {
  return db
    .selectFrom('subscriptionLearners')
    .select(['id', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'])
    .where('subscriptionId', '=', subscriptionId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

async function detailOf(db: Db, reader: SubscriptionReader, row: SubscriptionRow): Promise<Subscription> {
  const services = (await servicesOf(db, reader, [row.id])).get(row.id)!;
  const links = await serviceGroupLinks(db, reader, [row.serviceGroupId]);
  const group = await db.selectFrom('serviceGroups').select('selection').where('id', '=', row.serviceGroupId).executeTakeFirstOrThrow();
  const billingContact = row.billingContactId === null ? undefined : await findBillingContact(db, reader.organizationId, row.billingContactId);
  const contact = row.contactId === null ? undefined : await findContact(db, reader.organizationId, row.contactId);
  return {
    ...summaryOf(row, [], reader.today),
    services: services.map((service) => ({ ...service, serviceGroup: { ...service.serviceGroup, urls: links.get(service.serviceGroup.id) ?? [] } })),
    type: row.projectClassId === null ? 'standard' : 'class',
    term: group.selection === 'single' ? (services[0]?.subtitle ?? null) : null,
    admins: await adminsOf(db, row.id),
    users: await learnersOf(db, row.id),
    billingContact: billingContact ?? null,
    billingContactId: row.billingContactId,
    contact: contact ?? null,
    contactId: row.contactId,
    billingNote: row.billingNote,
  };
}

/** One application of the organisation (SPEC 2.10); undefined when the organisation has none with this requestCode. */
export async function findSubscription(db: Db, reader: SubscriptionReader, requestCode: string): Promise<Subscription | undefined> {
  if (!REQUEST_CODE.test(requestCode)) return undefined;
  const row = await subscriptionQuery(db, reader.organizationId).where('corporateSubscriptions.requestCode', '=', requestCode).executeTakeFirst();
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

type StoredRow = StoredApplication & { requestCode: string; adminIds: number[] };

/** The organisation's application, locked for the transaction; undefined when unknown. */
async function lockStored(trx: Db, organizationId: number, requestCode: string): Promise<StoredRow | undefined> {
  if (!REQUEST_CODE.test(requestCode)) return undefined;
  const row = await trx
    .selectFrom('corporateSubscriptions')
    .select(['id', 'requestCode', 'serviceGroupId', 'projectClassId', sql<string>`to_char(starts_on, 'YYYY-MM-DD')`.as('startsOn')])
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

async function insertSubscription(trx: Db, organizationId: number, serviceGroupId: number, form: SubscriptionForm): Promise<number> {
  const requestCode = sql<string>`'A' || lpad(nextval('corporate_subscription_request_codes')::text, 9, '0')`;
  const row = await trx
    .insertInto('corporateSubscriptions')
    .values({ ...subscriptionValues(form), organizationId, serviceGroupId, requestCode })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function replaceServicesAndAdmins(trx: Db, subscriptionId: number, form: SubscriptionForm): Promise<void> {
  await trx.deleteFrom('subscriptionServices').where('subscriptionId', '=', subscriptionId).execute();
  await trx.deleteFrom('subscriptionAdmins').where('subscriptionId', '=', subscriptionId).execute();
  await trx.insertInto('subscriptionServices').values(form.serviceIds.map((serviceId) => ({ subscriptionId, serviceId }))).execute();
  await trx.insertInto('subscriptionAdmins').values([...new Set(form.adminIds)].map((adminId) => ({ subscriptionId, adminId }))).execute();
}

const learnerFields = ({ firstName, lastName, kanaFirstName, kanaLastName, email }: LearnerRow) => ({ firstName, lastName, kanaFirstName, kanaLastName, email });

/** The learner rows in the form's order: rows with an id keep (and update) that learner, the others are new, the rest go. */
async function writeLearners(trx: Db, subscriptionId: number, users: LearnerRow[]): Promise<void> {
  const keptIds = users.flatMap((user) => (user.id === undefined ? [] : [user.id]));
  let removal = trx.deleteFrom('subscriptionLearners').where('subscriptionId', '=', subscriptionId);
  if (keptIds.length > 0) removal = removal.where('id', 'not in', keptIds);
  await removal.execute();
  for (const [position, user] of users.entries()) {
    if (user.id === undefined) continue;
    await trx.updateTable('subscriptionLearners').set({ ...learnerFields(user), position }).where('subscriptionId', '=', subscriptionId).where('id', '=', user.id).execute();
  }
  const added = [...users.entries()].filter(([, user]) => user.id === undefined).map(([position, user]) => ({ ...learnerFields(user), position, subscriptionId }));
  if (added.length > 0) await trx.insertInto('subscriptionLearners').values(added).execute();
}

/** The answer of a write; a dry run shows a new application as id 0 and requestCode '', new learner rows as id 0. */
async function writeAnswer(trx: Db, reader: SubscriptionReader, subscriptionId: number, users: LearnerRow[], dryRun: { isNew: boolean } | undefined) {
  const row = await subscriptionQuery(trx, reader.organizationId).where('corporateSubscriptions.id', '=', subscriptionId).executeTakeFirstOrThrow();
  const subscription = await detailOf(trx, reader, row);
  if (!dryRun) return subscription;
  const shown = { ...subscription, users: subscription.users.map((user, index) => ({ ...user, id: users[index]?.id ?? 0 })) };
  return dryRun.isNew ? { ...shown, id: 0, requestCode: '' } : shown;
}

function refuseWhen(errors: FieldError[]): void {
  if (errors.length > 0) throw new ApplicationRefused(errors);
}

const notUpdatable = (): FieldError => ({ field: 'request_code', code: FIELD_ERROR.notUpdatable, meta: {} });

/** A new application (POST): checked, stored with a new requestCode, answered with its warnings. */
export async function createSubscription(db: Db, reader: SubscriptionReader, form: SubscriptionForm, dryRun: boolean): Promise<SubscriptionWriteAnswer> {
  return inTransaction(db, dryRun, async (trx) => {
    const checked = await checkApplication(trx, reader, form);
    refuseWhen(checked.errors);
    const id = await insertSubscription(trx, reader.organizationId, checked.group!.id, form);
    await replaceServicesAndAdmins(trx, id, form);
    await writeLearners(trx, id, form.users);
    return { corporateSubscription: await writeAnswer(trx, reader, id, form.users, dryRun ? { isNew: true } : undefined), warnings: checked.warnings };
  });
}

/** A change of an application (PATCH) while it is updatable; undefined when the organisation has no such application. */
export async function updateSubscription(db: Db, reader: SubscriptionReader, requestCode: string, form: SubscriptionForm, dryRun: boolean): Promise<SubscriptionWriteAnswer | undefined> {
  return inTransaction(db, dryRun, async (trx) => {
    const stored = await lockStored(trx, reader.organizationId, requestCode);
    if (!stored) return undefined;
    refuseWhen(isUpdatable(stored.startsOn, reader.today) ? [] : [notUpdatable()]);
    const checked = await checkApplication(trx, reader, form, stored);
    refuseWhen(checked.errors);
    await trx.updateTable('corporateSubscriptions').set({ ...subscriptionValues(form), updatedAt: new Date() }).where('id', '=', stored.id).execute();
    await replaceServicesAndAdmins(trx, stored.id, form);
    await writeLearners(trx, stored.id, form.users);
    return { corporateSubscription: await writeAnswer(trx, reader, stored.id, form.users, dryRun ? { isNew: false } : undefined), warnings: checked.warnings };
  });
}

/**
 * The class deadlines of a confirmed application (SPEC §4 'Class enrolment deadlines'): no learner may be removed
 * (reductionDeadline, on the removed learner's row of the stored list), and none added after startsOn + the
 * enlargement days (enlargementDeadline, lineNo = the row's number, 1-based).
 */
function deadlineErrors(stored: StoredRow, users: LearnerRow[], reader: SubscriptionReader): FieldError[] {
  const keptIds = new Set(users.flatMap((user) => (user.id === undefined ? [] : [user.id])));
  const removed = stored.learners.flatMap((learner, index) =>
    keptIds.has(learner.id) ? [] : [{ field: `users.${index}.email`, code: FIELD_ERROR.reductionDeadline, meta: { email: learner.email } }],
  );
  const closed = reader.today > addDays(stored.startsOn, reader.settings.enlargementDays);
  const added = closed
    ? users.flatMap((user, index) => (user.id === undefined ? [{ field: `users.${index}.email`, code: FIELD_ERROR.enlargementDeadline, meta: { lineNo: index + 1, email: user.email } }] : []))
    : [];
  return [...removed, ...added];
}

/**
 * A confirmed application (PATCH confirmed_corporate_subscriptions): one with a project class, whose learners change
 * past its change deadline. Only the learner rows are taken from the body; the rest stays as stored.
 */
export async function updateConfirmedSubscription(db: Db, reader: SubscriptionReader, requestCode: string, users: LearnerRow[], dryRun: boolean): Promise<SubscriptionWriteAnswer | undefined> {
  return inTransaction(db, dryRun, async (trx) => {
    const stored = await lockStored(trx, reader.organizationId, requestCode);
    if (!stored) return undefined;
    refuseWhen(stored.projectClassId === null ? [notUpdatable()] : []);
    const form: SubscriptionForm = { serviceIds: stored.serviceIds, adminIds: stored.adminIds, startsOn: stored.startsOn, projectClassId: stored.projectClassId!, users };
    const checked = await checkApplication(trx, reader, form, stored);
    refuseWhen([...deadlineErrors(stored, users, reader), ...checked.errors]);
    await writeLearners(trx, stored.id, users);
    await trx.updateTable('corporateSubscriptions').set({ updatedAt: new Date() }).where('id', '=', stored.id).execute();
    return { corporateSubscription: await writeAnswer(trx, reader, stored.id, users, dryRun ? { isNew: false } : undefined), warnings: checked.warnings };
  });
}

/** Cancels (deletes) an application while it is updatable (SPEC 2.10 'cancel order'). */
export async function deleteSubscription(db: Db, reader: SubscriptionReader, requestCode: string): Promise<'deleted' | 'notFound'> {
  return db.transaction().execute(async (trx) => {
    const stored = await lockStored(trx, reader.organizationId, requestCode);
    if (!stored) return 'notFound';
    refuseWhen(isUpdatable(stored.startsOn, reader.today) ? [] : [notUpdatable()]);
    await trx.deleteFrom('corporateSubscriptions').where('id', '=', stored.id).execute();
    return 'deleted';
  });
}
