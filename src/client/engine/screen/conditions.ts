/**
 * Whether the context satisfies a block's condition, with the validators precompiled at build time (no eval). The
 * menu's conditions are here from the start; a screen's arrive with its chunk (screenModule.ts), before it renders.
 */
import frameConditions from '../../../../build/generated/conditions.cjs';
import type { Condition } from '../../../common/screens.js';

type Validate = (data: unknown) => boolean;
export type ConditionsModule = { index: Record<string, string> } & Record<string, unknown>;

const validators = new Map<string, Validate>();

/** Adds the validators of a precompiled conditions module (scripts/generate.ts), found by a condition's JSON text. */
export function addConditions(module: ConditionsModule): void {
  for (const [key, name] of Object.entries(module.index)) validators.set(key, module[name] as Validate);
}

addConditions(frameConditions);

/** Each condition's validator, found once by its JSON text: a screen asks its conditions at every render (issue 47). */
const byCondition = new WeakMap<Condition, Validate>();

function validatorOf(condition: Condition): Validate {
  let validate = byCondition.get(condition);
  if (!validate) {
    validate = validators.get(JSON.stringify(condition));
    // a condition the build did not see (a definition changed without npm run build) must not show guarded content
    if (!validate) throw new Error(`condition not precompiled: ${JSON.stringify(condition)}`);
    byCondition.set(condition, validate);
  }
  return validate;
}

export function matches(condition: Condition | undefined, context: object): boolean {
  return !condition || validatorOf(condition)(context) === true;
}
