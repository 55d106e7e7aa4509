/**
 * Shared blocks (screens/fragments/<name>.json, FragmentBlock): one definition shown by several screens with their
 * own inputs, e.g. SPEC 2.11's order summary on the wizard's confirm step and on Application Details.
 */
import type { FragmentDefinition } from '../../../common/screens.js';

/** The fragments of the screens loaded so far: each screen's chunk brings those it shows (screenModule.ts). */
const byName = new Map<string, FragmentDefinition>();

/** Adds a fragment: from a screen's chunk, or one a test tries the mechanism with. */
export function registerFragment(name: string, fragment: FragmentDefinition): void {
  byName.set(name, fragment);
}

export function fragmentByName(name: string): FragmentDefinition {
  const fragment = byName.get(name);
  if (!fragment) throw new Error(`unknown fragment "${name}"`);
  return fragment;
}
