/**
 * 'LearnerGrid' (SPEC 2.11 step 5): an RJSF field editing an array of flat objects of strings (learner rows) in a
 * spreadsheet (react-spreadsheet). Loaded as a chunk of its own by ../LearnerGridField.tsx.
 *
 * - columns and their header keys from ui:options, in the order of the page's language (`columnOrder`), plus the row
 *   number column; clicking a row header selects the row, a column header the column, the corner everything
 *   (react-spreadsheet's selection; the headers also take Enter and Space);
 * - starts with `rows` rows (SPEC §9: 10); the '+' button adds one; a paste (react-spreadsheet reads the clipboard's
 *   tab-separated text) below the last row adds rows, columns beyond the grid's are dropped; while `pasteIndicatorCells`
 *   (SPEC §9: 5) or more cells change at once, 'Pasting…' shows and the form gets the new value a moment later;
 * - the value: rows with every column blank are dropped, texts trimmed; a row keeps what its item had beside the
 *   columns (the learner's id in the edit wizard); the local key of each row (SPEC §3) is never part of the value;
 * - errors of the items (schema, server 422 `users.3.email`, and rows repeating a `uniqueFields` value) mark their cells
 *   and are listed under the grid ('No. 4 E-mail: Duplicate data.'); more rows than the maximum shows a message with a
 *   help link (`limitMessage`: a class's own words), and keeps the form from being submitted (SPEC §5: exceeding the
 *   limit is an error) until rows are removed. The array's own errors (none at all, the server's user limit) are the
 *   field template's;
 * - row locks (`lockKept`, `lockAdded`, bound by condition: a class's deadlines) show beside the locked rows why they
 *   cannot change; an edit of one is undone and said (`lockKeptRefused`, `lockAddedRefused`: e.g. SPEC §8's
 *   '(e-mail) cannot be deleted.') before the form is sent.
 */
import { memo, useCallback, useEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent, type ReactElement, createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldProps } from '@rjsf/utils';
import Spreadsheet, {
  type ColumnIndicatorProps,
  type CornerIndicatorProps,
  type DataEditorProps,
  type DataViewerProps,
  type Mode,
  type Point,
  type RowIndicatorProps,
  type RowProps,
  type SpreadsheetRef,
  type TableProps,
} from 'react-spreadsheet';
import {
  cellErrors,
  changedCells,
  duplicateErrors,
  effectiveMaximum,
  fromValue,
  isBlankRow,
  isKeptRow,
  isLockedRow,
  markErrors,
  padRows,
  refusedEdits,
  rowsFor,
  sameErrors,
  sortErrors,
  toValue,
  uniqueErrors,
  withLocks,
  type ErrorNode,
  type GridCell,
  type GridMatrix,
  type GridRow,
  type Item,
  type RefusedEdit,
} from './rows.js';
import { isWidgetFormContext } from '../formContext.js';
import { orderedColumns, readOptions, type GridColumn } from './options.js';

/**
 * The component itself whichever build of react-spreadsheet was loaded: webpack takes its ES module, while under Node
 * (the tests) its CommonJS build may arrive as the module object, whose `default` is the component.
 */
const SpreadsheetComponent = ((Spreadsheet as unknown as { default?: typeof Spreadsheet }).default ?? Spreadsheet) as typeof Spreadsheet;

/**
 * react-spreadsheet re-rendered for nothing costs every cell: its context value is a new array on each render, so each
 * cell's selectors run and each cell is scheduled again (5,000 of them for 1,000 pasted rows). So the sheet renders
 * only when one of its props changes, and the grid hands it stable ones: the form's re-render after a paste (its value,
 * its validation) leaves the sheet alone.
 */
const Sheet = memo(SpreadsheetComponent) as unknown as typeof Spreadsheet;

/** What the spreadsheet's parts need to name themselves. */
interface GridLabels {
  columns: string[];
  tableLabelledBy: string;
  tableDescribedBy: string | undefined;
  selectAll: string;
  selectRow: (row: number) => string;
  selectColumn: (label: string) => string;
  cellLabel: (row: number, column: number) => string;
  /** Why a row is locked (issue 17's row locks), by row; undefined: editable. */
  lockOf: (row: number) => string | undefined;
}

