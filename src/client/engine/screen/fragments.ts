/**
 * Shared blocks (screens/fragments/<name>.json, FragmentBlock): one definition shown by several screens with their
 * own inputs, e.g. SPEC 2.11's order summary on the wizard's confirm step and on Application Details.
 */
import fragments from '../../../../build/generated/fragments.json';
import type { FragmentDefinition } from '../../../common/screens.js';

const byName = new Map(Object.entries(fragments as Record<string, FragmentDefinition>));

/** Adds a fragment beside those of screens/fragments/ (tests try the mechanism this way). */
export function registerFragment(name: string, fragment: FragmentDefinition): void {
  byName.set(name, fragment);
}

export function fragmentByName(name: string): FragmentDefinition {
  const fragment = byName.get(name);
  if (!fragment) throw new Error(`unknown fragment "${name}"`);
  return fragment;
}
