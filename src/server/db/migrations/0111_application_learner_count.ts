/**
 * An application's number of learners, stored on the application (issue 47: Service Details lists 999 applications a
 * page, and counting each one's learners was a third of the statement's time). Triggers keep it, one statement per
 * insert or delete whatever it moves (transition tables): the domain's writes, the seed's, an operator's SQL alike. A
 * learner never moves to another application (nothing updates subscription_id), so updates leave the count alone.
 *
 * The first count is no change of the application: it is written with the updated_at trigger (0109) off, so that
 * an incremental sync does not see every application again.
 * One statement per call: PGlite's extended protocol runs a single statement at a time.
 */
import { sql, type Kysely } from 'kysely';

const upStatements = [
  'alter table corporate_subscriptions add column learner_count integer not null default 0',
  'alter table corporate_subscriptions disable trigger corporate_subscriptions_updated_at',
  `update corporate_subscriptions set learner_count = counted.learners
    from (select subscription_id, count(*)::int as learners from subscription_learners group by subscription_id) as counted
    where corporate_subscriptions.id = counted.subscription_id`,
  'alter table corporate_subscriptions enable trigger corporate_subscriptions_updated_at',
  `create function subscription_learners_count() returns trigger language plpgsql as $$
  begin
    if tg_op = 'INSERT' then
      update corporate_subscriptions set learner_count = learner_count + counted.learners
        from (select subscription_id, count(*)::int as learners from added group by subscription_id) as counted
        where corporate_subscriptions.id = counted.subscription_id;
    else
      update corporate_subscriptions set learner_count = learner_count - counted.learners
        from (select subscription_id, count(*)::int as learners from removed group by subscription_id) as counted
        where corporate_subscriptions.id = counted.subscription_id;
    end if;
    return null;
  end
  $$`,
  `create trigger subscription_learners_added after insert on subscription_learners
    referencing new table as added for each statement execute function subscription_learners_count()`,
  `create trigger subscription_learners_removed after delete on subscription_learners
    referencing old table as removed for each statement execute function subscription_learners_count()`,
];

const downStatements = [
  'drop trigger if exists subscription_learners_removed on subscription_learners',
  'drop trigger if exists subscription_learners_added on subscription_learners',
  'drop function if exists subscription_learners_count()',
  'alter table corporate_subscriptions drop column if exists learner_count',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of upStatements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const statement of downStatements) await sql.raw(statement).execute(db);
}