const LabelsContext = createContext<GridLabels | null>(null);
function useLabels(): GridLabels {
  const labels = useContext(LabelsContext);
  if (!labels) throw new Error('the learner grid parts render inside LearnerGrid');
  return labels;
}

function onActivateKey(action: () => void) {
  return (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      action();
    }
  };
}

function GridTable({ children, columns, hideColumnIndicators }: TableProps): ReactElement {
  const labels = useLabels();
  const count = columns + (hideColumnIndicators ? 0 : 1);
  return (
    <table className="Spreadsheet__table" aria-labelledby={labels.tableLabelledBy} aria-describedby={labels.tableDescribedBy}>
      <colgroup>
        {Array.from({ length: count }, (_, index) => (
          <col key={index} className={index === 0 ? 'learner-grid__index-column' : undefined} />
        ))}
      </colgroup>
      <tbody>{children}</tbody>
    </table>
  );
}

/** A row without react-spreadsheet's `row` attribute on the <tr> (not an HTML attribute). */
function Row({ children }: RowProps): ReactElement {
  return <tr>{children}</tr>;
}

function CornerIndicator({ selected, onSelect }: CornerIndicatorProps): ReactElement {
  const labels = useLabels();
  return (
    <th
      className={`Spreadsheet__header learner-grid__corner${selected ? ' Spreadsheet__header--selected' : ''}`}
      onClick={onSelect}
      onKeyDown={onActivateKey(onSelect)}
      tabIndex={0}
      title={labels.selectAll}
    >
      <span className="learner-grid__hidden">{labels.selectAll}</span>
    </th>
  );
}

function ColumnIndicator({ column, selected, onSelect }: ColumnIndicatorProps): ReactElement {
  const labels = useLabels();
  const label = labels.columns[column] ?? '';
  return (
    <th
      scope="col"
      className={`Spreadsheet__header${selected ? ' Spreadsheet__header--selected' : ''}`}
      onClick={(event) => onSelect(column, event.shiftKey)}
      onKeyDown={onActivateKey(() => onSelect(column, false))}
      tabIndex={0}
      title={labels.selectColumn(label)}
    >
      {label}
    </th>
  );
}

function RowIndicator({ row, selected, onSelect }: RowIndicatorProps): ReactElement {
  const labels = useLabels();
  return (
    <th
      scope="row"
      className={`Spreadsheet__header${selected ? ' Spreadsheet__header--selected' : ''}`}
      onClick={(event) => onSelect(row, event.shiftKey)}
      onKeyDown={onActivateKey(() => onSelect(row, false))}
      tabIndex={0}
      title={labels.lockOf(row) ?? labels.selectRow(row)}
    >
      {row + 1}
      {labels.lockOf(row) && (
        <span className="learner-grid__lock" aria-label={labels.lockOf(row)} role="img">
          ※
        </span>
      )}
    </th>
  );
}

/** The text as typed: a value starting with '=' is a name or an address here, not a formula. Memoised: a cell's
 * selection or activity changing does not change its text. */
const DataViewer = memo(function DataViewer({ cell }: DataViewerProps<GridCell>): ReactElement {
  return <span className="Spreadsheet__data-viewer">{typeof cell?.value === 'string' ? cell.value : ''}</span>;
});

function DataEditor(props: DataEditorProps<GridCell>): ReactElement {
  const labels = useLabels();
  // a locked row is shown, never edited
  return labels.lockOf(props.row) ? <DataViewer {...(props as unknown as DataViewerProps<GridCell>)} /> : <CellEditor {...props} />;
}

function CellEditor({ cell, row, column, onChange }: DataEditorProps<GridCell>): ReactElement {
  const labels = useLabels();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const element = input.current;
    if (element) element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  return (
    <div className="Spreadsheet__data-editor">
      <input
        ref={input}
        type="text"
        // the editor opens where the person is typing
        autoFocus
        aria-label={labels.cellLabel(row, column)}
        value={cell?.value ?? ''}
        onChange={(event) => onChange({ ...(cell ?? {}), value: event.target.value })}
      />
    </div>
  );
}

