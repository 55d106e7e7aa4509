/**
 * A form's uiSchema bound to the screen context (`"ui:bind"` on a field): what JSON Schema and RJSF cannot say about
 * a field of a screen's form — whether it shows, is disabled or has no value, its label and notes by condition, and
 * options read from the loaded data (the choices of a selector, a date's bounds). Conditions are JSON Schemas over
 * the context with the form's current data as `form` (precompiled like every `when`); values are ValueRefs, the
 * first of alternatives whose condition holds (`{"choose": [{"when": …, "value": "cards"}, {"value": "radio"}]}`), named
 * functions (`{"fn": "earliestStartsOn", "args": ["$today"]}`, engine/forms/functions.ts) or lists mapped from the
 * data (`{"each": "$data.services.services", "as": {"value": "$item.id", "label": "$item.name"}}`). The result is a
 * plain RJSF uiSchema: the widgets see finished values.
 */
import type { UiSchema } from '@rjsf/utils';
import type { Condition, ValueRef } from '../../../common/screens.js';
import { matches } from '../screen/conditions.js';
import { resolveValue, resolveValues, type ScreenContext } from '../screen/values.js';
import { callFunction } from './functions.js';

type Translate = (key: string, values?: Record<string, unknown>) => string;

/** A text by condition: a locale key with values. */
export interface BoundText {
  when?: Condition;
  text: string;
  values?: Record<string, ValueRef>;
}

/** A note under a field: a locale key whose `<0>…</0>` are the links. */
export interface BoundNote extends BoundText {
  /** warning: amber; danger: red (SPEC 2.11's red announcements). */
  style?: 'note' | 'warning' | 'danger';
  links?: Array<{ href: string; external?: boolean }>;
}

/** A value of an option: a ValueRef or literal, a named function of values, or a list mapped from the data. */
export type BoundValue =
  | ValueRef
  | number
  | boolean
  | null
  | { fn: string; args?: BoundValue[] }
  | { choose: Array<{ when?: Condition; value: BoundValue }> }
  | { each: ValueRef; filter?: { when: Condition }; as: Record<string, ValueRef | { when: Condition } | { text: string; values?: Record<string, ValueRef> }> };

export interface FieldBinding {
  /** Shown only while this holds (its value stays: e.g. the one service of a group, chosen for the admin). */
  show?: { when: Condition };
  disable?: { when: Condition };
  /** The field has no value while this holds; when it stops holding, the field gets its initial value again. */
  clear?: { when: Condition };
  /** The label: the first that holds (none: the schema's title). */
  title?: BoundText[];
  notes?: BoundNote[];
  options?: Record<string, BoundValue>;
}

/** A note as the field template shows it: translated by the template (links inside), hrefs resolved. */
export interface ResolvedNote {
  text: string;
  values: Record<string, unknown>;
  style: 'note' | 'warning' | 'danger';
  links: Array<{ href: string; external?: boolean }>;
}

export const BIND = 'ui:bind';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function boundValue(value: BoundValue, context: Partial<ScreenContext>, t: Translate): unknown {
  if (typeof value === 'string') return resolveValue(value, context);
  if (!isObject(value)) return value;
  if ('choose' in value) {
    const chosen = value.choose.find((row) => matches(row.when, context));
    return chosen === undefined ? undefined : boundValue(chosen.value, context, t);
  }
  if ('fn' in value) return callFunction(value.fn, (value.args ?? []).map((arg) => boundValue(arg, context, t)));
  if ('each' in value) {
    const items = resolveValue(value.each, context);
    return (Array.isArray(items) ? items : [])
      .map((item) => ({ ...context, item }))
      .filter((itemContext) => matches(value.filter?.when, itemContext))
      .map((itemContext) =>
        Object.fromEntries(
          Object.entries(value.as).map(([name, ref]) => {
            if (typeof ref === 'string') return [name, resolveValue(ref, itemContext)];
            if ('when' in ref) return [name, matches(ref.when, itemContext)];
            return [name, t(ref.text, resolveValues(ref.values, itemContext))];
          }),
        ),
      );
  }
  return value;
}

const hrefOf = (href: string, context: Partial<ScreenContext>, t: Translate) => (href.startsWith('links.') ? t(href) : String(resolveValue(href, context) ?? ''));

/** The fields whose `clear` condition holds for the context (the form's data as `form`). */
export function clearedFields(uiSchema: UiSchema | undefined, context: Partial<ScreenContext>): string[] {
  return Object.entries(uiSchema ?? {})
    .filter(([field, ui]) => !field.startsWith('ui:') && isObject(ui) && isObject(ui[BIND]))
    .filter(([, ui]) => {
      const binding = (ui as Record<string, unknown>)[BIND] as FieldBinding;
      return binding.clear !== undefined && matches(binding.clear.when, context);
    })
    .map(([field]) => field);
}

/**
 * The data with the cleared fields removed, and fields no longer cleared given their initial value again (a chosen
 * class empties the contacts; choosing none brings the default contact back).
 */
export function withClearedFields(data: Record<string, unknown>, initialData: Record<string, unknown>, uiSchema: UiSchema | undefined, context: Partial<ScreenContext>): Record<string, unknown> {
  const cleared = clearedFields(uiSchema, { ...context, form: data });
  const bound = Object.entries(uiSchema ?? {}).filter(([field, ui]) => !field.startsWith('ui:') && isObject(ui) && isObject(ui[BIND]));
  if (bound.length === 0) return data;
  const result = { ...data };
  for (const [field, ui] of bound) {
    const binding = (ui as Record<string, unknown>)[BIND] as FieldBinding;
    if (!binding.clear) continue;
    if (cleared.includes(field)) delete result[field];
    else if (result[field] === undefined && initialData[field] !== undefined) result[field] = initialData[field];
  }
  return result;
}

/** The uiSchema with every `ui:bind` resolved for the context (the form's current data as `form`). */
export function bindUiSchema(uiSchema: UiSchema | undefined, context: Partial<ScreenContext>, t: Translate): UiSchema | undefined {
  if (!uiSchema) return uiSchema;
  const result: UiSchema = {};
  for (const [field, ui] of Object.entries(uiSchema)) {
    if (field.startsWith('ui:') || !isObject(ui) || !isObject(ui[BIND])) {
      result[field] = ui;
      continue;
    }
    const { [BIND]: rawBinding, ...rest } = ui;
    const binding = rawBinding as FieldBinding;
    const bound: Record<string, unknown> = { ...rest };
    if (binding.show && !matches(binding.show.when, context)) bound['ui:widget'] = 'hidden';
    if (binding.disable && matches(binding.disable.when, context)) bound['ui:disabled'] = true;
    const title = binding.title?.find((row) => matches(row.when, context));
    if (title) bound['ui:title'] = title.text; // a locale key: the field template translates it
    const options: Record<string, unknown> = { ...(isObject(rest['ui:options']) ? rest['ui:options'] : {}) };
    for (const [name, value] of Object.entries(binding.options ?? {})) options[name] = boundValue(value, context, t);
    const notes: ResolvedNote[] = (binding.notes ?? [])
      .filter((note) => matches(note.when, context))
      .map((note) => ({
        text: note.text,
        values: resolveValues(note.values, context),
        style: note.style ?? 'note',
        links: (note.links ?? []).map((link) => ({ href: hrefOf(link.href, context, t), external: link.external })),
      }));
    if (notes.length > 0) options.notes = notes;
    if (Object.keys(options).length > 0) bound['ui:options'] = options;
    result[field] = bound;
  }
  return result;
}
