/**
 * An organisation's sign-in rule as a versioned setting (issue 44, finding 10; issue 28): its version is the
 * organisation row's (domain/versions.ts), which the rule's changes write, and a manager's change is made only on the
 * version their page showed.
 */
import type { Db } from '../db/index.js';
import type { AuditTrail } from './audit.js';
import { etagColumn, etagKey, requireVersion, type Precondition, type VersionedTarget } from './versions.js';

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
 * in one transaction with the row locked and the trail's entry; answers the rule with its version, and whether it changed.
 */
export async function changeSignInRule(
  db: Db,
  organizationId: number,
  required: boolean,
  precondition: Precondition | undefined,
  trail: AuditTrail,
): Promise<{ rule: SignInRule; changed: boolean }> {
  const key = await etagKey(db);
  return db.transaction().execute(async (trx) => {
    const seen = await trx
      .selectFrom('organizations')
      .select(['gloplaId', 'twoStepRequired', etagColumn(key, 'organizations').as('etag')])
      .where('id', '=', organizationId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    requireVersion(seen.etag, precondition, signInRuleTarget(organizationId));
    if (seen.twoStepRequired === required) return { rule: { twoStepRequired: seen.twoStepRequired, etag: seen.etag }, changed: false };
    await trx.updateTable('organizations').set({ twoStepRequired: required, updatedAt: new Date() }).where('id', '=', organizationId).execute();
    const changes = { twoStepRequired: { before: seen.twoStepRequired, after: required } };
    await trail.record(trx, { action: 'organization.twoStepRuleChanged', target: { type: 'organization', id: organizationId, label: seen.gloplaId }, changes });
    return { rule: await ruleOf(trx, key, organizationId), changed: true };
  });
}
