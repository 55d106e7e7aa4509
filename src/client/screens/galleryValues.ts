/**
 * The screen gallery's pure parts: a compact summary of a screen definition, the deliberately wrong sample values
 * that make a form show its format and length messages, and the sample blocks shown with data of their own.
 */
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { Block, ChartBlock, ScreenDefinition } from '../../common/screens.js';

/** `text, links, panel(text, links), table(3 columns), form`: the blocks of a screen, in order. */
export function blocksSummary(blocks: readonly Block[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'panel') return `panel(${blocksSummary(block.blocks)})`;
      if (block.type === 'table') return `table(${block.columns.length} columns)`;
      if (block.type === 'fragment') return `fragment(${block.name})`;
      if (block.type === 'chart') return `chart(${block.value} by ${block.x} and ${block.series})`;
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

/** The gallery's chart: learners by month and service group, from the sample data's `points`. */
const SAMPLE_CHART: ChartBlock = {
  type: 'chart',
  title: 'gallery.blocks.chart.title',
  caption: 'gallery.blocks.chart.caption',
  points: '$data.sample.points',
  x: 'month',
  series: 'serviceGroupName',
  value: 'learners',
  xFormat: 'month',
  empty: 'gallery.blocks.chart.empty',
};

/**
 * Block kinds shown rendered, each as its variants with the sample data (`$data.sample`): what the configuration
 * alone does not show (a chart's drawing, its empty text).
 */
export const BLOCK_SAMPLES: Array<{ type: Block['type']; variants: Array<{ label: string; block: Block }> }> = [
  {
    type: 'chart',
    variants: [
      { label: 'gallery.blocks.withPoints', block: SAMPLE_CHART },
      { label: 'gallery.blocks.withoutPoints', block: { ...SAMPLE_CHART, points: '$data.sample.none' } },
    ],
  },
];

/** The sample blocks' data: six months of three service groups, one of them starting in the third month. */
export const BLOCK_SAMPLE_DATA = {
  points: [
    ['2026-01', 'Unlimited Library', 120],
    ['2026-01', 'Business English', 45],
    ['2026-02', 'Unlimited Library', 132],
    ['2026-02', 'Business English', 51],
    ['2026-03', 'Unlimited Library', 128],
    ['2026-03', 'Business English', 60],
    ['2026-03', 'Leadership Program', 12],
    ['2026-04', 'Unlimited Library', 150],
    ['2026-04', 'Business English', 58],
    ['2026-04', 'Leadership Program', 20],
    ['2026-05', 'Unlimited Library', 161],
    ['2026-05', 'Business English', 64],
    ['2026-05', 'Leadership Program', 24],
    ['2026-06', 'Unlimited Library', 174],
    ['2026-06', 'Business English', 70],
    ['2026-06', 'Leadership Program', 31],
  ].map(([month, group, learners]) => ({ month, serviceGroupName: group, learners })),
  none: [],
};
