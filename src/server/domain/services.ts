/** The provider's learning services (SPEC §1, §3 Service), in the reader's language. */
import type { Db } from '../db/index.js';
import type { Language } from '../../common/languages.js';
import type { ServiceCard } from '../../common/api/answers.js';


/** Every service for the Home grid, ordered by id. */
export async function listServices(db: Db, language: Language): Promise<ServiceCard[]> {
  const rows = await db
    .selectFrom('services')
    .innerJoin('serviceGroups', 'serviceGroups.id', 'services.serviceGroupId')
    .select(['services.id', 'services.name', 'services.subtitle', 'services.summary', 'services.thumbnailUrl', 'serviceGroups.id as groupId', 'serviceGroups.name as groupName'])
    .orderBy('services.id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name[language],
    subtitle: row.subtitle[language],
    summary: row.summary[language],
    thumbnailUrl: row.thumbnailUrl,
    serviceGroup: { id: row.groupId, name: row.groupName[language] },
  }));
}
