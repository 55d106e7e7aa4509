/**
 * The screen gallery's pure parts: a compact summary of a screen definition, and the deliberately wrong sample values
 * that make a form show its format and length messages.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { Block, ScreenDefinition } from '../../common/screens.js';

/** `text, links, panel(text, links), table(3 columns), form`: the blocks of a screen, in order. */
export function blocksSummary(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'panel') return `panel(${blocksSummary(block.blocks)})`;
      if (block.type === 'table') return `table(${block.columns.length} columns)`;
      if (block.type === 'fragment') return `fragment(${block.name})`;
      return block.type;
    })
    .join(', ');
}

/** The summary's rows: what a screen declares besides its path, access and title. */
export function screenSummary(screen: ScreenDefinition): Array<{ label: string; value: string }> {
  const rows: Array<{ label: string; value: string | undefined }> = [
    { label: 'component', value: screen.component },
    { label: 'form', value: screen.form?.schema },
    { label: 'blocks', value: screen.blocks && blocksSummary(screen.blocks) },
    { label: 'data', value: screen.data && Object.keys(screen.data).join(', ') },
    { label: 'actions', value: screen.actions && Object.keys(screen.actions).join(', ') },
    { label: 'redirect', value: screen.redirect && `${screen.redirect.to.screen} (${screen.redirect.afterMs} ms)` },
    { label: 'width', value: screen.width },
    { label: 'flag', value: screen.flag },
    { label: 'reauthentication', value: screen.reauthentication ? 'true' : undefined },
  ];
  return rows.filter((row): row is { label: string; value: string } => typeof row.value === 'string' && row.value.length > 0);
}

/** A property's schema with a local `$ref` (`#/$defs/email`) merged in: the rules the field follows. */
export function fieldSchema(root: RJSFSchema, property: unknown): RJSFSchema {
  if (!property || typeof property !== 'object') return {};
  const { $ref, ...rest } = property as RJSFSchema;
  const name = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? $ref.slice('#/$defs/'.length) : undefined;
  const referenced = name ? (root.$defs?.[name] as RJSFSchema | undefined) : undefined;
  return { ...(referenced ?? {}), ...rest };
}

/** Candidates for a value that breaks a field's pattern: the first one of a fitting length that does is taken. */
const PATTERN_BREAKERS = ['!?', '<>&', 'abc!?#$%', 'abcdefghij', 'not an e-mail address'];

function breaksPattern(pattern: string, value: string): boolean {
  try {
    return !new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

/** Widgets whose value the user does not type (the captcha's payload, hidden fields): left empty. */
const NOT_TYPED = new Set(['hidden', 'Captcha']);

/**
 * A wrong value for a text field: one that breaks its pattern (of an allowed length), else one a character too long.
 * Undefined for fields without such a rule and for choices (a wrong choice cannot be picked).
 */
export function wrongValue(schema: RJSFSchema): string | undefined {
  if (schema.type !== 'string' || schema.oneOf || schema.enum) return undefined;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Infinity;
  if (typeof schema.pattern === 'string') {
    const pattern = schema.pattern;
    const value = PATTERN_BREAKERS.find((candidate) => candidate.length >= min && candidate.length <= max && breaksPattern(pattern, candidate));
    if (value !== undefined) return value;
  }
  if (Number.isFinite(max)) return 'x'.repeat(max + 1);
  return undefined;
}

/** A wrong row for an array of objects (the learner grid's rows): a wrong value in each typed field of its items. */
function wrongRow(root: RJSFSchema, property: RJSFSchema): Record<string, string> | undefined {
  if (property.type !== 'array') return undefined;
  const items = fieldSchema(root, property.items);
  const row: Record<string, string> = {};
  for (const [name, item] of Object.entries(items.properties ?? {})) {
    const value = wrongValue(fieldSchema(root, item));
    if (value !== undefined) row[name] = value;
  }
  return Object.keys(row).length > 0 ? row : undefined;
}

/** Wrong sample values for every typed field of a form that has a format or length rule (arrays of rows: one wrong row). */
export function wrongSample(schema: RJSFSchema, uiSchema: UiSchema | undefined): Record<string, unknown> {
  const sample: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const widget = (uiSchema?.[name] as Record<string, unknown> | undefined)?.['ui:widget'];
    if (typeof widget === 'string' && NOT_TYPED.has(widget)) continue;
    const resolved = fieldSchema(schema, property);
    const value = wrongValue(resolved);
    if (value !== undefined) sample[name] = value;
    const row = value === undefined ? wrongRow(schema, resolved) : undefined;
    if (row) sample[name] = [row];
  }
  return sample;
}
