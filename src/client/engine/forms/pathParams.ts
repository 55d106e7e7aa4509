/** A form's first data, from the screen context (its call's path is filled by screen/callRequest.ts). */
import type { FormDefinition, InitialAlternatives } from '../../../common/screens.js';
import { matches } from '../screen/conditions.js';
import { resolveValue, type ScreenContext } from '../screen/values.js';

/** Only the properties the form's schema has, and only values a form field can hold. */
export function pickFormFields(source: unknown, fields: readonly string[]): Record<string, unknown> {
  if (source === null || typeof source !== 'object') return {};
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (source as Record<string, unknown>)[field];
    if (value !== undefined && value !== null) result[field] = value;
  }
  return result;
}

const hasValue = (value: unknown) => value !== undefined && value !== null && value !== '';

function alternativeValue(alternative: InitialAlternatives[number], context: Partial<ScreenContext>): unknown {
  if (alternative !== null && typeof alternative === 'object') return matches(alternative.when, context) ? resolveValue(alternative.value, context) : undefined;
  return resolveValue(alternative as string, context);
}

/**
 * A form's first data: the values `initialData` names in the screen context, limited to the schema's fields. A field
 * given as a list takes the first alternative that has a value (`["$data.x.contactId", "$data.contacts.contacts.-1.id", 0]`).
 */
export function initialDataOf(initialData: FormDefinition['initialData'], context: Partial<ScreenContext>, fields: readonly string[]): Record<string, unknown> {
  if (typeof initialData === 'string' || initialData === undefined) return pickFormFields(resolveValue(initialData, context), fields);
  const source = Object.fromEntries(
    Object.entries(initialData).map(([name, ref]) => [
      name,
      Array.isArray(ref) ? ref.map((alternative) => alternativeValue(alternative, context)).find(hasValue) : resolveValue(ref, context),
    ]),
  );
  return pickFormFields(source, fields);
}
