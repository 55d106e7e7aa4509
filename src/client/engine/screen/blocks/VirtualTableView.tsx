import { useEffect, useMemo, useRef, type FocusEvent, type MemoExoticComponent, type ReactElement } from 'react';
import { elementScroll, useVirtualizer, type Rect } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import type { ScreenDefinition, TableBlock, VirtualTable } from '../../../../common/screens.js';
import { useAfterFirstPaint } from '../../afterFirstPaint.js';
import { matches } from '../conditions.js';
import type { nextCursor, screenDataMoreWanted } from '../screenData.js';
import { resolveValue, resolveValues, type ScreenContext } from '../values.js';
import type { CellWords } from './CellView.js';
import type { BlockProps } from './shared.js';
import type { rowContextOf, TableHead, TableRow } from './tableParts.js';

/**
 * What a virtual table draws and pages with, the block engine's own (TableView.tsx): handed in, not imported, so this
 * chunk shares no module with the block engine and the route's preload asks for it beside the block engine, not after
 * it (issue 47: the two in a row ended /users' largest paint), without a third chunk on every page.
 */
export interface VirtualTableParts {
  TableHead: typeof TableHead;
  /** TableRow memoised: a row the virtualizer renders again unchanged (on each change of the rows in view) is skipped. */
  VirtualRow: MemoExoticComponent<typeof TableRow>;
  CellWords: typeof CellWords;
  rowContextOf: typeof rowContextOf;
  nextCursor: typeof nextCursor;
  screenDataMoreWanted: typeof screenDataMoreWanted;
}

interface VirtualTableProps extends BlockProps<TableBlock> {
  layout: VirtualTable;
  rows: unknown[];
  columns: TableBlock['columns'];
  parts: VirtualTableParts;
}

/**
 * A table of thousands of rows (the `virtual` option, SPEC §9 Users table): a scroll container holding only the rows
 * in view and `overscan` more each way, spacer rows standing for the others. Screen readers hear the row count and
 * each row's position (aria-rowcount, aria-rowindex); the container takes focus and scrolls by keyboard, and a row
 * taking focus (Tab) is scrolled into view, so the rows after it are rendered and Tab reaches every row.
 */
