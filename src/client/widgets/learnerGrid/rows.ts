/**
 * The learner grid's data, without React: a form value (an array of flat objects of strings, e.g. SPEC §3's learner
 * rows) ↔ the spreadsheet's matrix of cells, and what the grid shows about it (errors per cell, changed cells).
 *
 * Each grid row has its own entry in a row list (`GridRow`): a local `key` (SPEC §3 'each row also gets a local key
 * index', never sent) and what the original item had beside the grid's columns (the learner's `id` in the edit
 * wizard), so an edited row keeps its id. Rows whose grid fields are all blank are dropped from the value (SPEC §5).
 */

/** One cell of the spreadsheet (react-spreadsheet's CellBase). */
export interface GridCell {
  value: string;
  className?: string;
}

export type GridMatrix = Array<Array<GridCell | undefined>>;

/** A grid row's own data: its local key and the original item's fields that are not columns (e.g. id). */
export interface GridRow {
  key: number;
  rest: Record<string, unknown>;
}

export type Item = Record<string, unknown>;

/** SPEC §9: the grid starts with 10 rows. */
export const INITIAL_ROWS = 10;
/** SPEC §9: the pasting indicator shows while this many cells or more change at once. */
export const PASTE_INDICATOR_CELLS = 5;

let nextKey = 1;
export function newGridRow(rest: Record<string, unknown> = {}): GridRow {
  return { key: nextKey++, rest };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

export function cellText(cell: GridCell | undefined): string {
  return text(cell?.value);
}

/** The matrix and row list for a form value, padded with empty rows to at least `minimumRows`. */
export function fromValue(value: readonly Item[] | undefined, fields: readonly string[], minimumRows: number): { matrix: GridMatrix; rows: GridRow[] } {
  const items = Array.isArray(value) ? value : [];
  const matrix: GridMatrix = items.map((item) => fields.map((field) => ({ value: text(item?.[field]) })));
  const rows = items.map((item) => newGridRow(Object.fromEntries(Object.entries(item ?? {}).filter(([name]) => !fields.includes(name) && name !== 'key'))));
  return padRows({ matrix, rows }, fields.length, minimumRows);
}

/** Empty rows added until there are `count`. */
export function padRows(grid: { matrix: GridMatrix; rows: GridRow[] }, columns: number, count: number): { matrix: GridMatrix; rows: GridRow[] } {
  const matrix = [...grid.matrix];
  while (matrix.length < count) matrix.push(Array.from({ length: columns }, () => ({ value: '' })));
  return { matrix, rows: rowsFor(matrix, grid.rows) };
}

/** The row list grown to the matrix's height (a paste below the last row adds rows). */
export function rowsFor(matrix: GridMatrix, rows: readonly GridRow[]): GridRow[] {
  if (rows.length >= matrix.length) return rows.slice(0, Math.max(rows.length, matrix.length));
  return [...rows, ...Array.from({ length: matrix.length - rows.length }, () => newGridRow())];
}

export function isBlankRow(row: GridMatrix[number] | undefined, columns: number): boolean {
  for (let column = 0; column < columns; column += 1) if (cellText(row?.[column]).trim() !== '') return false;
  return true;
}

/**
 * The form value of the grid: one item per row with any text in the grid's columns (columns beyond them, which a
 * wide paste adds, are ignored), values trimmed, the row's other fields (id) kept; `gridRowOf[i]` is the grid row of
 * item i (errors name items, the grid shows rows).
 */
export function toValue(matrix: GridMatrix, rows: readonly GridRow[], fields: readonly string[]): { value: Item[]; gridRowOf: number[] } {
  const value: Item[] = [];
  const gridRowOf: number[] = [];
  matrix.forEach((cells, index) => {
    if (isBlankRow(cells, fields.length)) return;
    const item: Item = { ...(rows[index]?.rest ?? {}) };
    fields.forEach((field, column) => {
      item[field] = cellText(cells?.[column]).trim();
    });
    value.push(item);
    gridRowOf.push(index);
  });
  return { value, gridRowOf };
}

/** How many cells differ in text between two matrices (a paste of 3 rows × 5 columns changes up to 15). */
export function changedCells(before: GridMatrix, after: GridMatrix): number {
  let count = 0;
  const height = Math.max(before.length, after.length);
  for (let row = 0; row < height; row += 1) {
    const width = Math.max(before[row]?.length ?? 0, after[row]?.length ?? 0);
    for (let column = 0; column < width; column += 1) if (cellText(before[row]?.[column]) !== cellText(after[row]?.[column])) count += 1;
  }
  return count;
}

/** An error to show: the grid row (0-based), the field (a column, or undefined for the row as a whole) and a message. */
export interface CellError {
  row: number;
  field: string | undefined;
  message: string;
}

/** The shape of RJSF's ErrorSchema as far as it is read here. */
export interface ErrorNode {
  __errors?: string[];
  [child: string]: ErrorNode | string[] | undefined;
}

/**
 * The errors of the items (RJSF's errorSchema of the array field: `{3: {email: {__errors: [...]}}}`, schema and
 * server errors alike) on the grid's rows, in row then column order; the array's own errors (`__errors`: too many
 * users, none at all) are returned apart.
 */
export function cellErrors(errorSchema: ErrorNode | undefined, gridRowOf: readonly number[], fields: readonly string[]): { cells: CellError[]; own: string[] } {
  const cells: CellError[] = [];
  for (const [name, node] of Object.entries(errorSchema ?? {})) {
    if (!/^\d+$/.test(name) || node === undefined || Array.isArray(node)) continue;
    const row = gridRowOf[Number(name)];
    if (row === undefined) continue;
    for (const message of node.__errors ?? []) cells.push({ row, field: undefined, message });
    for (const [field, child] of Object.entries(node)) {
      if (field === '__errors' || child === undefined || Array.isArray(child)) continue;
      for (const message of child.__errors ?? []) cells.push({ row, field, message });
    }
  }
  return { cells: sortErrors(cells, fields), own: errorSchema?.__errors ?? [] };
}

/** The same errors in the same order (the grid keeps the errors it has while they stay these). */
export function sameErrors(a: readonly CellError[], b: readonly CellError[]): boolean {
  return a.length === b.length && a.every((error, index) => error.row === b[index]!.row && error.field === b[index]!.field && error.message === b[index]!.message);
}

/** Row by row; in a row, the row's own errors, then the cells' in column order. */
export function sortErrors(errors: readonly CellError[], fields: readonly string[]): CellError[] {
  const order = (field: string | undefined) => (field === undefined ? -1 : fields.indexOf(field) === -1 ? fields.length : fields.indexOf(field));
  return [...errors].sort((a, b) => a.row - b.row || order(a.field) - order(b.field));
}

export const ERROR_CELL_CLASS = 'learner-grid__cell--error';

/**
 * The matrix with the error class on the cells in error and on no other; the same matrix (and the same rows) when
 * nothing changes, so the spreadsheet is not handed new data for nothing.
 */
export function markErrors(matrix: GridMatrix, errors: readonly CellError[], fields: readonly string[]): GridMatrix {
  const inError = new Set<string>();
  for (const error of errors) {
    if (error.field === undefined) fields.forEach((_, column) => inError.add(`${error.row},${column}`));
    else if (fields.includes(error.field)) inError.add(`${error.row},${fields.indexOf(error.field)}`);
  }
  let changed = false;
  const marked = matrix.map((cells, row) => {
    let rowChanged = false;
    const next = cells.map((cell, column) => {
      const wanted = inError.has(`${row},${column}`) ? ERROR_CELL_CLASS : undefined;
      if (cell?.className === wanted || (cell === undefined && wanted === undefined)) return cell;
      rowChanged = true;
      const { className: _old, ...rest } = cell ?? { value: '' };
      return wanted ? { ...rest, className: wanted } : rest;
    });
    if (!rowChanged) return cells;
    changed = true;
    return next;
  });
  return changed ? marked : matrix;
}

/** floor(maximum / divisor) when the maximum is shared (emba: subjects × users, SPEC §5); undefined: no limit. */
export function effectiveMaximum(maximum: unknown, divisor: unknown): number | undefined {
  // a number, or its digits (a value read from the URL's query)
  if (typeof maximum === 'string' && /^\d+$/.test(maximum)) maximum = Number(maximum);
  if (typeof maximum !== 'number' || !Number.isFinite(maximum)) return undefined;
  const count = Array.isArray(divisor) ? divisor.length : typeof divisor === 'number' ? divisor : 0;
  return count >= 1 ? Math.floor(maximum / count) : maximum;
}

/** Rows whose value of a unique field (e-mail) another row repeats, ignoring case: each gets a 'duplicated' error (SPEC §5). */
export function duplicateErrors(value: readonly Item[], gridRowOf: readonly number[], uniqueFields: readonly string[], message: string): CellError[] {
  const errors: CellError[] = [];
  for (const field of uniqueFields) {
    const rowsByValue = new Map<string, number[]>();
    value.forEach((item, index) => {
      const normalized = text(item[field]).trim().toLowerCase();
      if (normalized !== '') rowsByValue.set(normalized, [...(rowsByValue.get(normalized) ?? []), index]);
    });
    for (const indexes of rowsByValue.values()) {
      if (indexes.length > 1) for (const index of indexes) errors.push({ row: gridRowOf[index]!, field, message });
    }
  }
  return errors;
}

/** The errors without repeats of the same message on the same cell (the server's 'duplicated' beside the grid's own). */
export function uniqueErrors(errors: readonly CellError[]): CellError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const id = `${error.row}\u0000${error.field ?? ''}\u0000${error.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Which rows a lock rule keeps as they are (issue 17, SPEC §4 class deadlines): `kept` locks the rows that came with
 * an id (existing learners: not changed, not removed), `added` the others (no learner added). The grid shows them and
 * `withLocks` undoes any edit of them.
 */
export interface RowLocks {
  kept: boolean;
  added: boolean;
}

export function isKeptRow(row: GridRow | undefined): boolean {
  return row?.rest.id !== undefined && row.rest.id !== null && row.rest.id !== 0;
}

export function isLockedRow(row: GridRow | undefined, locks: RowLocks): boolean {
  return isKeptRow(row) ? locks.kept : locks.added;
}

/**
 * The edited matrix with the locked rows as they were: a locked row's cells come back, and when no row may be added
 * the matrix does not grow (a paste below the last row adds nothing). The same matrix when nothing is locked.
 */
export function withLocks(previous: GridMatrix, next: GridMatrix, rows: readonly GridRow[], locks: RowLocks): GridMatrix {
  if (!locks.kept && !locks.added) return next;
  const height = locks.added ? Math.min(next.length, previous.length) : next.length;
  return next.slice(0, height).map((cells, index) => (index < previous.length && isLockedRow(rows[index], locks) ? previous[index]! : cells));
}

/** An edit `withLocks` undid: of a kept row (its learner's values) or a row that would have been added (its values). */
export interface RefusedEdit {
  /** The grid row (0-based). */
  row: number;
  kind: 'kept' | 'added';
  values: Item;
}

function rowValues(cells: GridMatrix[number] | undefined, fields: readonly string[]): Item {
  return Object.fromEntries(fields.map((field, column) => [field, cellText(cells?.[column]).trim()]));
}

function sameCells(a: GridMatrix[number] | undefined, b: GridMatrix[number] | undefined, columns: number): boolean {
  for (let column = 0; column < columns; column += 1) if (cellText(a?.[column]) !== cellText(b?.[column])) return false;
  return true;
}

/**
 * The edits of `next` that `withLocks` undoes, row by row: a kept row changed or emptied (its learner cannot be
 * changed or removed), a row without an id given text or appended (no learner can be added). Nothing when nothing
 * is locked; emptying a row that may not be added to is no refusal.
 */
export function refusedEdits(previous: GridMatrix, next: GridMatrix, rows: readonly GridRow[], locks: RowLocks, fields: readonly string[]): RefusedEdit[] {
  if (!locks.kept && !locks.added) return [];
  const refused: RefusedEdit[] = [];
  next.forEach((cells, index) => {
    const before = previous[index];
    if (index < previous.length) {
      if (!isLockedRow(rows[index], locks) || sameCells(before, cells, fields.length)) return;
      if (isKeptRow(rows[index])) refused.push({ row: index, kind: 'kept', values: rowValues(before, fields) });
      else if (!isBlankRow(cells, fields.length)) refused.push({ row: index, kind: 'added', values: rowValues(cells, fields) });
    } else if (locks.added && !isBlankRow(cells, fields.length)) {
      refused.push({ row: index, kind: 'added', values: rowValues(cells, fields) });
    }
  });
  return refused;
}
