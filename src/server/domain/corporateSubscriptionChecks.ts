/**
 * The rules of an application that need data (SPEC §5 'Application', §8 'Application errors'): the form schema
 * (schemas/subscription.json) has checked every field on its own; here the services, the start date, the admins,
 * the class or the contacts, and the learners are checked against the organisation's data, and the warnings are
 * computed. Every look-up names the organisation: another organisation's id reads as unknown.
 */
import { sql } from 'kysely';
import type { SubscriptionUserWarning, SubscriptionWarningCode, SubscriptionWarnings } from '../../common/api/answers.js';
import type { Forms } from '../../common/api/forms.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import type { Language } from '../../common/languages.js';
import { isDate, userLimit } from '../../common/subscriptionRules.js';
import { businessCalendar } from './businessCalendar.js';
import type { SubscriptionsConfig } from '../config.js';
import type { Db } from '../db/index.js';
import { anyInt, anyText } from '../db/lists.js';
import type { ServiceSelection } from '../db/types.js';

export type SubscriptionForm = Forms['subscription'];
export type LearnerRow = SubscriptionForm['users'][number];

/** Who applies, and when: the organisation, the reader's language, today (Asia/Tokyo) and the settings. */
export interface ApplicationContext {
  organizationId: number;
  language: Language;
  today: string;
  settings: SubscriptionsConfig;
}

/** What an update starts from (undefined for a new application). */
export interface StoredApplication {
  id: number;
  serviceGroupId: number;
  startsOn: string;
  serviceIds: number[];
  learners: Array<{ id: number; email: string }>;
  projectClassId: number | null;
}

export interface ServiceGroupRules {
  id: number;
  identifier: string;
  selection: ServiceSelection;
  maximumUsers: number | null;
  classSize: { minimum: number; maximum: number } | null;
}

/** The outcome of the checks: the field errors (none: the application may be written) and the warnings. */
export interface CheckedApplication {
  errors: FieldError[];
  warnings: SubscriptionWarnings;
  group: ServiceGroupRules | undefined;
}

const error = (field: string, code: string, meta: Record<string, unknown> = {}): FieldError => ({ field, code, meta });

interface ChosenService {
  id: number;
  name: string;
  serviceGroupId: number;
  discontinued: boolean;
  usable: boolean;
  lastStartsOn: string | null;
}

async function chosenServices(db: Db, context: ApplicationContext, serviceIds: number[]): Promise<ChosenService[]> {
  if (serviceIds.length === 0) return [];
  const rows = await db
    .selectFrom('services')
    .leftJoin('organizationServices', (join) =>
      join.onRef('organizationServices.serviceId', '=', 'services.id').on('organizationServices.organizationId', '=', context.organizationId),
    )
    .select([
      'services.id',
      'services.name',
      'services.serviceGroupId',
      'services.discontinued',
      sql<boolean>`organization_services.service_id is not null`.as('usable'),
      sql<string | null>`to_char(services.last_starts_on, 'YYYY-MM-DD')`.as('lastStartsOn'),
    ])
    .where('services.id', '=', anyInt(serviceIds))
    .execute();
  return rows.map((row) => ({ ...row, name: row.name[context.language] }));
}

/** serviceIds: usable by the organisation, not discontinued (unless already applied for), all of one group. */
function serviceErrors(form: SubscriptionForm, services: ChosenService[], stored: StoredApplication | undefined, group: ServiceGroupRules | undefined): FieldError[] {
  const kept = new Set(stored?.serviceIds ?? []);
  const refused = form.serviceIds.filter((id) => {
    const service = services.find((candidate) => candidate.id === id);
    return !service || !service.usable || (service.discontinued && !kept.has(id));
  });
  if (refused.length > 0) {
    const names = refused.map((id) => services.find((service) => service.id === id)?.name ?? String(id));
    return [error('service_ids', FIELD_ERROR.cantBeUsed, { services: names.join(', ') })];
  }
  const groups = new Set(services.map((service) => service.serviceGroupId));
  const expected = stored?.serviceGroupId ?? form.serviceGroupId;
  const wrongGroup = groups.size !== 1 || (expected !== undefined && !groups.has(expected));
  if (wrongGroup || (group?.selection === 'single' && services.length > 1)) return [error('service_ids', FIELD_ERROR.invalid)];
  return [];
}

