import { lazy, memo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableBlock, VirtualTable } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import { nextCursor, screenDataMoreWanted } from '../screenData.js';
import { resolveValue, resolveValues } from '../values.js';
import { CellWords } from './CellView.js';
import type { BlockProps } from './shared.js';
import { rowContextOf, TableHead, TableRow } from './tableParts.js';
import { importVirtualTable } from './virtualTableChunk.js';
import type { VirtualTableParts } from './VirtualTableView.js';
import { BusyPlace } from '../../BusyPlace.js';
import { Reveal, revealing } from '../../Reveal.js';

const VirtualTableView = lazy(() => revealing(importVirtualTable()).then((module) => ({ default: module.VirtualTableView })));
const VIRTUAL_TABLE_PARTS: VirtualTableParts = { TableHead, VirtualRow: memo(TableRow), CellWords, rowContextOf, nextCursor, screenDataMoreWanted };

export function TableView({ block, screen, context, renderBlocks }: BlockProps<TableBlock>): ReactElement {
  const { t } = useTranslation();
  const rows = (resolveValue(block.rows, context) as unknown[] | undefined) ?? [];
  if (rows.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  const columns = block.columns.filter((column) => matches(column.when, context));
  if (block.virtual) {
    // the table's chunk may come after the block engine: a boundary of its own shows the blocks around it meanwhile,
    // not the screen's loader (issue 47: /users' lead, its largest paint, waited for the table's 11 KB on a slow link)
    return (
      <Reveal fallback={<TablePlaceholder layout={block.virtual} rows={rows.length} />}>
        <VirtualTableView block={block} layout={block.virtual} screen={screen} context={context} renderBlocks={renderBlocks} rows={rows} columns={columns} parts={VIRTUAL_TABLE_PARTS} />
      </Reveal>
    );
  }
  const alongside = block.alongside ? resolveValues(block.alongside, context) : undefined;
  return (
    <table className="table">
      <TableHead block={block} columns={columns} />
      <tbody>
        <CellWords value={t}>
          {rows.map((item, index) => {
            const rowContext = rowContextOf(block, context, alongside, item, index);
            const expanded = block.expand !== undefined && matches(block.expand.when, rowContext);
            return <TableRow key={index} block={block} screen={screen} rowContext={rowContext} columns={columns} expanded={expanded} renderBlocks={renderBlocks} />;
          })}
        </CellWords>
      </tbody>
    </table>
  );
}

/** In a virtual table's place until its chunk is there: as tall as the table will be (its head counted as a row). */
function TablePlaceholder({ layout, rows }: { layout: VirtualTable; rows: number }): ReactElement {
  return <BusyPlace className="table-placeholder" style={{ height: Math.min(layout.maxHeight, (rows + 1) * layout.rowHeight), maxWidth: layout.width }} />;
}
