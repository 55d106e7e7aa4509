/**
 * The manager's overview on Home (issue 30): what concerns the organisation's deadlines at a glance, in one read —
 * the applications starting in the next 90 days with their change deadlines, the invitations not yet accepted, the
 * gls classes open for registration, and the learners per start month and service group for the last and next six
 * months. Each part is bounded and read through the organisation's indexes.
 */
import { sql } from 'kysely';
import type { OverviewAnswer } from '../../common/api/answers.js';
import type { Language } from '../../common/languages.js';
import { addDays } from '../../common/subscriptionRules.js';
import type { Db } from '../db/index.js';
import type { AffiliationRole } from '../db/types.js';
import { businessCalendar } from './businessCalendar.js';
import { applicationStartsOn } from './classDeadlines.js';
import { openClasses } from './projects.js';

/** How far ahead the upcoming applications reach, and how many the overview lists at most. */
export const UPCOMING_DAYS = 90;
export const UPCOMING_LIMIT = 100;
const OPEN_CLASSES_LIMIT = 50;
/** Months before and after this one in the chart. */
const CHART_MONTHS = 6;

export interface OverviewReader {
  organizationId: number;
  language: Language;
  today: string;
  enlargementDays: number;
  /** A deadline this close (business days left, or fewer) is highlighted: the reminders' setting. */
  nearBusinessDays: number;
}

/** The applications starting from today to UPCOMING_DAYS ahead, soonest first, with their change deadlines. */
async function upcomingApplications(db: Db, reader: OverviewReader) {
  const rows = await db
    .selectFrom('corporateSubscriptions')
    .innerJoin('serviceGroups', 'serviceGroups.id', 'corporateSubscriptions.serviceGroupId')
    .select(['corporateSubscriptions.requestCode', 'serviceGroups.id as serviceGroupId', 'serviceGroups.name as serviceGroupName', applicationStartsOn.as('startsOn'), 'corporateSubscriptions.learnerCount as userCount'])
    .where('corporateSubscriptions.organizationId', '=', reader.organizationId)
    .where(applicationStartsOn, '>=', reader.today)
    .where(applicationStartsOn, '<=', addDays(reader.today, UPCOMING_DAYS))
    .orderBy('startsOn')
    .orderBy('corporateSubscriptions.id')
    .limit(UPCOMING_LIMIT)
    .execute();
  const calendar = businessCalendar();
  return rows.map((row) => {
    const changeDeadline = calendar.changeDeadline(row.startsOn);
    const isUpdatable = reader.today <= changeDeadline;
    const businessDaysLeft = isUpdatable ? calendar.businessDaysLeft(reader.today, changeDeadline) : 0;
    return {
      requestCode: row.requestCode,
      serviceGroup: { id: row.serviceGroupId, name: row.serviceGroupName[reader.language] },
      startsOn: row.startsOn,
      userCount: row.userCount,
      changeDeadline,
      isUpdatable,
      businessDaysLeft,
      deadlineNear: isUpdatable && businessDaysLeft <= reader.nearBusinessDays,
    };
  });
}

/** The organisation's admins who have not accepted their invitation (not activated yet). */
async function pendingInvitations(db: Db, organizationId: number): Promise<number> {
  const row = await db
    .selectFrom('affiliations')
    .innerJoin('admins', 'admins.id', 'affiliations.adminId')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('affiliations.organizationId', '=', organizationId)
    .where('admins.activatedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return row.count;
}

const monthOf = (date: string) => date.slice(0, 7);

/** Learners per start month and service group, from the first day CHART_MONTHS months back to the last of CHART_MONTHS ahead. */
async function learnersByMonth(db: Db, reader: OverviewReader) {
  const first = sql<string>`date_trunc('month', ${reader.today}::date - make_interval(months => ${CHART_MONTHS}))::date`;
  const end = sql<string>`date_trunc('month', ${reader.today}::date + make_interval(months => ${CHART_MONTHS + 1}))::date`;
  const rows = await db
    .selectFrom('corporateSubscriptions')
    .innerJoin('serviceGroups', 'serviceGroups.id', 'corporateSubscriptions.serviceGroupId')
    .select([applicationStartsOn.as('startsOn'), 'serviceGroups.id as serviceGroupId', 'serviceGroups.name as serviceGroupName', 'serviceGroups.position', 'corporateSubscriptions.learnerCount as learners'])
    .where('corporateSubscriptions.organizationId', '=', reader.organizationId)
    .where(sql<string>`${applicationStartsOn}::date`, '>=', first)
    .where(sql<string>`${applicationStartsOn}::date`, '<', end)
    .execute();
  const totals = new Map<string, { month: string; serviceGroupId: number; serviceGroupName: string; position: number; learners: number }>();
  for (const row of rows) {
    const key = `${monthOf(row.startsOn)} ${row.serviceGroupId}`;
    const total = totals.get(key) ?? { month: monthOf(row.startsOn), serviceGroupId: row.serviceGroupId, serviceGroupName: row.serviceGroupName[reader.language], position: row.position, learners: 0 };
    total.learners += row.learners;
    totals.set(key, total);
  }
  return [...totals.values()]
    .filter((total) => total.learners > 0)
    .sort((a, b) => a.month.localeCompare(b.month) || a.position - b.position || a.serviceGroupId - b.serviceGroupId)
    .map(({ month, serviceGroupId, serviceGroupName, learners }) => ({ month, serviceGroupId, serviceGroupName, learners }));
}

/**
 * A manager's part: the invitations (inviting is a manager's) and the open classes (the projects are a manager's, and
 * registering learners). A member's overview leaves it out (issue 44 finding 5).
 */
async function managerPart(db: Db, reader: OverviewReader): Promise<Pick<OverviewAnswer, 'pendingInvitations' | 'openClasses'>> {
  const [invitations, classes] = await Promise.all([pendingInvitations(db, reader.organizationId), openClasses(db, reader, OPEN_CLASSES_LIMIT)]);
  return {
    pendingInvitations: invitations,
    openClasses: classes.map(({ project, projectClass }) => ({
      projectCode: project.projectCode,
      projectName: project.name,
      id: projectClass.id,
      name: projectClass.name,
      startsOn: projectClass.startsOn!,
      registrationDeadline: projectClass.registrationDeadline!,
    })),
  };
}

/** The overview as the reader's role may see it: the upcoming applications and the chart for every admin, a manager's part for a manager. */
export async function organizationOverview(db: Db, reader: OverviewReader, role: AffiliationRole): Promise<OverviewAnswer> {
  const [upcoming, chart, manager] = await Promise.all([
    upcomingApplications(db, reader),
    learnersByMonth(db, reader),
    role === 'manager' ? managerPart(db, reader) : undefined,
  ]);
  return { today: reader.today, upcomingApplications: upcoming, ...manager, learnersByMonth: chart };
}
