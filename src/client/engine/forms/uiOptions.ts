/**
 * Values in a uiSchema's `ui:options` may come from the screen: a string starting with '$' is read from the screen
 * context like any screen value ('$data.serviceGroup.maximumUsers'), and '$form.…' from the form's current data
 * ('$form.serviceIds'). So a widget stays generic and a screen file passes it what it loaded.
 */
import type { UiSchema } from '@rjsf/utils';
import { resolveValue, type ScreenContext } from '../screen/values.js';

function resolveDeep(value: unknown, context: Partial<ScreenContext>): unknown {
  if (typeof value === 'string') return value.startsWith('$') ? resolveValue(value, context) : value;
  if (Array.isArray(value)) return value.map((item) => resolveDeep(item, context));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveDeep(item, context)]));
  return value;
}

/** Whether any ui:options of the uiSchema holds a '$' value (most do not: nothing to resolve on each change). */
export function hasContextOptions(uiSchema: unknown): boolean {
  if (!uiSchema || typeof uiSchema !== 'object') return false;
  return Object.entries(uiSchema).some(([key, value]) => (key === 'ui:options' ? JSON.stringify(value).includes('"$') : hasContextOptions(value)));
}

/** The uiSchema with every '$' value inside a `ui:options` read from the context. */
export function resolveUiOptions(uiSchema: UiSchema | undefined, context: Partial<ScreenContext>): UiSchema | undefined {
  if (!uiSchema) return uiSchema;
  return Object.fromEntries(
    Object.entries(uiSchema).map(([key, value]) => [
      key,
      key === 'ui:options' ? resolveDeep(value, context) : value && typeof value === 'object' && !Array.isArray(value) ? resolveUiOptions(value as UiSchema, context) : value,
    ]),
  ) as UiSchema;
}
