/** Notices shown above the page content (SPEC §2.2), each for a target such as enterprise_portal. */
import type { Notice } from '../../common/api/answers.js';
import type { Db } from '../db/index.js';

/** Notices in effect at `now` (no start or started, no end or not yet ended), oldest first. */
export async function listNoticesInEffect(db: Db, options: { now?: Date; target?: string } = {}): Promise<Notice[]> {
  const now = options.now ?? new Date();
  let query = db
    .selectFrom('notices')
    .select(['id', 'target', 'contentJa', 'contentEn'])
    .where((eb) => eb.or([eb('startsAt', 'is', null), eb('startsAt', '<=', now)]))
    .where((eb) => eb.or([eb('endsAt', 'is', null), eb('endsAt', '>', now)]))
    .orderBy('id');
  if (options.target !== undefined) query = query.where('target', '=', options.target);
  return query.execute();
}
