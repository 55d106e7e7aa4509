/** Whether the context satisfies a block's condition, with the validators precompiled at build time (no eval). */
import conditions from '../../../../build/generated/conditions.cjs';
import type { Condition } from '../../../common/screens.js';

export function matches(condition: Condition | undefined, context: object): boolean {
  if (!condition) return true;
  const name = conditions.index[JSON.stringify(condition)];
  const validate = name ? conditions[name] : undefined;
  // a condition the build did not see (a definition changed without npm run build) must not show guarded content
  if (!validate) throw new Error(`condition not precompiled: ${JSON.stringify(condition)}`);
  return validate(context) === true;
}
