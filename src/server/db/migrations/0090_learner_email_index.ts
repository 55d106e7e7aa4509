/**
 * An application's checks at a large provider's size (issue 27 item 1): the learners of the organisation's other
 * applications are looked up by e-mail without regard to case (domain/corporateSubscriptionChecks.ts), which the
 * plain e-mail index cannot serve — with 3,000,000 application learners every such check scanned them.
 * `if not exists`: on a large table, create it beforehand `concurrently` with this name (docs/operations.md).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('create index if not exists subscription_learners_email_lower on subscription_learners (lower(email))').execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw('drop index if exists subscription_learners_email_lower').execute(db);
}
