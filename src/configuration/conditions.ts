/**
 * The conditions (`when`) of the screen definitions: JSON Schemas over the screen context, precompiled at build time
 * into one module (scripts/generate.ts) so the browser never compiles code. A condition is found by its JSON text.
 */
export type ConditionSchema = Record<string, unknown>;

/** The key of a condition in the precompiled module: its JSON text, as parsed from the screen file. */
export function conditionKey(condition: ConditionSchema): string {
  return JSON.stringify(condition);
}

/** Every condition found under a `when` key anywhere in `value`, each once, with the JSON pointer of its first use. */
export function collectConditions(value: unknown, pointer = '', found = new Map<string, { condition: ConditionSchema; pointer: string }>()) {
  if (Array.isArray(value)) value.forEach((item, index) => collectConditions(item, `${pointer}/${index}`, found));
  else if (value !== null && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const childPointer = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (name === 'when' && child !== null && typeof child === 'object' && !Array.isArray(child)) {
        const key = conditionKey(child as ConditionSchema);
        if (!found.has(key)) found.set(key, { condition: child as ConditionSchema, pointer: childPointer });
      }
      collectConditions(child, childPointer, found);
    }
  }
  return found;
}
