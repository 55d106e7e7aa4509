/** Feature flags (SPEC §3 Feature flag): a name and whether it is enabled; an unknown name is disabled. */
import type { Db } from '../db/index.js';

export async function isFeatureEnabled(db: Db, name: string): Promise<boolean> {
  const row = await db.selectFrom('featureFlags').select('enabled').where('name', '=', name).executeTakeFirst();
  return row?.enabled === true;
}
