/**
 * Named rules an outcome applies to a value it sets (Outcome.normalize), for what a definition cannot say in JSON.
 *
 * rowErrors (SPEC §5 CSV upload): the server's row errors, one per (rowNo, field), the items without rowNo, field or
 * code dropped, sorted by rowNo (stable: the server's order within a row); name_id's invalid_format shown as
 * nameIdFormat. changedRows: a bulk update's rows changed since the preview (412), as row errors.
 */
export interface RowError {
  field: string;
  code: string;
  meta: { rowNo: number };
}

function isRowError(item: unknown): item is RowError {
  if (item === null || typeof item !== 'object') return false;
  const { field, code, meta } = item as Partial<RowError>;
  return typeof field === 'string' && field !== '' && typeof code === 'string' && code !== '' && typeof meta?.rowNo === 'number';
}

export function normalizeRowErrors(errors: unknown): RowError[] {
  const seen = new Set<string>();
  const kept = (Array.isArray(errors) ? errors : []).filter(isRowError).filter(({ field, meta }) => {
    const key = `${meta.rowNo}\u0000${field}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return kept
    .map(({ field, code, meta }) => ({ field, code: field === 'name_id' && code === 'invalid_format' ? 'nameIdFormat' : code, meta: { rowNo: meta.rowNo } }))
    .sort((a, b) => a.meta.rowNo - b.meta.rowNo);
}

/**
 * changedRows (issue 28): a bulk update's 412 rows, each a line whose learner changed since the preview, as row errors
 * (field id, code changedMeanwhile) so the page lists and greys them like any other.
 */
export function changedRowsAsRowErrors(rows: unknown): RowError[] {
  const lines = (Array.isArray(rows) ? rows : []).flatMap((row) => (typeof (row as { rowNo?: unknown })?.rowNo === 'number' ? [(row as { rowNo: number }).rowNo] : []));
  return normalizeRowErrors(lines.map((rowNo) => ({ field: 'id', code: 'changedMeanwhile', meta: { rowNo } })));
}

export const NORMALIZERS = { rowErrors: normalizeRowErrors, changedRows: changedRowsAsRowErrors } as const;
export type NormalizerName = keyof typeof NORMALIZERS;

/** The values of an outcome's `set`, those named in `normalize` passed through their rule. */
export function normalized(values: Record<string, unknown>, normalize: Record<string, NormalizerName> | undefined): Record<string, unknown> {
  if (!normalize) return values;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, normalize[name] && value !== null ? NORMALIZERS[normalize[name]](value) : value]));
}
