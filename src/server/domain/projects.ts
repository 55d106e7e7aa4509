/**
 * The organisation's gls projects and their classes (SPEC §3 Project, Project class; 2.1 class routes; 2.8 project
 * layout; issue 17): what the Register Learners (class) page names (project, class, period) and what the gls Service
 * Details lists (each class with its applications and their state). Every read names the organisation: another
 * organisation's project or class reads as unknown. Only gls classes: a bundled class is chosen in the standard wizard.
 */
import { sql } from 'kysely';
import type { ProjectAnswer, ProjectClassAnswer, ProjectsAnswer } from '../../common/api/answers.js';
import { addDays } from '../../common/subscriptionRules.js';
import type { Db } from '../db/index.js';
import { businessCalendar } from './businessCalendar.js';
import { applicationStartsOn } from './classDeadlines.js';

/** Who reads: the organisation, today (Asia/Tokyo), the enlargement days of the class deadlines. */
export interface ProjectReader {
  organizationId: number;
  today: string;
  enlargementDays: number;
}

/** projectCode as the demo and the provider write it; anything else is no project's (never sent to the database). */
const PROJECT_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

function glsClasses(db: Db, organizationId: number) {
  return db
    .selectFrom('projectClasses')
    .innerJoin('projects', 'projects.id', 'projectClasses.projectId')
    .select([
      'projects.id as projectId',
      'projects.projectCode',
      'projects.name as projectName',
      'projectClasses.id',
      'projectClasses.code',
      'projectClasses.name',
      sql<string | null>`to_char(project_classes.starts_on, 'YYYY-MM-DD')`.as('startsOn'),
      sql<string | null>`to_char(project_classes.ends_on, 'YYYY-MM-DD')`.as('endsOn'),
    ])
    .where('projects.organizationId', '=', organizationId)
    .where('projectClasses.kind', '=', 'gls');
}

type ClassRow = { projectId: number; projectCode: string; projectName: string; id: number; code: string; name: string; startsOn: string | null; endsOn: string | null };

/**
 * A class as the pages show it: its period and whether learners may still be registered (a class without a period
 * is not open: nothing says when it starts).
 */
export function classPeriod(row: ClassRow, today: string) {
  const registrationDeadline = row.startsOn === null ? null : businessCalendar().lastApplicationDay(row.startsOn);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    open: registrationDeadline !== null && today <= registrationDeadline,
    registrationDeadline,
  };
}

const projectOf = (row: ClassRow) => ({ id: row.projectId, projectCode: row.projectCode, name: row.projectName });

/** One gls class of one of the organisation's projects; undefined for an unknown project, or a class of another. */
export async function findProjectClass(db: Db, reader: ProjectReader, projectCode: string, projectClassId: number): Promise<ProjectClassAnswer | undefined> {
  if (!PROJECT_CODE.test(projectCode)) return undefined;
  const row = await glsClasses(db, reader.organizationId).where('projects.projectCode', '=', projectCode).where('projectClasses.id', '=', projectClassId).executeTakeFirst();
  return row && { project: projectOf(row), projectClass: classPeriod(row, reader.today) };
}

/** 'A' + 9 digits: anything else is no application's (never sent to the database). */
const REQUEST_CODE = /^A[0-9]{9}$/;

/**
 * The project and the gls class of one of the organisation's class applications, when the application is of a class
 * of this project (Edit learner registration (class): the route names both); undefined otherwise — an unknown
 * project or application, another organisation's, an application of another project's class or without a class.
 */
export async function findProjectSubscription(db: Db, reader: ProjectReader, projectCode: string, requestCode: string): Promise<ProjectClassAnswer | undefined> {
  if (!PROJECT_CODE.test(projectCode) || !REQUEST_CODE.test(requestCode)) return undefined;
  const row = await glsClasses(db, reader.organizationId)
    .innerJoin('corporateSubscriptions', 'corporateSubscriptions.projectClassId', 'projectClasses.id')
    .where('corporateSubscriptions.organizationId', '=', reader.organizationId)
    .where('corporateSubscriptions.requestCode', '=', requestCode)
    .where('projects.projectCode', '=', projectCode)
    .executeTakeFirst();
  return row && { project: projectOf(row), projectClass: classPeriod(row, reader.today) };
}

/** One of the organisation's projects with a gls class; undefined when unknown (another organisation's included). */
export async function findProject(db: Db, reader: ProjectReader, projectCode: string): Promise<ProjectAnswer | undefined> {
  if (!PROJECT_CODE.test(projectCode)) return undefined;
  const row = await glsClasses(db, reader.organizationId).where('projects.projectCode', '=', projectCode).executeTakeFirst();
  return row && { project: { id: row.projectId, projectCode: row.projectCode, name: row.projectName } };
}

/**
 * The first start date a class may still be registered for today: every class starting on it or later is open, none
 * before, as a later start's registration deadline is never earlier (the day lastApplicationDay finds for a start
 * qualifies for any later one). A few days from today: today's earliest start date is open.
 */
export function firstOpenStartsOn(today: string): string {
  const calendar = businessCalendar();
  let startsOn = today;
  while (calendar.lastApplicationDay(startsOn) < today) startsOn = addDays(startsOn, 1);
  return startsOn;
}

/**
 * The organisation's gls classes still open for registration, soonest first (at most `limit`): the manager's overview.
 * Open is asked of the database, before the limit: classes closed but still to start would otherwise fill it (issue 44).
 */
export async function openClasses(db: Db, reader: ProjectReader, limit: number) {
  const rows = await glsClasses(db, reader.organizationId)
    .where('projectClasses.startsOn', '>=', sql<string>`${firstOpenStartsOn(reader.today)}::date`)
    .orderBy('projectClasses.startsOn')
    .orderBy('projectClasses.id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ project: projectOf(row), projectClass: classPeriod(row, reader.today) }));
}

/** The organisation's gls projects, in code order, each class with its applications (earliest start first). */
export async function listProjects(db: Db, reader: ProjectReader): Promise<ProjectsAnswer> {
  const classes = await glsClasses(db, reader.organizationId).orderBy('projects.projectCode').orderBy('projectClasses.position').orderBy('projectClasses.id').execute();
  const subscriptions = await db
    .selectFrom('corporateSubscriptions')
    .innerJoin('projectClasses', 'projectClasses.id', 'corporateSubscriptions.projectClassId')
    .select([
      'corporateSubscriptions.projectClassId',
      'corporateSubscriptions.requestCode',
      applicationStartsOn.as('startsOn'),
      'corporateSubscriptions.learnerCount as userCount',
    ])
    .where('corporateSubscriptions.organizationId', '=', reader.organizationId)
    .where('projectClasses.kind', '=', 'gls')
    .orderBy('startsOn')
    .orderBy('corporateSubscriptions.id')
    .execute();
  const projects = new Map<number, ProjectsAnswer['projects'][number]>();
  const projectClasses = classes.map((row) => {
    const project = projects.get(row.projectId) ?? { id: row.projectId, projectCode: row.projectCode, name: row.projectName };
    projects.set(row.projectId, project);
    return {
      ...classPeriod(row, reader.today),
      project,
      subscriptions: subscriptions
        .filter((subscription) => subscription.projectClassId === row.id)
        .map(({ requestCode, startsOn, userCount }) => ({
          requestCode,
          state: businessCalendar().isUpdatable(startsOn, reader.today) ? ('changeable' as const) : ('confirmed' as const),
          startsOn,
          userCount,
          classDeadlines: businessCalendar().classDeadlines(startsOn, reader.today, reader.enlargementDays),
        })),
    };
  });
  return { projects: [...projects.values()], projectClasses };
}
