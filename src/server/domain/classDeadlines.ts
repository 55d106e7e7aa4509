/**
 * The class enrolment deadlines of a confirmed application (SPEC §4 'Class enrolment deadlines', §8 'Application
 * errors'): none of the stored learners may be removed (reductionDeadline), and none added after startsOn + the
 * enlargement days (enlargementDeadline). A learner is a row's identity — its e-mail and names — not its id: a kept
 * id that takes other names or another e-mail removes its learner and adds another, so it is refused too.
 */
import { sql } from 'kysely';
import { addDays } from '../../common/subscriptionRules.js';
import { FIELD_ERROR, type FieldError } from '../../common/errorCodes.js';
import type { SubscriptionsConfig } from '../config.js';
import type { Db } from '../db/index.js';
import type { LearnerRow } from './corporateSubscriptionChecks.js';

/**
 * An application's start date, as every read and every deadline takes it (is_updatable, the change deadline, the
 * class deadlines, cancelling; issue 25): the first day of its class when the class has a period — the class owns
 * it, whatever date was stored — else its own. Selected from corporate_subscriptions, joined or not.
 */
export const applicationStartsOn = sql<string>`to_char(coalesce(
  (select project_classes.starts_on from project_classes where project_classes.id = corporate_subscriptions.project_class_id),
  corporate_subscriptions.starts_on), 'YYYY-MM-DD')`;

type Identity = Pick<LearnerRow, 'firstName' | 'lastName' | 'kanaFirstName' | 'kanaLastName' | 'email'>;
export type StoredLearner = Identity & { id: number };

/** The stored learners of the application in their order, with what makes each one a learner. */
export async function storedLearners(db: Db, subscriptionId: number): Promise<StoredLearner[]> {
  return db
    .selectFrom('subscriptionLearners')
    .select(['id', 'firstName', 'lastName', 'kanaFirstName', 'kanaLastName', 'email'])
    .where('subscriptionId', '=', subscriptionId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Same learner: the e-mail in any case (as the duplicate check compares it), the names as written. */
const sameLearner = (stored: Identity, row: Identity) =>
  stored.email.toLowerCase() === row.email.toLowerCase() &&
  stored.firstName === row.firstName &&
  stored.lastName === row.lastName &&
  stored.kanaFirstName === row.kanaFirstName &&
  stored.kanaLastName === row.kanaLastName;

const reduction = (field: string, stored: StoredLearner): FieldError => ({ field, code: FIELD_ERROR.reductionDeadline, meta: { email: stored.email } });
const enlargement = (index: number, row: LearnerRow): FieldError => ({
  field: `users.${index}.email`,
  code: FIELD_ERROR.enlargementDeadline,
  meta: { lineNo: index + 1, email: row.email },
});

/**
 * The deadline errors of the form's rows: a removed learner answers reductionDeadline on its row of the stored list;
 * a row without an id, past the enlargement deadline, answers enlargementDeadline (lineNo = the row's number,
 * 1-based); a kept id with another identity answers on its own row enlargementDeadline past the enlargement deadline
 * (the learner it brings in), reductionDeadline before it (the learner it would take out).
 */
export function deadlineErrors(stored: { startsOn: string; learners: StoredLearner[] }, users: LearnerRow[], context: { today: string; settings: SubscriptionsConfig }): FieldError[] {
  const keptIds = new Set(users.flatMap((user) => (user.id === undefined ? [] : [user.id])));
  const byId = new Map(stored.learners.map((learner) => [learner.id, learner]));
  const removed = stored.learners.flatMap((learner, index) => (keptIds.has(learner.id) ? [] : [reduction(`users.${index}.email`, learner)]));
  const closed = context.today > addDays(stored.startsOn, context.settings.enlargementDays);
  const rows = users.flatMap((user, index) => {
    const kept = user.id === undefined ? undefined : byId.get(user.id);
    if (!kept) return closed && user.id === undefined ? [enlargement(index, user)] : [];
    if (sameLearner(kept, user)) return [];
    return [closed ? enlargement(index, user) : reduction(`users.${index}.email`, kept)];
  });
  return [...removed, ...rows];
}
