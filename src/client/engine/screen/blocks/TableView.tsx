import { lazy, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableBlock } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import { resolveValue, resolveValues } from '../values.js';
import { CellWords } from './CellView.js';
import type { BlockProps } from './shared.js';
import { rowContextOf, TableHead, TableRow } from './tableParts.js';
import { importVirtualTable } from './virtualTableChunk.js';
import { revealing } from '../../Reveal.js';

/** Suspends up to the screen's boundary, whose content stays while the chunk arrives (the screen's answers render in a transition). */
const VirtualTableView = lazy(() => revealing(importVirtualTable()).then((module) => ({ default: module.VirtualTableView })));

export function TableView({ block, screen, context, renderBlocks }: BlockProps<TableBlock>): ReactElement {
  const { t } = useTranslation();
  const rows = (resolveValue(block.rows, context) as unknown[] | undefined) ?? [];
  if (rows.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  const columns = block.columns.filter((column) => matches(column.when, context));
  if (block.virtual) return <VirtualTableView block={block} layout={block.virtual} screen={screen} context={context} renderBlocks={renderBlocks} rows={rows} columns={columns} />;
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
