/**
 * An organisation's sign-in rule as a versioned setting (issue 44, finding 10; issue 28): its version is the
 * organisation row's (domain/versions.ts), which the rule's changes write, and a manager's change is made only on the
 * version their page showed. The rule itself is set by twoStep.ts's setTwoStepRule.
 */
import type { Db } from '../db/index.js';
import type { AuditTrail } from './audit.js';
import { setTwoStepRule } from './twoStep.js';
import { etagColumn, etagKey, requireVersion, StaleVersion, type Precondition, type VersionedTarget } from './versions.js';

export interface SignInRule {
  twoStepRequired: boolean;
  /** The rule's version, a strong entity tag. */
  etag: string;
}

/** The rule as the trail calls it: the organisation, as the rule's changes name it (a 412 says who and when). */
export const signInRuleTarget = (organizationId: number): VersionedTarget => ({ type: 'organization', id: organizationId, actions: ['organization.twoStepRuleChanged'] });

const ruleOf = (db: Db, key: string, organizationId: number): Promise<SignInRule> =>
  db.selectFrom('organizations').select(['twoStepRequired', etagColumn(key, 'organizations').as('etag')]).where('id', '=', organizationId).executeTakeFirstOrThrow();

/** The organisation's rule and its version. */
export async function signInRule(db: Db, organizationId: number): Promise<SignInRule> {
  return ruleOf(db, await etagKey(db), organizationId);
}

/**
 * Turns the rule on or off if it is still the version the precondition asks for (else StaleVersion, nothing changed),
 * and answers the rule with the version the change made.
 */
export async function changeSignInRule(db: Db, organizationId: number, required: boolean, precondition: Precondition | undefined, trail: AuditTrail): Promise<SignInRule> {
  const key = await etagKey(db);
  const seen = await ruleOf(db, key, organizationId);
  const target = signInRuleTarget(organizationId);
  requireVersion(seen.etag, precondition, target);
  let written: SignInRule | undefined;
  // setTwoStepRule locks the row before it writes, and records the change in the same transaction: a change another
  // manager made since the check above shows there as a rule other than the one seen, and rolls this one back
  await setTwoStepRule(db, organizationId, required, {
    async record(trx, entry) {
      const before = entry.changes?.twoStepRequired?.before;
      if (entry.action === 'organization.twoStepRuleChanged' && Array.isArray(precondition) && before !== seen.twoStepRequired) throw new StaleVersion(target);
      await trail.record(trx, entry);
      written = await ruleOf(trx, key, organizationId);
    },
  });
  return written ?? (await ruleOf(db, key, organizationId));
}
