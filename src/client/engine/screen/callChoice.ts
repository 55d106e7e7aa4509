/** Which endpoint a call goes to: the definition's, or the first of its `instead` alternatives whose condition holds. */
import type { CallDefinition } from '../../../common/screens.js';
import { matches } from './conditions.js';

export function chooseCall<T extends CallDefinition>(definition: T, context: object): T {
  const chosen = definition.instead?.find((alternative) => matches(alternative.when, context));
  if (!chosen) return definition;
  const { when: _when, ...endpoint } = chosen;
  return { ...definition, ...endpoint, method: endpoint.method ?? definition.method };
}
