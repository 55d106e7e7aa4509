/**
 * The learner grid's ui:options, read from the uiSchema (values starting with '$' have already been read from the
 * screen context by SchemaForm, see `resolveUiOptions`). Every word is a locale key; the JSON Schema that
 * `npm run check:config` checks a use against is LEARNER_GRID_OPTIONS_SCHEMA in ../ids.ts.
 */
import { INITIAL_ROWS, PASTE_INDICATOR_CELLS } from './rows.js';

export interface GridColumn {
  /** The item's property the column edits. */
  field: string;
  /** Locale key of the column header. */
  label: string;
}

export interface LearnerGridOptions {
  columns: GridColumn[];
  /** Field order per language (ja: last name first); languages not listed keep the order of `columns`. */
  columnOrder: Record<string, string[]>;
  /** Locale key naming the grid (its accessible name, and the heading when there is no maximum). */
  label: string;
  /** Locale key of the heading when a maximum is known, with {{number}}. */
  headingKey: string;
  maximum: number | undefined;
  /** The fewest rows, shown in the heading ({{minimum}}); not enforced (a class below its minimum only warns). */
  minimum: number | undefined;
  /** Locale key of the message when the rows exceed the maximum ({{number}}). */
  limitMessage: string;
  rows: number;
  pasteIndicatorCells: number;
  helpLink: string | undefined;
  helpLabel: string;
  limitHelpLink: string | undefined;
  /** Fields whose values must differ between rows (e-mail: 'duplicated', SPEC §5). */
  uniqueFields: string[];
  /**
   * Row locks (bound by condition, issue 17): a locale key saying why the rows that came with an id cannot be changed
   * or removed (`lockKept`), or why no row can be added (`lockAdded`); absent: not locked.
   */
  lockKept: string | undefined;
  lockAdded: string | undefined;
  /** Locale keys of the message when an edit of a locked row was undone (the row's values and {{lineNo}}). */
  lockKeptRefused: string | undefined;
  lockAddedRefused: string | undefined;
}

/** A heading key chosen by a value: `{"by": "$data.serviceGroup.selection", "keys": {"multi": "…"}, "default": "…"}`. */
interface KeyChoice {
  by?: unknown;
  keys?: Record<string, string>;
  default?: string;
}

function chooseKey(option: unknown, fallback: string): string {
  if (typeof option === 'string') return option;
  if (option && typeof option === 'object') {
    const choice = option as KeyChoice;
    const chosen = typeof choice.by === 'string' || typeof choice.by === 'number' ? choice.keys?.[String(choice.by)] : undefined;
    return chosen ?? choice.default ?? fallback;
  }
  return fallback;
}

function positiveInteger(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : fallback;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The columns when ui:options gives none: the items' string properties, labelled by their titles. */
export function columnsFromSchema(itemSchema: unknown): GridColumn[] {
  const properties = (itemSchema as { properties?: Record<string, { type?: unknown; title?: unknown }> } | undefined)?.properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property?.type === 'string' || (Array.isArray(property?.type) && property.type.includes('string')))
    .map(([field, property]) => ({ field, label: typeof property.title === 'string' ? property.title : field }));
}

export function readOptions(options: Record<string, unknown>, itemSchema: unknown, effectiveMaximum: (maximum: unknown, divisor: unknown) => number | undefined): LearnerGridOptions {
  const columns = Array.isArray(options.columns)
    ? (options.columns as unknown[]).filter((column): column is GridColumn => typeof (column as GridColumn)?.field === 'string' && typeof (column as GridColumn)?.label === 'string')
    : columnsFromSchema(itemSchema);
  const columnOrder = Object.fromEntries(
    Object.entries((options.columnOrder as Record<string, unknown> | undefined) ?? {}).map(([language, order]) => [language, stringList(order)]),
  );
  return {
    columns,
    columnOrder,
    label: typeof options.label === 'string' ? options.label : 'learnerGrid.label',
    headingKey: chooseKey(options.heading, 'learnerGrid.heading.default'),
    maximum: effectiveMaximum(options.maximum, options.maximumDivisor),
    minimum: effectiveMaximum(options.minimum, undefined),
    limitMessage: nonEmpty(options.limitMessage) ?? 'learnerGrid.limitExceeded',
    rows: positiveInteger(options.rows, INITIAL_ROWS),
    pasteIndicatorCells: positiveInteger(options.pasteIndicatorCells, PASTE_INDICATOR_CELLS),
    helpLink: typeof options.helpLink === 'string' ? options.helpLink : undefined,
    helpLabel: typeof options.helpLabel === 'string' ? options.helpLabel : 'learnerGrid.help',
    limitHelpLink: typeof options.limitHelpLink === 'string' ? options.limitHelpLink : undefined,
    uniqueFields: stringList(options.uniqueFields),
    lockKept: nonEmpty(options.lockKept),
    lockAdded: nonEmpty(options.lockAdded),
    lockKeptRefused: nonEmpty(options.lockKeptRefused),
    lockAddedRefused: nonEmpty(options.lockAddedRefused),
  };
}

/** The columns in the language's order: those the order names first, in its order, then the others. */
export function orderedColumns(columns: readonly GridColumn[], columnOrder: Record<string, string[]>, language: string): GridColumn[] {
  const order = columnOrder[language] ?? columnOrder[language.split('-')[0]!];
  if (!order) return [...columns];
  const rank = (field: string) => (order.includes(field) ? order.indexOf(field) : order.length + columns.findIndex((column) => column.field === field));
  return [...columns].sort((a, b) => rank(a.field) - rank(b.field));
}