/** The matrix cut to the grid's columns (a wide paste pads the data with more). */
function toColumns(matrix: GridMatrix, columns: number): GridMatrix {
  return matrix.some((cells) => cells.length !== columns)
    ? matrix.map((cells) => (cells.length === columns ? cells : Array.from({ length: columns }, (_, column) => cells[column])))
    : matrix;
}

/** Same texts in the grid's fields, item by item (ids and other fields aside). */
function sameTexts(a: readonly Item[], b: readonly Item[], fields: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => fields.every((field) => (item[field] ?? '') === (b[index]?.[field] ?? '')));
}

/**
 * The value of the last render while the new one is equal: the form hands a new errorSchema on each render, and new
 * errors (even the same ones) would mark the cells anew, a new matrix for the sheet to take in whole.
 */
function useSteady<T>(value: T, equal: (a: T, b: T) => boolean): T {
  const kept = useRef(value);
  if (kept.current !== value && !equal(kept.current, value)) kept.current = value;
  return kept.current;
}

export function LearnerGrid(props: FieldProps): ReactElement {
  const { formData, onChange, fieldPathId, errorSchema, uiSchema, schema, disabled, readonly, registry } = props;
  const { t, i18n } = useTranslation();
  const id = fieldPathId.$id;
  const options = readOptions((uiSchema?.['ui:options'] as Record<string, unknown> | undefined) ?? {}, schema.items, effectiveMaximum);
  const language = i18n.resolvedLanguage ?? i18n.language ?? '';
  const columns: GridColumn[] = useMemo(
    () => orderedColumns(options.columns, options.columnOrder, language),
    // the options object is new on each render; its columns are JSON
    [JSON.stringify(options.columns), JSON.stringify(options.columnOrder), language],
  );
  const fields = useMemo(() => columns.map((column) => column.field), [columns]);
  const locks = useMemo(() => ({ kept: options.lockKept !== undefined, added: options.lockAdded !== undefined }), [options.lockKept, options.lockAdded]);
  // no empty rows to fill when none may be added
  const minimumRows = locks.added ? 0 : options.rows;

  const [grid, setGrid] = useState<{ matrix: GridMatrix; rows: GridRow[]; fields: string[] }>(() => ({ ...fromValue(formData, fields, minimumRows), fields }));
  const latest = useRef(grid);
  latest.current = grid;
  /** The value this grid sent last: the same value coming back is not a reason to rebuild the grid. */
  const sent = useRef<Item[] | undefined>(formData);
  const [pasting, setPasting] = useState(false);
  /** The edits of locked rows the last change attempted (undone). */
  const [refused, setRefused] = useState<RefusedEdit[]>([]);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  // a value from outside (the edit wizard's learners, a reset) or a new column order rebuilds the grid
  useEffect(() => {
    const current = latest.current;
    const incoming = Array.isArray(formData) ? formData : [];
    if (current.fields === fields && sent.current !== undefined && sameTexts(incoming, sent.current, fields)) return;
    if (current.fields === fields && sameTexts(incoming, toValue(current.matrix, current.rows, fields).value, fields)) return;
    sent.current = incoming;
    setGrid({ ...fromValue(incoming, fields, minimumRows), fields });
  }, [formData, fields, minimumRows]);

  // RJSF hands a new onChange on each render: read through a ref, so handleChange (a prop of the sheet) stays the same
  const form = useRef({ onChange, path: fieldPathId.path });
  form.current = { onChange, path: fieldPathId.path };
  const emit = useCallback(() => {
    const { matrix, rows } = latest.current;
    const { value } = toValue(matrix, rows, fields);
    sent.current = value;
    form.current.onChange(value, form.current.path);
  }, [fields]);

  const handleChange = useCallback(
    (data: GridMatrix) => {
      const previous = latest.current;
      const attempted = toColumns(data, fields.length);
      const undone = refusedEdits(previous.matrix, attempted, previous.rows, locks, fields);
      setRefused((current) => (current.length === 0 && undone.length === 0 ? current : undone));
      const matrix = withLocks(previous.matrix, attempted, previous.rows, locks);
      if (matrix === previous.matrix) return;
      const next = { matrix, rows: rowsFor(matrix, previous.rows), fields };
      latest.current = next;
      setGrid(next);
      if (changedCells(previous.matrix, matrix) >= options.pasteIndicatorCells) {
        // a paste: the grid shows the cells now, the form (and its validation) follows a moment later
        setPasting(true);
        setTimeout(() => {
          if (!mounted.current) return;
          emit();
          setPasting(false);
        }, 0);
      } else {
        emit();
      }
    },
    [fields, options.pasteIndicatorCells, emit, locks],
  );

  const addRow = () => {
    const current = latest.current;
    setGrid({ ...padRows(current, fields.length, current.matrix.length + 1), fields });
  };

  const { gridRowOf, value } = useMemo(() => toValue(grid.matrix, grid.rows, fields), [grid, fields]);
  const errors = useSteady(
    useMemo(() => {
      const { cells } = cellErrors(errorSchema as ErrorNode | undefined, gridRowOf, fields);
      const duplicates = duplicateErrors(value, gridRowOf, options.uniqueFields, t('errors.field.duplicated'));
      return sortErrors(uniqueErrors([...cells, ...duplicates]), fields);
    }, [errorSchema, gridRowOf, value, fields, JSON.stringify(options.uniqueFields), t]),
    sameErrors,
  );
  const display = useMemo(() => markErrors(grid.matrix, errors, fields), [grid.matrix, errors, fields]);

  // Keyboard: Tab between cells is the browser's (react-spreadsheet would keep Tab inside the grid for good, a keyboard
  // trap); a cell reached so becomes the active cell, so arrows, typing and Enter work from there. While a cell is
  // being edited, Tab is react-spreadsheet's: it keeps the text and moves to the next cell.
  const sheet = useRef<SpreadsheetRef>(null);
  const active = useRef<Point | null>(null);
  const mode = useRef<Mode>('view');
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Tab' && mode.current === 'view') event.stopPropagation();
  };
  const onActivate = useCallback((point: Point) => {
    active.current = point;
  }, []);
  const onModeChange = useCallback((next: Mode) => {
    mode.current = next;
  }, []);
  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    const cell = event.target as HTMLTableCellElement;
    if (cell.tagName !== 'TD' || !cell.classList.contains('Spreadsheet__cell')) return;
    const point = { row: (cell.parentElement as HTMLTableRowElement).rowIndex - 1, column: cell.cellIndex - 1 };
    // react-spreadsheet focuses the cell it has just activated (a click, an arrow key) and reports it after that: wait
    setTimeout(() => {
      if (!mounted.current || cell.ownerDocument.activeElement !== cell) return;
      if (active.current?.row === point.row && active.current.column === point.column) return;
      sheet.current?.activate(point);
    }, 0);
  };

  const headingId = `${id}__heading`;
  const errorsId = `${id}__grid-errors`;
  const columnLabels = useMemo(() => columns.map((column) => t(column.label)), [columns, t]);
  const described = errors.length > 0;
  // one object while nothing in it changes: every header and editor of the sheet reads it
  const labels = useMemo<GridLabels>(
    () => ({
      columns: columnLabels,
      tableLabelledBy: headingId,
      tableDescribedBy: described ? errorsId : undefined,
      selectAll: t('learnerGrid.selectAll'),
      selectRow: (row) => t('learnerGrid.selectRow', { rowNo: row + 1 }),
      selectColumn: (label) => t('learnerGrid.selectColumn', { column: label }),
      cellLabel: (row, column) => t('learnerGrid.cell', { rowNo: row + 1, column: columnLabels[column] ?? '' }),
      lockOf: (row) => {
        const gridRow = grid.rows[row];
        if (!isLockedRow(gridRow, locks)) return undefined;
        return t(isKeptRow(gridRow) ? options.lockKept! : options.lockAdded!, { rowNo: row + 1 });
      },
    }),
    [columnLabels, headingId, described, errorsId, t, grid.rows, locks, options.lockKept, options.lockAdded],
  );
  const filled = grid.matrix.filter((cells) => !isBlankRow(cells, fields.length)).length;
  const maximum = options.maximum;
  const locked = disabled || readonly;
  const overLimit = maximum !== undefined && filled > maximum;

  // more rows than the maximum: the form is not sent (the message says why)
  const formContext: unknown = registry?.formContext;
  const context = isWidgetFormContext(formContext) ? formContext : undefined;
  useEffect(() => {
    context?.setSubmitBlocked(id, overLimit);
  }, [context, id, overLimit]);
  useEffect(() => () => context?.setSubmitBlocked(id, false), [context, id]);

  const refusalMessages = refused.flatMap((edit) => {
    const key = edit.kind === 'kept' ? options.lockKeptRefused : options.lockAddedRefused;
    return key ? [t(key, { ...edit.values, lineNo: edit.row + 1, rowNo: edit.row + 1 })] : [];
  });

  return (
    <div className="learner-grid" id={id}>
      <h2 className="learner-grid__heading" id={headingId}>
        {maximum === undefined ? t(options.label) : t(options.headingKey, { number: maximum, minimum: options.minimum ?? 0 })}
      </h2>
      {options.helpLink && (
        <p className="learner-grid__hint">
          <a href={t(options.helpLink)} target="_blank" rel="noreferrer">
            {t(options.helpLabel)}
          </a>
        </p>
      )}
      {[options.lockKept, options.lockAdded].map(
        (reason) =>
          reason && (
            <p key={reason} className="learner-grid__lock-note">
              <span aria-hidden="true">※ </span>
              {t(reason, { rowNo: '' })}
            </p>
          ),
      )}
      <LabelsContext.Provider value={labels}>
        <div className="learner-grid__sheet" onFocus={onFocus} onKeyDownCapture={onKeyDownCapture}>
          <Sheet
            ref={sheet}
            data={display}
            onChange={handleChange as (data: GridMatrix) => void}
            onActivate={onActivate}
            onModeChange={onModeChange}
            columnLabels={columnLabels}
            Table={GridTable}
            Row={Row}
            CornerIndicator={CornerIndicator}
            ColumnIndicator={ColumnIndicator}
            RowIndicator={RowIndicator}
            DataViewer={DataViewer as never}
            DataEditor={locked ? (DataViewer as never) : (DataEditor as never)}
          />
        </div>
      </LabelsContext.Provider>
      <div className="learner-grid__actions">
        <button type="button" className="button learner-grid__add" aria-label={t('learnerGrid.addRow')} title={t('learnerGrid.addRow')} disabled={locked || locks.added} onClick={addRow}>
          +
        </button>
        <span className="learner-grid__count">{t('learnerGrid.count', { count: filled })}</span>
        <span className="learner-grid__pasting" role="status">
          {pasting ? t('learnerGrid.pasting') : ''}
        </span>
      </div>
      {refusalMessages.length > 0 && (
        <div className="learner-grid__refused" role="alert">
          <ul>
            {refusalMessages.map((message, index) => (
              <li key={index}>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {overLimit && (
        <p className="learner-grid__limit" role="alert">
          {t(options.limitMessage, { number: maximum })}
          {options.limitHelpLink && (
            <>
              {' '}
              <a href={t(options.limitHelpLink)} target="_blank" rel="noreferrer">
                {t('learnerGrid.limitHelp')}
              </a>
            </>
          )}
        </p>
      )}
      {errors.length > 0 && (
        <div className="learner-grid__errors" id={errorsId}>
          <p className="learner-grid__errors-title">{t('learnerGrid.errors.title')}</p>
          <ul>
            {errors.map((error, index) => (
              <li key={index}>
                {error.field === undefined
                  ? t('learnerGrid.errors.row', { rowNo: error.row + 1, message: error.message })
                  : t('learnerGrid.errors.cell', {
                      rowNo: error.row + 1,
                      fieldLabel: columnLabels[fields.indexOf(error.field)] ?? error.field,
                      message: error.message,
                    })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

export default LearnerGrid;
