/**
 * The order of a form's fields: its uiSchema's `ui:order`, then the schema's other properties; the name fields in the
 * page language's order (src/common/personName.ts: Last name first in Japanese, First name first in English).
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import { nameFieldOrder } from '../../../common/personName.js';

export function fieldOrder(schema: RJSFSchema, uiSchema: UiSchema | undefined, language: string): string[] {
  const names = Object.keys(schema.properties ?? {});
  const order = (uiSchema?.['ui:order'] as string[] | undefined)?.filter((name) => names.includes(name)) ?? [];
  return nameFieldOrder([...order, ...names.filter((name) => !order.includes(name))], isLanguage(language) ? language : DEFAULT_LANGUAGE);
}

/** The uiSchema RJSF gets: its `ui:order` in the page language's order (the same object when nothing moves). */
export function withFieldOrder(schema: RJSFSchema, uiSchema: UiSchema | undefined, language: string): UiSchema | undefined {
  const order = fieldOrder(schema, uiSchema, language);
  const written = uiSchema?.['ui:order'] as string[] | undefined;
  const unchanged = written ? order.every((name, index) => written[index] === name) : order.every((name, index) => Object.keys(schema.properties ?? {})[index] === name);
  return unchanged ? uiSchema : { ...uiSchema, 'ui:order': order };
}
