/**
 * The screen context that conditions and values read (SPEC words: params, query, state, data, role, flags), and the
 * resolution of a ValueRef ('$state.email', '$item.admin.id', '$body.outcome') against it.
 */
import type { ValueRef } from '../../../common/screens.js';

export interface ScreenContext {
  /** The route's parameters. */
  params: Record<string, string | undefined>;
  /** The URL's query. */
  query: Record<string, string>;
  /** The navigation state. */
  state: Record<string, unknown>;
  /** What the screen loaded, by key. */
  data: Record<string, unknown>;
  /** Whether the screen's data has loaded (a screen without data is 'loaded'). */
  load?: 'loading' | 'loaded' | 'failed';
  role: string;
  flags: Record<string, boolean>;
  me: unknown;
  organization: unknown;
  language: string;
  /** Today in the Asia/Tokyo calendar (yyyy-MM-dd), as the business rules count days (src/common/subscriptionRules.ts). */
  today?: string;
  /** The closed weekdays around today (GET portal_settings): the business-day calendar's (src/common/businessCalendar.ts). */
  closedDays?: string[];
  /** When the screen was entered, epoch milliseconds (a condition on a date: `{"time": {"minimum": …}}`). */
  time?: number;
  /** The screen's own state (Outcome.set): preview mode, a selected row, errors to show. */
  local?: Record<string, unknown>;
  /** The screen's actions whose call is under way, by id (`{"preview": true}`). */
  pending?: Record<string, boolean>;
  /** A table row's number (TableBlock.rowNumberFrom). */
  rowNo?: number;
  /** The file chosen in an upload block, while its action runs. */
  file?: unknown;
  /** A table row, while its cells are rendered or its action runs. */
  item?: unknown;
  /** A fragment's inputs (FragmentBlock.values). */
  values?: Record<string, unknown>;
  /** The elements of a table's parallel arrays at the row's index (TableBlock.alongside). */
  along?: Record<string, unknown>;
  /** The element of a repeated cell (Cell.each). */
  element?: unknown;
  /** The value chosen in a select. */
  value?: unknown;
  /** The data a form sent, while its outcome is chosen. */
  form?: Record<string, unknown>;
  /** The answer of a call, while its outcome is chosen. */
  body?: unknown;
  status?: number;
}

/**
 * The URL's query; a literal 'amp;' before a name (a mail client that kept '&amp;' in a mailed link) is ignored
 * (SPEC 2.5).
 */
export function queryOf(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search.replace(/amp;/g, '')));
}

function step(node: unknown, keys: string[]): unknown {
  if (keys.length === 0) return node;
  const [key, ...rest] = keys as [string, ...string[]];
  if (key === '*') return Array.isArray(node) ? node.map((element) => step(element, rest)) : undefined;
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node) && /^-\d+$/.test(key)) return step(node.at(Number(key)), rest);
  return step((node as Record<string, unknown>)[key], rest);
}

/**
 * The value at a dotted path ('a.b.0.c'); undefined when any step is missing. A negative index counts from an array's
 * end ('services.-1': the last); `*` takes the rest of the path from every element ('services.*.name': the names).
 */
export function valueAt(source: unknown, dottedPath: string): unknown {
  return step(source, dottedPath.split('.'));
}

/** '$path' reads the context; anything else is a literal. */
export function resolveValue(ref: ValueRef | boolean | number | undefined, context: Partial<ScreenContext>): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('$')) return ref;
  return valueAt(context, ref.slice(1));
}

/** Each entry resolved; for interpolation into texts and for call bodies. */
export function resolveValues(refs: Record<string, ValueRef | boolean | number> | undefined, context: Partial<ScreenContext>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(refs ?? {}).map(([name, ref]) => [name, resolveValue(ref, context)]));
}