export function VirtualTableView({ block, layout, screen, context, renderBlocks, rows, columns, parts }: VirtualTableProps): ReactElement {
  const { TableHead, VirtualRow, CellWords, rowContextOf } = parts;
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const alongside = useMemo(() => (block.alongside ? resolveValues(block.alongside, context) : undefined), [block, context]);
  // computed once per list or context, not on each scroll (the virtualizer re-renders this component only)
  const expanded = useMemo(
    () => (block.expand ? rows.flatMap((item, index) => (matches(block.expand!.when, rowContextOf(block, context, alongside, item, index)) ? [index] : [])) : []),
    [block, context, alongside, rows],
  );
  const expandedHeight = layout.expandedRowHeight ?? layout.rowHeight;
  // issue 47: /users' longest task at 4× CPU was 300 ms. Until the first rows are painted the virtualizer has no scroll
  // container and places the rows in view by the definition's size: attaching it measures the container, which in the
  // commit forced the page's whole style and layout into the render's task (90 ms of the 300); after the paint that
  // layout is done, and the rows beyond the view (the overscan, 30 each way on /users) render as a transition
  const attached = useAfterFirstPaint();
  const firstWrite = useRef(true);
  const declaredSize = { width: layout.width, height: layout.height };
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => (attached ? scroller.current : null),
    estimateSize: (index) => (expanded.includes(index) ? expandedHeight : layout.rowHeight),
    // the rows beyond the view come after the first paint (useAfterFirstPaint)
    overscan: attached ? layout.overscan : 0,
    initialRect: declaredSize,
    observeElementRect: (instance, changed) => observeSize(instance.scrollElement, declaredSize, changed),
    // the first write, as the container attaches, is to where the new container is (the top): skipped, since scrollTo
    // forces the page's layout inside React's commit (issue 47: ~17 ms of /users' first render at 1× CPU)
    scrollToFn: (offset, options, instance) => {
      const toWhereItIs = firstWrite.current && offset + (options.adjustments ?? 0) === 0;
      firstWrite.current = false;
      if (!toWhereItIs) elementScroll(offset, options, instance);
    },
  });
  useEffect(() => virtualizer.measure(), [virtualizer, expanded]);
  const target = layout.scrollTo === undefined ? undefined : resolveValue(layout.scrollTo, context);
  useEffect(() => {
    const index = typeof target === 'number' ? target - (block.rowNumberFrom ?? 0) : -1;
    if (attached && index >= 0 && index < rows.length) virtualizer.scrollToIndex(index, { align: 'center' });
  }, [virtualizer, target, block.rowNumberFrom, rows.length, attached]);
  // a row reached by Tab outside the view is brought into it (a clicked row is in view already: moving it under the
  // pointer would lose the click)
  const showFocused = (index: number, event: FocusEvent) => {
    const box = scroller.current?.getBoundingClientRect();
    const focused = (event.target as Element).getBoundingClientRect();
    if (box && !(focused.bottom > box.top && focused.top < box.bottom)) virtualizer.scrollToIndex(index);
  };
  // each row's context and focus handler, made once per list or context (VirtualRow: issue 47, the rows beyond the
  // view rendered again at once as the container attached); showFocused reads only what lasts as long as the table
  const rowProps = useMemo(() => {
    const made = new Map<number, { rowContext: ScreenContext; onFocus: (event: FocusEvent) => void }>();
    return (index: number) => {
      if (!made.has(index)) made.set(index, { rowContext: rowContextOf(block, context, alongside, rows[index], index), onFocus: (event) => showFocused(index, event) });
      return made.get(index)!;
    };
  }, [block, context, alongside, rows]);
  const heights = useMemo((): [number, number] => [layout.rowHeight, expandedHeight - layout.rowHeight], [layout.rowHeight, expandedHeight]);
  const items = virtualizer.getVirtualItems();
  const more = useLoadMore(parts, block, screen, context, rows.length, (items.at(-1)?.index ?? -1) + layout.overscan);
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const spacer = (height: number) => height > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height }} />;
  return (
    <div ref={scroller} className="table-scroll" style={{ maxHeight: layout.maxHeight, maxWidth: layout.width }} tabIndex={0} role="region" aria-label={t(block.caption)}>
      {/* while pages remain, the number of rows is not known yet (WAI-ARIA: -1) */}
      <table className="table" style={{ width: layout.width }} aria-rowcount={more ? -1 : rows.length + expanded.length + 1}>
        <TableHead block={block} columns={columns} />
        <tbody>
          <CellWords value={t}>
            {spacer(before)}
            {items.map(({ index, key }) => (
              <VirtualRow
                key={key}
                block={block}
                screen={screen}
                {...rowProps(index)}
                columns={columns}
                expanded={expanded.includes(index)}
                // the header is row 1; an expansion row above counts as a row
                rowIndex={index + 2 + expanded.filter((other) => other < index).length}
                heights={heights}
                renderBlocks={renderBlocks}
              />
            ))}
            {spacer(after)}
          </CellWords>
        </tbody>
      </table>
    </div>
  );
}

/**
 * A table of a paged data entry (`loadsMore`): asks for the next page once the rendered rows reach `reached` (the last
 * row in view plus the overscan) at the end of the loaded ones. Whether pages remain.
 */
function useLoadMore({ nextCursor, screenDataMoreWanted }: VirtualTableParts, block: TableBlock, screen: ScreenDefinition, context: ScreenContext, count: number, reached: number): boolean {
  const dispatch = useDispatch();
  const key = block.loadsMore;
  const more = key !== undefined && nextCursor(context.data[key], screen.data?.[key]?.pages) !== undefined;
  const nearEnd = reached >= count - 1;
  useEffect(() => {
    if (more && nearEnd) dispatch(screenDataMoreWanted({ screenId: screen.id, key: key! }));
  }, [dispatch, more, nearEnd, count, screen.id, key]);
  return more;
}

/**
 * The scroll container's size as ResizeObserver reports it once layout is done (its first report follows the first
 * layout), not read at once as the library does: read in React's commit, it forced the whole page's layout inside
 * that task (issue 47: ~28 ms of /users' first render at 1× CPU). Before layout (and in tests) the container measures
 * 0: the definition's size stands in.
 */
function observeSize(element: HTMLElement | null, stand: Rect, changed: (rect: Rect) => void): (() => void) | undefined {
  const report = () => changed(element && element.offsetHeight > 0 ? { width: element.offsetWidth, height: element.offsetHeight } : stand);
  if (!element || typeof ResizeObserver === 'undefined') return void report();
  const observer = new ResizeObserver(report);
  observer.observe(element);
  return () => observer.disconnect();
}