async function groupRules(db: Db, services: ChosenService[]): Promise<ServiceGroupRules | undefined> {
  const groupId = services[0]?.serviceGroupId;
  if (groupId === undefined) return undefined;
  const row = await db
    .selectFrom('serviceGroups')
    .select(['id', 'identifier', 'selection', 'maximumUsers', 'classSizeMinimum', 'classSizeMaximum'])
    .where('id', '=', groupId)
    .executeTakeFirstOrThrow();
  const classSize = row.classSizeMinimum !== null && row.classSizeMaximum !== null ? { minimum: row.classSizeMinimum, maximum: row.classSizeMaximum } : null;
  return { id: row.id, identifier: row.identifier, selection: row.selection, maximumUsers: row.maximumUsers, classSize };
}

/**
 * startsOn: a class with a period owns it (issue 25): an application for the class starts on the class's first day,
 * any other date is refused (invalid, with the class's) rather than silently replaced, so that what an API client sent
 * is what is stored or nothing is; the wizard sends the class's date. Otherwise inside the window of SPEC §5; an
 * update that keeps its start date is not checked again.
 */
function startsOnErrors(form: SubscriptionForm, services: ChosenService[], stored: StoredApplication | undefined, today: string, classStartsOn: string | null): FieldError[] {
  if (classStartsOn !== null && form.startsOn !== classStartsOn) return [error('starts_on', FIELD_ERROR.invalid, { classStartsOn })];
  if (stored?.startsOn === form.startsOn) return [];
  const lastStartsOns = services.map((service) => service.lastStartsOn);
  return businessCalendar().isStartsOnInRange(form.startsOn, today, lastStartsOns) ? [] : [error('starts_on', FIELD_ERROR.outOfRange)];
}

/** adminIds: activated admins of the organisation (SPEC §4: only activated admins can be chosen). */
async function adminErrors(db: Db, organizationId: number, adminIds: number[]): Promise<FieldError[]> {
  const rows = await db
    .selectFrom('affiliations')
    .innerJoin('admins', 'admins.id', 'affiliations.adminId')
    .select('admins.id')
    .where('affiliations.organizationId', '=', organizationId)
    .where('admins.activatedAt', 'is not', null)
    .where('admins.id', '=', anyInt(adminIds))
    .execute();
  return rows.length === new Set(adminIds).size ? [] : [error('admin_ids', FIELD_ERROR.blank)];
}

