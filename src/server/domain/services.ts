/**
 * The provider's learning services (SPEC §1, §3 Service, Service group, Link category), in the reader's language, as
 * the session's organisation may use them: every call lists only the services of `organization_services` for the
 * organisation the session was signed in for (the token's glopla_id, joined through the caller's affiliation), and the
 * groups that hold at least one of them. A group or service outside that list is unknown (404), as one that does not
 * exist.
 *
 * Home shows one card per group, its representative service: the one whose id equals the group's (SPEC 2.8's
 * service-detail ids 1..10), else the group's first service the organisation may use.
 *
 * Links are filtered by the caller's role (a member gets description, admin and other_sso only, SPEC §6) and
 * rewritten here (SPEC §7, src/common/serviceLinks.ts): the server knows the organisation, the role and the caller's
 * own access token, so the browser shows what it gets.
 */
import { sql } from 'kysely';
import type { Language } from '../../common/languages.js';
import type { GroupServicesAnswer, ProjectClassesAnswer, Service, ServiceCard, ServiceGroup, ServiceLinkAnswer } from '../../common/api/answers.js';
import { MEMBER_LINK_CATEGORIES, rewriteServiceLink, type LinkExceptions } from '../../common/serviceLinks.js';
import type { Db } from '../db/index.js';
import type { AffiliationRole, LocalizedText, ServiceSelection } from '../db/types.js';

/** Who reads the catalogue: the session's organisation, the caller's role in it, and what rewriting needs. */
export interface CatalogueReader {
  organizationId: number;
  gloplaId: string;
  role: AffiliationRole;
  /** The caller's own access token (the `at` parameter of links to the provider's sign-in host). */
  token: string;
  language: Language;
  exceptions: LinkExceptions;
}

/** The services the organisation may use. */
function usableServices(db: Db, organizationId: number) {
  return db
    .selectFrom('services')
    .innerJoin('organizationServices', 'organizationServices.serviceId', 'services.id')
    .where('organizationServices.organizationId', '=', organizationId);
}

interface LinkRow {
  serviceId: number | null;
  serviceGroupId: number | null;
  category: ServiceLinkAnswer['category'];
  url: string;
  label: LocalizedText;
}

