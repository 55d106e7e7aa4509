/** What the plain and the virtualised table share: a row's context, a row with its expansion, the caption and head. */
import type { FocusEvent, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { Cell, ScreenDefinition, TableBlock } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import type { ScreenContext } from '../values.js';
import { CellView } from './CellView.js';
import type { RenderBlocks } from './shared.js';

/** A row's context: the item, its row number and its elements of the `alongside` arrays. */
export function rowContextOf(block: TableBlock, context: ScreenContext, alongside: Record<string, unknown> | undefined, item: unknown, index: number): ScreenContext {
  return {
    ...context,
    item,
    ...(block.rowNumberFrom === undefined ? {} : { rowNo: index + block.rowNumberFrom }),
    ...(alongside ? { along: Object.fromEntries(Object.entries(alongside).map(([name, array]) => [name, Array.isArray(array) ? array[index] : undefined])) } : {}),
  };
}

interface TableRowProps {
  block: TableBlock;
  screen: ScreenDefinition;
  rowContext: ScreenContext;
  columns: TableBlock['columns'];
  expanded: boolean;
  /** Shows the expand blocks. */
  renderBlocks: RenderBlocks;
  /** aria-rowindex of the row (a virtualised table: most rows are not in the DOM). */
  rowIndex?: number;
  /** The row's and its expansion's heights (a virtualised table). */
  heights?: [number, number];
  onFocus?: (event: FocusEvent) => void;
}

/**
 * A column of one text: the text alone in its cell, with no box around it. Most columns are, and a table of a hundred
 * rows has several hundred of them: two elements fewer each to style and lay out on its first paint (issue 47).
 */
const isTextAlone = (cells: Cell[]) => cells.length === 1 && cells[0]!.type === 'text' && cells[0]!.each === undefined;

/** A table's row and, where its expand condition holds, the full-width row of the expand blocks under it. */
export function TableRow({ block, screen, rowContext, columns, expanded, renderBlocks, rowIndex, heights, onFocus }: TableRowProps): ReactElement {
  const muted = block.muted !== undefined && matches(block.muted.when, rowContext);
  return (
    <>
      <tr className={muted ? 'table__row--muted' : undefined} aria-rowindex={rowIndex} style={heights && { height: heights[0] }} onFocus={onFocus}>
        {columns.map((column) => (
          <td key={column.title}>
            {isTextAlone(column.cells) ? (
              <CellView cell={column.cells[0]!} screen={screen} context={rowContext} bare />
            ) : (
              <div className="table__cell">
                {column.cells.map((cell, cellIndex) => (
                  <CellView key={cellIndex} cell={cell} screen={screen} context={rowContext} />
                ))}
              </div>
            )}
          </td>
        ))}
      </tr>
      {expanded && (
        <tr className="table__expansion" aria-rowindex={rowIndex === undefined ? undefined : rowIndex + 1} onFocus={onFocus}>
          <td colSpan={columns.length}>
            {/* a virtualised row keeps the height it is counted at: a taller form scrolls inside it */}
            <div className="table__expansion-body" style={heights && { height: heights[1] }}>
              {renderBlocks(block.expand!.blocks, rowContext)}
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

export function TableHead({ block, columns }: { block: TableBlock; columns: TableBlock['columns'] }): ReactElement {
  const { t } = useTranslation();
  return (
    <>
      <caption className="table__caption">{t(block.caption)}</caption>
      <thead>
        <tr aria-rowindex={block.virtual ? 1 : undefined}>
          {columns.map((column) => (
            <th key={column.title} scope="col">
              {t(column.title)}
            </th>
          ))}
        </tr>
      </thead>
    </>
  );
}