async function isOwnRecord(db: Db, table: 'contacts' | 'billingContacts', organizationId: number, id: number | undefined): Promise<boolean> {
  if (id === undefined) return false;
  const row = await db.selectFrom(table).select('id').where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

/**
 * A gls class takes new registrations until its registration deadline (issue 17; the last day an application may be
 * made for its first day, SPEC §5): an application that comes to the class past it is refused (classClosed, with
 * the deadline); one that already has the class keeps it. A class without a period takes none.
 */
function closedClassErrors(row: { kind: string; startsOn: string | null }, form: SubscriptionForm, stored: StoredApplication | undefined, today: string): FieldError[] {
  if (row.kind !== 'gls' || stored?.projectClassId === form.projectClassId) return [];
  const deadline = row.startsOn === null ? null : businessCalendar().lastApplicationDay(row.startsOn);
  return deadline !== null && today <= deadline ? [] : [error('project_class_id', FIELD_ERROR.classClosed, { deadline })];
}

/** The chosen class: its kind and its first day (null: the class has no period). */
interface ChosenClass {
  kind: string;
  startsOn: string | null;
}

/** The class, or (none chosen) the billing contact and the contact: the organisation's own, else an error. */
async function classOrContactErrors(db: Db, context: ApplicationContext, form: SubscriptionForm, stored: StoredApplication | undefined): Promise<{ errors: FieldError[]; chosenClass?: ChosenClass }> {
  if (form.projectClassId) {
    const row = await db
      .selectFrom('projectClasses')
      .innerJoin('projects', 'projects.id', 'projectClasses.projectId')
      .select(['projectClasses.kind', sql<string | null>`to_char(project_classes.starts_on, 'YYYY-MM-DD')`.as('startsOn')])
      .where('projects.organizationId', '=', context.organizationId)
      .where('projectClasses.id', '=', form.projectClassId)
      .executeTakeFirst();
    return row ? { errors: closedClassErrors(row, form, stored, context.today), chosenClass: row } : { errors: [error('project_class_id', FIELD_ERROR.notFound)] };
  }
  const errors: FieldError[] = [];
  if (!(await isOwnRecord(db, 'billingContacts', context.organizationId, form.billingContactId))) errors.push(error('billing_contact_id', FIELD_ERROR.blank));
  if (!(await isOwnRecord(db, 'contacts', context.organizationId, form.contactId))) errors.push(error('contact_id', FIELD_ERROR.blank));
  return { errors };
}

const emailKey = (email: string) => email.toLowerCase();

/** Every row whose e-mail another row also has: 'duplicated' (SPEC §5 Learner rows). */
function duplicatedEmailErrors(users: LearnerRow[]): FieldError[] {
  const counts = new Map<string, number>();
  for (const user of users) counts.set(emailKey(user.email), (counts.get(emailKey(user.email)) ?? 0) + 1);
  return users.flatMap((user, index) => (counts.get(emailKey(user.email))! > 1 ? [error(`users.${index}.email`, FIELD_ERROR.duplicated)] : []));
}

/** A row with an id keeps that learner: it must be one of this application's. */
function learnerIdErrors(users: LearnerRow[], stored: StoredApplication | undefined): FieldError[] {
  const known = new Set((stored?.learners ?? []).map((learner) => learner.id));
  return users.flatMap((user, index) => (user.id !== undefined && !known.has(user.id) ? [error(`users.${index}.id`, FIELD_ERROR.notFound)] : []));
}

/** The user limit of the group (SPEC §5): hodai's maximum, emba's floor(maximum / subjects), gls's class size. */
function userLimitErrors(group: ServiceGroupRules | undefined, serviceCount: number, userCount: number): FieldError[] {
  const limit = group && userLimit(group, serviceCount);
  return limit && userCount > limit.maximum ? [error('users', limit.code, { number: limit.maximum })] : [];
}

/** Checks a new application (stored undefined) or an update of a stored one; writes nothing. */
export async function checkApplication(db: Db, context: ApplicationContext, form: SubscriptionForm, stored?: StoredApplication): Promise<CheckedApplication> {
  const services = await chosenServices(db, context, form.serviceIds);
  const group = await groupRules(db, services);
  const serviceProblems = serviceErrors(form, services, stored, group);
  const { errors: classProblems, chosenClass } = await classOrContactErrors(db, context, form, stored);
  // a closed class says why on its own: its first day is also past the start window
  const classClosed = classProblems.some((problem) => problem.code === FIELD_ERROR.classClosed);
  const errors = [
    ...serviceProblems,
    ...(classClosed ? [] : startsOnErrors(form, services, stored, context.today, chosenClass?.startsOn ?? null)),
    ...(await adminErrors(db, context.organizationId, form.adminIds)),
    ...classProblems,
    ...learnerIdErrors(form.users, stored),
    ...duplicatedEmailErrors(form.users),
    ...(serviceProblems.length === 0 ? userLimitErrors(group, services.length, form.users.length) : []),
  ];
  // warnings only for an application that may be written (a refusal answers the errors alone)
  const warnings = errors.length > 0 ? { users: [], codes: [] } : await applicationWarnings(db, context, form, stored, group, chosenClass?.kind);
  return { errors, warnings, group };
}

// ---------------------------------------------------------------------------------------------------
// Warnings (SPEC §3 User warning, §5 Application)

/** Another application of the organisation (not this one) that has one of the services in the same start month. */
async function isAlreadyBooked(db: Db, context: ApplicationContext, form: SubscriptionForm, storedId: number): Promise<boolean> {
  const row = await db
    .selectFrom('corporateSubscriptions')
    .innerJoin('subscriptionServices', 'subscriptionServices.subscriptionId', 'corporateSubscriptions.id')
    .select('corporateSubscriptions.id')
    .where('corporateSubscriptions.organizationId', '=', context.organizationId)
    .where('corporateSubscriptions.id', '!=', storedId)
    .where('subscriptionServices.serviceId', '=', anyInt(form.serviceIds))
    // the month as a range of starts_on, which the organisation's (organization_id, starts_on) index reads (issue 27)
    .where(sql<boolean>`corporate_subscriptions.starts_on >= date_trunc('month', ${form.startsOn}::date)::date`)
    .where(sql<boolean>`corporate_subscriptions.starts_on < (date_trunc('month', ${form.startsOn}::date) + interval '1 month')::date`)
    .executeTakeFirst();
  return row !== undefined;
}

function classWarnings(group: ServiceGroupRules | undefined, userCount: number, classKind: string | undefined): SubscriptionWarningCode[] {
  const codes: SubscriptionWarningCode[] = [];
  if (group?.classSize && userCount < group.classSize.minimum) codes.push('belowClassMinimum');
  if (classKind !== undefined && group && (classKind === 'gls') !== (group.identifier === 'gls')) codes.push('unregisteredClass');
  return codes;
}

/** The e-mails of the rows that are also learners of an overlapping application of the same group: its requestCode. */
async function engagedRequestCodes(db: Db, context: ApplicationContext, form: SubscriptionForm, groupId: number, storedId: number): Promise<Map<string, string>> {
  const emails = form.users.map((user) => emailKey(user.email));
  const months = context.settings.overlapMonths;
  const rows = await db
    .selectFrom('subscriptionLearners')
    .innerJoin('corporateSubscriptions', 'corporateSubscriptions.id', 'subscriptionLearners.subscriptionId')
    .select([sql<string>`lower(subscription_learners.email)`.as('email'), 'corporateSubscriptions.requestCode'])
    .where('corporateSubscriptions.organizationId', '=', context.organizationId)
    .where('corporateSubscriptions.serviceGroupId', '=', groupId)
    .where('corporateSubscriptions.id', '!=', storedId)
    // lower(email) has its index (migration 0090)
    .where(sql<boolean>`lower(subscription_learners.email) = ${anyText(emails)}`)
    .where(sql<boolean>`corporate_subscriptions.starts_on > ${form.startsOn}::date - make_interval(months => ${months})`)
    .where(sql<boolean>`corporate_subscriptions.starts_on < ${form.startsOn}::date + make_interval(months => ${months})`)
    .orderBy('corporateSubscriptions.startsOn')
    .execute();
  return new Map(rows.map((row) => [row.email, row.requestCode]));
}

const nameKey = (user: LearnerRow) => `${user.lastName}\u0000${user.firstName}`;

function userWarnings(users: LearnerRow[], engaged: Map<string, string>): SubscriptionUserWarning[][] {
  const names = new Map<string, number>();
  for (const user of users) names.set(nameKey(user), (names.get(nameKey(user)) ?? 0) + 1);
  return users.map((user) => {
    const warnings: SubscriptionUserWarning[] = [];
    if (names.get(nameKey(user))! > 1) warnings.push('duplicatedName');
    const requestCode = engaged.get(emailKey(user.email));
    if (requestCode !== undefined) warnings.push({ engagedRequestCode: requestCode });
    return warnings;
  });
}

async function applicationWarnings(
  db: Db,
  context: ApplicationContext,
  form: SubscriptionForm,
  stored: StoredApplication | undefined,
  group: ServiceGroupRules | undefined,
  classKind: string | undefined,
): Promise<SubscriptionWarnings> {
  const storedId = stored?.id ?? 0;
  const datable = isDate(form.startsOn);
  const booked = datable && form.serviceIds.length > 0 && (await isAlreadyBooked(db, context, form, storedId));
  const engaged = datable && group && form.users.length > 0 ? await engagedRequestCodes(db, context, form, group.id, storedId) : new Map<string, string>();
  const codes: SubscriptionWarningCode[] = [...(booked ? (['alreadyBooked'] as const) : []), ...classWarnings(group, form.users.length, classKind)];
  return { users: userWarnings(form.users, engaged), codes };
}
