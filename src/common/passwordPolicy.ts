/**
 * The password strength rule of SPEC §5: a score from 0 to 4 (zxcvbn); submit needs MIN_PASSWORD_SCORE; a password
 * that scores 2 or more but breaks the policy (the field's schema: length and pattern) is forced to 1. The policy is
 * read from the schema, so schemas/common.json stays the only place the rule lives.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** Submit needs at least this score (SPEC §5, §9). */
export const MIN_PASSWORD_SCORE: StrengthScore = 2;

export interface PasswordPolicy {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** The policy parts of a (resolved) field schema. */
export function policyFromSchema(schema: { minLength?: unknown; maxLength?: unknown; pattern?: unknown } | undefined): PasswordPolicy {
  const policy: PasswordPolicy = {};
  if (typeof schema?.minLength === 'number') policy.minLength = schema.minLength;
  if (typeof schema?.maxLength === 'number') policy.maxLength = schema.maxLength;
  if (typeof schema?.pattern === 'string') policy.pattern = schema.pattern;
  return policy;
}

/** Lengths count characters (code points), as JSON Schema does; the pattern is a Unicode regular expression, as in ajv. */
export function meetsPolicy(password: string, policy: PasswordPolicy): boolean {
  const length = [...password].length;
  if (policy.minLength !== undefined && length < policy.minLength) return false;
  if (policy.maxLength !== undefined && length > policy.maxLength) return false;
  if (policy.pattern !== undefined && !new RegExp(policy.pattern, 'u').test(password)) return false;
  return true;
}

/** The score shown and used: zxcvbn's, forced to 1 when it is 2 or more but the policy fails. */
export function strengthScore(estimated: number, password: string, policy: PasswordPolicy): StrengthScore {
  const score = Math.max(0, Math.min(4, Math.round(estimated))) as StrengthScore;
  if (score >= MIN_PASSWORD_SCORE && !meetsPolicy(password, policy)) return 1;
  return score;
}
