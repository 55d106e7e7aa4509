/**
 * Announcement articles (issue 9 §3): the table exists since 0001 (title and body in both languages as jsonb, url,
 * published_at); the list the header counts and the announcement page shows reads the newest published ones
 * (`where published_at <= now() order by published_at desc, id desc limit 50`), which this index serves.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('create index announcement_articles_newest on announcement_articles (published_at desc, id desc)').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists announcement_articles_newest').execute(db);
}