async function linksOf(db: Db, serviceIds: number[], groupIds: number[]): Promise<LinkRow[]> {
  if (serviceIds.length === 0 && groupIds.length === 0) return [];
  return db
    .selectFrom('serviceLinks')
    .select(['serviceId', 'serviceGroupId', 'category', 'url', 'label'])
    .where((eb) => eb.or([eb('serviceId', 'in', serviceIds.length ? serviceIds : [0]), eb('serviceGroupId', 'in', groupIds.length ? groupIds : [0])]))
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/**
 * SPEC §6: school-type training (5) and the assessment product (6) are applied for on their own sites regardless of
 * role, which §6 states over 2.8's member categories: a member sees their purchase links too.
 */
export const OWN_SITE_PURCHASE_GROUP_IDS: readonly number[] = [5, 6];

/** Whether the reader's role shows a link of this category of this group (SPEC 2.8, §6). */
function linkShown(role: AffiliationRole, category: LinkRow['category'], serviceGroupId: number): boolean {
  if (role === 'manager' || MEMBER_LINK_CATEGORIES.includes(category)) return true;
  return category === 'purchase' && OWN_SITE_PURCHASE_GROUP_IDS.includes(serviceGroupId);
}

/** The links the reader sees, rewritten (SPEC §6 member categories, §7 rewriting). */
function shownLinks(rows: LinkRow[], reader: CatalogueReader, serviceGroupId: number, serviceId: number): ServiceLinkAnswer[] {
  return rows
    .filter((row) => linkShown(reader.role, row.category, serviceGroupId))
    .map((row) =>
      rewriteServiceLink(
        { url: row.url, category: row.category, label: row.label[reader.language] },
        { serviceGroupId, serviceId, gloplaId: reader.gloplaId, token: reader.token, language: reader.language, exceptions: reader.exceptions },
      ),
    );
}

/** Home (SPEC 2.7): one card per group the organisation may use, its representative service; ordered by group. */
export async function listServiceCards(db: Db, organizationId: number, language: Language): Promise<ServiceCard[]> {
  const rows = await usableServices(db, organizationId)
    .innerJoin('serviceGroups', 'serviceGroups.id', 'services.serviceGroupId')
    .select(['services.id', 'services.name', 'services.subtitle', 'services.summary', 'services.thumbnailUrl', 'serviceGroups.id as groupId', 'serviceGroups.name as groupName'])
    .orderBy('serviceGroups.position')
    .orderBy('serviceGroups.id')
    // the representative first within its group, then the group's order
    .orderBy(sql`services.id = services.service_group_id`, 'desc')
    .orderBy('services.position')
    .orderBy('services.id')
    .execute();
  const seen = new Set<number>();
  const cards: ServiceCard[] = [];
  for (const row of rows) {
    if (seen.has(row.groupId)) continue;
    seen.add(row.groupId);
    cards.push({
      id: row.id,
      name: row.name[language],
      subtitle: row.subtitle[language],
      summary: row.summary[language],
      thumbnailUrl: row.thumbnailUrl,
      serviceGroup: { id: row.groupId, name: row.groupName[language] },
    });
  }
  return cards;
}

const serviceColumns = [
  'services.id',
  'services.serviceGroupId',
  'services.name',
  'services.subtitle',
  'services.summary',
  'services.description',
  'services.thumbnailUrl',
  'services.imageUrl',
  'services.discontinued',
  'serviceGroups.name as groupName',
] as const;

async function servicesWhere(db: Db, reader: CatalogueReader, where: { serviceId?: number; serviceGroupId?: number }): Promise<Service[]> {
  let query = usableServices(db, reader.organizationId)
    .innerJoin('serviceGroups', 'serviceGroups.id', 'services.serviceGroupId')
    .select([...serviceColumns, sql<string | null>`to_char(services.last_starts_on, 'YYYY-MM-DD')`.as('lastStartsOn')])
    .orderBy('services.position')
    .orderBy('services.id');
  if (where.serviceId !== undefined) query = query.where('services.id', '=', where.serviceId);
  if (where.serviceGroupId !== undefined) query = query.where('services.serviceGroupId', '=', where.serviceGroupId);
  const rows = await query.execute();
  const links = await linksOf(
    db,
    rows.map((row) => row.id),
    [...new Set(rows.map((row) => row.serviceGroupId))],
  );
  const { language } = reader;
  return rows.map((row) => ({
    id: row.id,
    name: row.name[language],
    subtitle: row.subtitle[language],
    summary: row.summary[language],
    description: row.description[language],
    thumbnailUrl: row.thumbnailUrl,
    imageUrl: row.imageUrl,
    discontinued: row.discontinued,
    lastStartsOn: row.lastStartsOn,
    urls: shownLinks(
      links.filter((link) => link.serviceId === row.id),
      reader,
      row.serviceGroupId,
      row.id,
    ),
    serviceGroup: {
      id: row.serviceGroupId,
      name: row.groupName[language],
      urls: shownLinks(
        links.filter((link) => link.serviceGroupId === row.serviceGroupId),
        reader,
        row.serviceGroupId,
        row.id,
      ),
    },
  }));
}

/** Service Details (SPEC 2.8): the service, or undefined when it does not exist or the organisation may not use it. */
export async function findService(db: Db, reader: CatalogueReader, serviceId: number): Promise<Service | undefined> {
  return (await servicesWhere(db, reader, { serviceId }))[0];
}

/** The group's services the organisation may use, in the group's order; undefined for an unknown group. */
export async function listGroupServices(db: Db, reader: CatalogueReader, serviceGroupId: number): Promise<GroupServicesAnswer['services'] | undefined> {
  const services = await servicesWhere(db, reader, { serviceGroupId });
  return services.length === 0 ? undefined : services;
}

/** The groups the organisation may use (at least one of their services), in the family's order. */
export async function listServiceGroups(db: Db, reader: CatalogueReader, serviceGroupId?: number): Promise<ServiceGroup[]> {
  let query = db
    .selectFrom('serviceGroups')
    .select(['id', 'identifier', 'name', 'selection', 'maximumUsers', 'classSizeMinimum', 'classSizeMaximum'])
    .where('id', 'in', usableServices(db, reader.organizationId).select('services.serviceGroupId'))
    .orderBy('position')
    .orderBy('id');
  if (serviceGroupId !== undefined) query = query.where('id', '=', serviceGroupId);
  const rows = await query.execute();
  const links = await linksOf(
    db,
    [],
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    identifier: row.identifier,
    name: row.name[reader.language],
    selection: row.selection satisfies ServiceSelection,
    maximumUsers: row.maximumUsers,
    classSize: row.classSizeMinimum !== null && row.classSizeMaximum !== null ? { minimum: row.classSizeMinimum, maximum: row.classSizeMaximum } : null,
    // a group's links name no service: the project layout's locale rule does not apply (service id 0)
    urls: shownLinks(
      links.filter((link) => link.serviceGroupId === row.id),
      reader,
      row.id,
      0,
    ),
  }));
}

/** The links of these groups the reader sees, rewritten (a group's links name no service: service id 0), by group id. */
export async function serviceGroupLinks(db: Db, reader: CatalogueReader, groupIds: number[]): Promise<Map<number, ServiceLinkAnswer[]>> {
  const links = await linksOf(db, [], groupIds);
  return new Map(
    groupIds.map((groupId) => [
      groupId,
      shownLinks(
        links.filter((link) => link.serviceGroupId === groupId),
        reader,
        groupId,
        0,
      ),
    ]),
  );
}

/** The organisation's project classes, bundled and gls (SPEC §3 Organization.projectClass), with their projects. */
export async function listProjectClasses(db: Db, organizationId: number): Promise<ProjectClassesAnswer> {
  const rows = await db
    .selectFrom('projectClasses')
    .innerJoin('projects', 'projects.id', 'projectClasses.projectId')
    .select(['projectClasses.id', 'projectClasses.name', 'projectClasses.code', 'projectClasses.kind', 'projects.projectCode', 'projects.name as projectName'])
    .where('projects.organizationId', '=', organizationId)
    .orderBy('projects.projectCode')
    .orderBy('projectClasses.position')
    .orderBy('projectClasses.id')
    .execute();
  const projects = new Map<string, { projectCode: string; name: string }>();
  const projectClasses: ProjectClassesAnswer['projectClasses'] = { bundled: [], gls: [] };
  for (const row of rows) {
    projects.set(row.projectCode, { projectCode: row.projectCode, name: row.projectName });
    projectClasses[row.kind].push({ id: row.id, name: row.name, projectCode: row.projectCode, code: row.code });
  }
  return { projectClasses, projects: [...projects.values()] };
}
