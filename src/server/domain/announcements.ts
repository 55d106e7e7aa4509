/** Announcement articles (SPEC §3 Announcement article, 2.2 announcements icon), in the reader's language. */
import type { AnnouncementArticle } from '../../common/api/answers.js';
import type { Language } from '../../common/languages.js';
import type { Db } from '../db/index.js';

/** How many of the newest articles the portal lists (and counts as unread at most). */
export const ANNOUNCEMENT_ARTICLES_LIMIT = 50;

/** The published articles (published_at not in the future), newest first, at most ANNOUNCEMENT_ARTICLES_LIMIT. */
export async function listAnnouncementArticles(db: Db, language: Language, now: Date = new Date()): Promise<AnnouncementArticle[]> {
  const rows = await db
    .selectFrom('announcementArticles')
    .select(['id', 'title', 'body', 'url', 'publishedAt'])
    .where('publishedAt', '<=', now)
    .orderBy('publishedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(ANNOUNCEMENT_ARTICLES_LIMIT)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title[language],
    publishedAt: new Date(row.publishedAt).toISOString(),
    body: row.body[language],
    url: row.url,
  }));
}
