/**
 * The blocks of a screen definition (text, banner, links, details, cards, table, list, itemList, select, form, panel,
 * fragment…), each shown only when its condition holds for the screen context. Components dispatch; actions run in
 * sagas (actions.ts).
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FocusEvent, type ReactElement, type ReactNode } from 'react';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { Trans, useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useSearchParams } from 'react-router-dom';
import type { BannerBlock, Block, CardsBlock, Cell, ColumnsBlock, DateBlock, DetailsBlock, DividerBlock, FragmentBlock, ImageBlock, ItemListBlock, UploadBlock, LinkItem, LinkListBlock, LinksBlock, ListBlock, PanelBlock, ScreenDefinition, SelectBlock, TableBlock, TextBlock, VirtualTable } from '../../../common/screens.js';
import { isAbsoluteUrl } from '../../../common/serviceLinks.js';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import { isPending, uploadedShare, type OperationsRootState } from '../../state/operations.js';
import { importFormScreen } from '../chunks.js';
import { Loader } from '../Loader.js';
import { formatDate } from '../dates.js';
import { actionCancelled, actionOperation, actionRequested } from './dialogState.js';
import { matches } from './conditions.js';
import { formatted } from './formats.js';
import { fragmentByName } from './fragments.js';
import { linkClassName, LinkView, useHref } from './LinkView.js';
import { screenPath } from './navigation.js';
import { resolveValue, resolveValues, type ScreenContext } from './values.js';
import { nextCursor, screenDataMoreWanted } from './screenData.js';

const FormScreen = lazy(() => importFormScreen().then((module) => ({ default: module.FormScreen })));

interface BlockProps<B> {
  block: B;
  screen: ScreenDefinition;
  context: ScreenContext;
}

function useRunAction(screen: ScreenDefinition) {
  const dispatch = useDispatch();
  return (actionId: string, context: ScreenContext) => dispatch(actionRequested({ screenId: screen.id, actionId, context }));
}

function TextView({ block, context }: BlockProps<TextBlock>): ReactElement {
  const href = useHref();
  const links = (block.links ?? []).map((link, index) => (
    <a key={index} href={href(link.href, context)} {...(link.external ? { target: '_blank', rel: 'noreferrer' } : {})} />
  ));
  const className = block.style ? `text text--${block.style}` : 'text';
  const content = <Trans i18nKey={block.text} values={formatted(resolveValues(block.values, context), block.formats, context.language)} components={links} />;
  if (block.style === 'heading') return <h2 className={className}>{content}</h2>;
  if (block.style === 'subheading') return <h3 className={className}>{content}</h3>;
  return (
    <p className={className} role={block.style === 'warning' ? 'alert' : undefined}>
      {content}
    </p>
  );
}

function BannerView({ block, context }: BlockProps<BannerBlock>): ReactElement | null {
  const { t } = useTranslation();
  const [closed, setClosed] = useState(false);
  if (closed) return null;
  return (
    <div className={`banner banner--${block.kind ?? 'info'}`} role="status">
      <p>{t(block.text, resolveValues(block.values, context))}</p>
      {block.closable && (
        <button type="button" className="banner__close" aria-label={t('common.close')} onClick={() => setClosed(true)}>
          ×
        </button>
      )}
    </div>
  );
}

/** A link to a screen or URL, or a button running an action. */
function LinkItemView({ item, screen, context }: { item: LinkItem; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  const { t } = useTranslation();
  const run = useRunAction(screen);
  const pending = useSelector((state: OperationsRootState) => (item.action ? isPending(actionOperation(screen.id, item.action))(state) : false));
  if (!item.action) return <LinkView item={item} context={context} className={linkClassName(item.style)} />;
  if (!matches(item.when, context)) return null;
  const disabled = item.disabled !== undefined && matches(item.disabled.when, context);
  return (
    <button type="button" className={linkClassName(item.style)} aria-label={item.ariaLabel ? t(item.ariaLabel) : undefined} disabled={pending || disabled} onClick={() => run(item.action!, context)}>
      {t(item.label)}
    </button>
  );
}

function LinksView({ block, screen, context }: BlockProps<LinksBlock>): ReactElement {
  return (
    <div className="links">
      {block.items.map((item, index) => (
        <LinkItemView key={index} item={item} screen={screen} context={context} />
      ))}
    </div>
  );
}

function DetailsView({ block, screen, context }: BlockProps<DetailsBlock>): ReactElement {
  const { t } = useTranslation();
  const rowText = (row: DetailsBlock['rows'][number], rowContext: ScreenContext) =>
    row.text ? t(row.text, formatted(resolveValues(row.values, rowContext), row.formats, rowContext.language)) : String(resolveValue(row.value, rowContext) ?? '');
  return (
    <dl className="details">
      {block.rows
        .filter((row) => matches(row.when, context))
        .map((row) => (
          <div key={row.label} className="details__row">
            <dt>{t(row.label)}</dt>
            <dd>
              {row.each === undefined ? (
                <span className="details__value">{rowText(row, context)}</span>
              ) : (
                (Array.isArray(resolveValue(row.each, context)) ? (resolveValue(row.each, context) as unknown[]) : []).map((element, index) => (
                  <span key={index} className="details__value details__value--line">
                    {rowText(row, { ...context, element })}
                  </span>
                ))
              )}
              {row.link && <LinkItemView item={row.link} screen={screen} context={context} />}
              {row.note && <span className="details__note">{t(row.note)}</span>}
            </dd>
          </div>
        ))}
    </dl>
  );
}

function CardsView({ block, context }: BlockProps<CardsBlock>): ReactElement {
  const { t } = useTranslation();
  const items = (resolveValue(block.items, context) as unknown[] | undefined) ?? [];
  const list = (
    <ul className="service-grid">
      {items.map((item, index) => {
        const itemContext = { ...context, item };
        const image = resolveValue(block.image, itemContext) as string | null | undefined;
        const title = String(resolveValue(block.title, itemContext) ?? '');
        const heading = (
          <>
            {image && <img className="service-card__thumbnail" src={image} alt="" width={320} height={180} />}
            <h3 className="service-card__name">{title}</h3>
          </>
        );
        return (
          <li key={index} className="service-card">
            {block.link ? (
              <Link className="service-card__link" to={screenPath(block.link, itemContext)}>
                {heading}
              </Link>
            ) : (
              heading
            )}
            {String(resolveValue(block.text, itemContext) ?? '')
              .split('\n')
              .map((line, lineIndex) => (
                <p key={lineIndex} className="service-card__summary">
                  {line}
                </p>
              ))}
          </li>
        );
      })}
    </ul>
  );
  if (!block.heading) return list;
  return (
    <section aria-labelledby="cards-heading">
      <h2 id="cards-heading">{t(block.heading)}</h2>
      {list}
    </section>
  );
}

/** A cell, or with `each` the cell once per element of its array (the element as `$element`). */
function CellView({ cell, screen, context }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  if (cell.each === undefined) return <OneCell cell={cell} screen={screen} context={context} />;
  const elements = resolveValue(cell.each, context);
  if (!Array.isArray(elements)) return null;
  return (
    <>
      {elements.map((element, index) => (
        <OneCell key={index} cell={cell} screen={screen} context={{ ...context, element }} />
      ))}
    </>
  );
}

function OneCell({ cell, screen, context }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
  const { t } = useTranslation();
  const href = useHref();
  const run = useRunAction(screen);
  const pending = useSelector((state: OperationsRootState) => (cell.action ? isPending(actionOperation(screen.id, cell.action))(state) : false));
  if (!matches(cell.when, context)) return null;
  const values = formatted(resolveValues(cell.values, context), cell.formats, context.language);
  const text = cell.text ? t(cell.text, values) : String(resolveValue(cell.value, context) ?? '');
  switch (cell.type) {
    case 'mark':
      return <span className="mark">{text}</span>;
    case 'link':
      return (
        <a href={cell.screen ? screenPath(cell.screen, context) : href(cell.href ?? '', context)} {...(cell.external ? { target: '_blank', rel: 'noreferrer' } : {})}>
          {t(cell.label ?? '', values)}
        </a>
      );
    case 'select': {
      const current = String(resolveValue(cell.value, context) ?? '');
      return (
        <select
          aria-label={t(cell.label ?? '', values)}
          value={current}
          disabled={pending}
          onChange={(event) => {
            // choosing the value the row already has does nothing (SPEC 2.13)
            if (event.target.value !== current) run(cell.action!, { ...context, value: event.target.value });
          }}
        >
          {(cell.options ?? []).map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </select>
      );
    }
    case 'button':
      return (
        <button
          type="button"
          className={cell.style === 'link' ? linkClassName('link') : `button button--small${cell.style === 'danger' ? ' button--danger' : ''}`}
          aria-label={cell.label ? t(cell.label, values) : undefined}
          disabled={pending}
          onClick={() => run(cell.action!, context)}
        >
          {text}
        </button>
      );
    default:
      return <span>{text}</span>;
  }
}

/** A row's context: the item, its row number and its elements of the `alongside` arrays. */
function rowContextOf(block: TableBlock, context: ScreenContext, alongside: Record<string, unknown> | undefined, item: unknown, index: number): ScreenContext {
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
  /** aria-rowindex of the row (a virtualised table: most rows are not in the DOM). */
  rowIndex?: number;
  /** The row's and its expansion's heights (a virtualised table). */
  heights?: [number, number];
  onFocus?: (event: FocusEvent) => void;
}

/** A table's row and, where its expand condition holds, the full-width row of the expand blocks under it. */
function TableRow({ block, screen, rowContext, columns, expanded, rowIndex, heights, onFocus }: TableRowProps): ReactElement {
  const muted = block.muted !== undefined && matches(block.muted.when, rowContext);
  return (
    <>
      <tr className={muted ? 'table__row--muted' : undefined} aria-rowindex={rowIndex} style={heights && { height: heights[0] }} onFocus={onFocus}>
        {columns.map((column) => (
          <td key={column.title}>
            <div className="table__cell">
              {column.cells.map((cell, cellIndex) => (
                <CellView key={cellIndex} cell={cell} screen={screen} context={rowContext} />
              ))}
            </div>
          </td>
        ))}
      </tr>
      {expanded && (
        <tr className="table__expansion" aria-rowindex={rowIndex === undefined ? undefined : rowIndex + 1} onFocus={onFocus}>
          <td colSpan={columns.length}>
            {/* a virtualised row keeps the height it is counted at: a taller form scrolls inside it */}
            <div className="table__expansion-body" style={heights && { height: heights[1] }}>
              <Blocks blocks={block.expand!.blocks} screen={screen} context={rowContext} />
            </div>
          </td>
        </tr>
      )}
    </>
  );
}

function TableHead({ block, columns }: { block: TableBlock; columns: TableBlock['columns'] }): ReactElement {
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

function TableView({ block, screen, context }: BlockProps<TableBlock>): ReactElement {
  const { t } = useTranslation();
  const rows = (resolveValue(block.rows, context) as unknown[] | undefined) ?? [];
  if (rows.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  const columns = block.columns.filter((column) => matches(column.when, context));
  if (block.virtual) return <VirtualTableView block={block} layout={block.virtual} screen={screen} context={context} rows={rows} columns={columns} />;
  const alongside = block.alongside ? resolveValues(block.alongside, context) : undefined;
  return (
    <table className="table">
      <TableHead block={block} columns={columns} />
      <tbody>
        {rows.map((item, index) => {
          const rowContext = rowContextOf(block, context, alongside, item, index);
          const expanded = block.expand !== undefined && matches(block.expand.when, rowContext);
          return <TableRow key={index} block={block} screen={screen} rowContext={rowContext} columns={columns} expanded={expanded} />;
        })}
      </tbody>
    </table>
  );
}

interface VirtualTableProps extends BlockProps<TableBlock> {
  layout: VirtualTable;
  rows: unknown[];
  columns: TableBlock['columns'];
}

/**
 * A table of thousands of rows (the `virtual` option, SPEC §9 Users table): a scroll container holding only the rows
 * in view and `overscan` more each way, spacer rows standing for the others. Screen readers hear the row count and
 * each row's position (aria-rowcount, aria-rowindex); the container takes focus and scrolls by keyboard, and a row
 * taking focus (Tab) is scrolled into view, so the rows after it are rendered and Tab reaches every row.
 */
function VirtualTableView({ block, layout, screen, context, rows, columns }: VirtualTableProps): ReactElement {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const alongside = useMemo(() => (block.alongside ? resolveValues(block.alongside, context) : undefined), [block, context]);
  // computed once per list or context, not on each scroll (the virtualizer re-renders this component only)
  const expanded = useMemo(
    () => (block.expand ? rows.flatMap((item, index) => (matches(block.expand!.when, rowContextOf(block, context, alongside, item, index)) ? [index] : [])) : []),
    [block, context, alongside, rows],
  );
  const expandedHeight = layout.expandedRowHeight ?? layout.rowHeight;
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (expanded.includes(index) ? expandedHeight : layout.rowHeight),
    overscan: layout.overscan,
    initialRect: { width: layout.width, height: layout.height },
    // before layout (and in tests) the container measures 0: the definition's height stands in
    observeElementRect: (instance, changed) => observeElementRect(instance, (rect) => changed(rect.height > 0 ? rect : { width: layout.width, height: layout.height })),
  });
  useEffect(() => virtualizer.measure(), [virtualizer, expanded]);
  const target = layout.scrollTo === undefined ? undefined : resolveValue(layout.scrollTo, context);
  useEffect(() => {
    const index = typeof target === 'number' ? target - (block.rowNumberFrom ?? 0) : -1;
    if (index >= 0 && index < rows.length) virtualizer.scrollToIndex(index, { align: 'center' });
  }, [virtualizer, target, block.rowNumberFrom, rows.length]);
  // a row reached by Tab outside the view is brought into it (a clicked row is in view already: moving it under the
  // pointer would lose the click)
  const showFocused = (index: number, event: FocusEvent) => {
    const box = scroller.current?.getBoundingClientRect();
    const focused = (event.target as Element).getBoundingClientRect();
    if (box && !(focused.bottom > box.top && focused.top < box.bottom)) virtualizer.scrollToIndex(index);
  };
  const items = virtualizer.getVirtualItems();
  const more = useLoadMore(block, screen, context, rows.length, (items.at(-1)?.index ?? -1) + layout.overscan);
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);
  const spacer = (height: number) => height > 0 && <tr aria-hidden="true" className="table__spacer" style={{ height }} />;
  return (
    <div ref={scroller} className="table-scroll" style={{ maxHeight: layout.maxHeight, maxWidth: layout.width }} tabIndex={0} role="region" aria-label={t(block.caption)}>
      {/* while pages remain, the number of rows is not known yet (WAI-ARIA: -1) */}
      <table className="table" style={{ width: layout.width }} aria-rowcount={more ? -1 : rows.length + expanded.length + 1}>
        <TableHead block={block} columns={columns} />
        <tbody>
          {spacer(before)}
          {items.map(({ index, key }) => (
            <TableRow
              key={key}
              block={block}
              screen={screen}
              rowContext={rowContextOf(block, context, alongside, rows[index], index)}
              columns={columns}
              expanded={expanded.includes(index)}
              // the header is row 1; an expansion row above counts as a row
              rowIndex={index + 2 + expanded.filter((other) => other < index).length}
              heights={[layout.rowHeight, expandedHeight - layout.rowHeight]}
              onFocus={(event) => showFocused(index, event)}
            />
          ))}
          {spacer(after)}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A table of a paged data entry (`loadsMore`): asks for the next page once the rendered rows reach `reached` (the last
 * row in view plus the overscan) at the end of the loaded ones. Whether pages remain.
 */
function useLoadMore(block: TableBlock, screen: ScreenDefinition, context: ScreenContext, count: number, reached: number): boolean {
  const dispatch = useDispatch();
  const key = block.loadsMore;
  const more = key !== undefined && nextCursor(context.data[key], screen.data?.[key]?.pages) !== undefined;
  const nearEnd = reached >= count - 1;
  useEffect(() => {
    if (more && nearEnd) dispatch(screenDataMoreWanted({ screenId: screen.id, key: key! }));
  }, [dispatch, more, nearEnd, count, screen.id, key]);
  return more;
}

function ListView({ block, context }: BlockProps<ListBlock>): ReactElement {
  const { t } = useTranslation();
  const items = (resolveValue(block.items, context) as unknown[] | undefined) ?? [];
  if (items.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  const language = isLanguage(context.language) ? context.language : DEFAULT_LANGUAGE;
  if (block.style === 'code') {
    return (
      <ul className="code-list" aria-label={t(block.caption)}>
        {items.map((item, index) => (
          <li key={index}>
            <code>{String(resolveValue(block.title, { ...context, item }) ?? '')}</code>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <ul className="article-list" aria-label={t(block.caption)}>
      {items.map((item, index) => {
        const itemContext = { ...context, item };
        const title = String(resolveValue(block.title, itemContext) ?? '');
        const date = resolveValue(block.date, itemContext);
        const href = block.link ? resolveValue(block.link.href, itemContext) : undefined;
        return (
          <li key={index} className="article-list__item">
            <article>
              <h2 className="article-list__title">{title}</h2>
              {typeof date === 'string' && date !== '' && (
                <time className="article-list__date" dateTime={date}>
                  {formatDate(date, language)}
                </time>
              )}
              {String(resolveValue(block.text, itemContext) ?? '')
                .split('\n')
                .filter((line) => line !== '')
                .map((line, lineIndex) => (
                  <p key={lineIndex} className="article-list__text">
                    {line}
                  </p>
                ))}
              {block.link && typeof href === 'string' && href !== '' && (
                <a className="article-list__link" href={href} target="_blank" rel="noopener noreferrer">
                  {t(block.link.label, { title })}
                </a>
              )}
            </article>
          </li>
        );
      })}
    </ul>
  );
}

function PanelView({ block, screen, context }: BlockProps<PanelBlock>): ReactElement {
  const { t } = useTranslation();
  return (
    <section className={`panel panel--${block.style ?? 'info'}`} aria-label={block.title ? t(block.title) : undefined}>
      {block.title && <h2 className="panel__title">{t(block.title)}</h2>}
      <Blocks blocks={block.blocks} screen={screen} context={context} />
    </section>
  );
}

function ImageView({ block, context }: BlockProps<ImageBlock>): ReactElement | null {
  const { t } = useTranslation();
  const src = resolveValue(block.src, context);
  if (typeof src !== 'string' || src === '') return null;
  return <img className="image" src={src} alt={block.alt ? t(block.alt) : ''} width={block.width} height={block.height} />;
}

function ColumnsView({ block, screen, context }: BlockProps<ColumnsBlock>): ReactElement {
  return (
    <div className="columns">
      {block.columns.map((column, index) => (
        <div key={index} className={`columns__column columns__column--${column.width ?? 'main'}`}>
          <Blocks blocks={column.blocks} screen={screen} context={context} />
        </div>
      ))}
    </div>
  );
}

/** Relative URLs and http(s) ones only: a link of the data never runs script (javascript:, data:). */
function isSafeHref(href: string): boolean {
  return href !== '' && (!isAbsoluteUrl(href) || /^(https?:)?\/\//i.test(href));
}

/** A button per chosen element of a list of links: absolute URLs in a new tab, relative ones inside the product. */
function LinkListView({ block, context }: BlockProps<LinkListBlock>): ReactElement | null {
  const { t } = useTranslation();
  const items = resolveValue(block.items, context);
  const { each } = block;
  const chosen = (Array.isArray(items) ? items : []).map((item) => ({ ...context, item })).filter((itemContext) => matches(each.when, itemContext) && isSafeHref(String(resolveValue(each.href, itemContext) ?? '')));
  if (chosen.length === 0) return null;
  const className = each.style === 'link' ? 'link' : `button${each.style === 'primary' ? ' button--primary' : ''}`;
  return (
    <ul className="link-list">
      {chosen.map((itemContext, index) => {
        const label = String(resolveValue(each.label, itemContext) ?? '');
        const href = String(resolveValue(each.href, itemContext) ?? '');
        const text = each.texts?.find((row) => matches(row.when, itemContext));
        return (
          <li key={index} className="link-list__item">
            {isAbsoluteUrl(href) ? (
              <a className={className} href={href} target="_blank" rel="noreferrer">
                {label}
              </a>
            ) : (
              <Link className={className} to={href}>
                {label}
              </Link>
            )}
            {text && <p className="link-list__text">{t(text.text, resolveValues(text.values, itemContext))}</p>}
          </li>
        );
      })}
    </ul>
  );
}

/** A button choosing a file; the choice runs the block's action with the file as `$file`, then the input is emptied. */
function UploadView({ block, screen, context }: BlockProps<UploadBlock>): ReactElement {
  const { t } = useTranslation();
  const run = useRunAction(screen);
  const input = useRef<HTMLInputElement>(null);
  const operation = actionOperation(screen.id, block.action);
  const pending = useSelector((state: OperationsRootState) => isPending(operation)(state));
  return (
    <div className="upload">
      <button type="button" className={linkClassName(block.style ?? 'primary')} disabled={pending} onClick={() => input.current?.click()}>
        {t(block.label)}
      </button>
      <input
        ref={input}
        type="file"
        className="upload__input"
        hidden
        aria-label={t(block.label)}
        accept={block.accept}
        disabled={pending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ''; // the same file chosen again is a new choice
          if (file) run(block.action, { ...context, file }); // nothing is sent without a file (SPEC §5)
        }}
      />
      {pending && <UploadProgressView screenId={screen.id} actionId={block.action} />}
    </div>
  );
}

/** While the file is sent: its percentage, then 'checking' until the answer, and a Cancel that aborts the call. */
function UploadProgressView({ screenId, actionId }: { screenId: string; actionId: string }): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const uploaded = useSelector((state: OperationsRootState) => uploadedShare(actionOperation(screenId, actionId))(state)) ?? 0;
  const percent = Math.floor(uploaded * 100);
  return (
    <div className="upload__progress">
      <progress max={100} value={percent} aria-hidden="true" />
      <span role="status">{uploaded < 1 ? t('common.upload.sending', { percent }) : t('common.upload.checking')}</span>
      <button type="button" className={linkClassName('link')} onClick={() => dispatch(actionCancelled({ screenId, actionId }))}>
        {t('common.upload.cancel')}
      </button>
    </div>
  );
}

/** Items each linking to a screen: a title line of cells (text and marks), then a line per cell. */
function ItemListView({ block, screen, context }: BlockProps<ItemListBlock>): ReactElement {
  const { t } = useTranslation();
  const items = resolveValue(block.items, context);
  const list = Array.isArray(items) ? items : [];
  if (list.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  return (
    <ul className="item-list" aria-label={t(block.caption)}>
      {list.map((item, index) => {
        const itemContext: ScreenContext = { ...context, item };
        return (
          <li key={index} className="item-list__item">
            <Link className="item-list__link" to={screenPath(block.link, itemContext)}>
              <span className="item-list__title">
                {block.title.map((cell, cellIndex) => (
                  <CellView key={cellIndex} cell={cell} screen={screen} context={itemContext} />
                ))}
              </span>
              {block.cells
                .filter((cell) => matches(cell.when, itemContext))
                .map((cell, cellIndex) => (
                  <span key={cellIndex} className="item-list__line">
                    <CellView cell={cell} screen={screen} context={itemContext} />
                  </span>
                ))}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** A query parameter as a field's value: a new value replaces it in the URL (the screen is entered again). */
function useQueryParameter(name: string, context: ScreenContext): [string, (value: string) => void] {
  const [searchParams, setSearchParams] = useSearchParams();
  const set = (value: string) => {
    const next = new URLSearchParams(searchParams);
    next.set(name, value);
    setSearchParams(next, { replace: true });
  };
  return [context.query[name] ?? '', set];
}

/** A labelled field of the query's filters. */
function QueryField({ id, label, children }: { id: string; label: string; children: ReactNode }): ReactElement {
  return (
    <div className="select-field">
      <label className="select-field__label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** A dropdown bound to a query parameter. */
function SelectView({ block, screen, context }: BlockProps<SelectBlock>): ReactElement {
  const { t } = useTranslation();
  const [current, setCurrent] = useQueryParameter(block.query, context);
  const id = `select-${screen.id}-${block.query}`;
  const items = block.optionsFrom ? resolveValue(block.optionsFrom.items, context) : undefined;
  const fromData = (Array.isArray(items) ? items : []).map((item) => {
    const itemContext = { ...context, item };
    const { value, label, values } = block.optionsFrom!;
    return { value: String(resolveValue(value, itemContext) ?? ''), text: t(label, resolveValues(values, itemContext)) };
  });
  return (
    <QueryField id={id} label={t(block.label)}>
      <select id={id} className="select-field__select" value={current} onChange={(event) => setCurrent(event.target.value)}>
        {block.options.map((option) => (
          <option key={option.value} value={option.value}>
            {t(option.label)}
          </option>
        ))}
        {fromData.map((option) => (
          <option key={`data-${option.value}`} value={option.value}>
            {option.text}
          </option>
        ))}
      </select>
    </QueryField>
  );
}

/** While a year is typed digit by digit the field holds years like 0002: only a cleared field or a four-digit year counts. */
const FULL_YEAR = /^[1-9]\d{3}-/;

/** A date field bound to a query parameter. */
function DateView({ block, screen, context }: BlockProps<DateBlock>): ReactElement {
  const { t } = useTranslation();
  const [current, setCurrent] = useQueryParameter(block.query, context);
  // what the field shows while a date is typed, until it is one to put in the URL
  const [draft, setDraft] = useState(current);
  useEffect(() => setDraft(current), [current]);
  const id = `date-${screen.id}-${block.query}`;
  return (
    <QueryField id={id} label={t(block.label)}>
      <input
        id={id}
        type="date"
        className="select-field__select"
        value={draft}
        onChange={(event) => {
          const { value } = event.target;
          setDraft(value);
          if (value === '' || FULL_YEAR.test(value)) setCurrent(value);
        }}
      />
    </QueryField>
  );
}

/** The blocks of a fragment, with its inputs as `$values` (resolved in the using context). */
function FragmentView({ block, screen, context }: BlockProps<FragmentBlock>): ReactElement {
  const values = Object.fromEntries(Object.entries(block.values ?? {}).map(([name, ref]) => [name, typeof ref === 'string' ? resolveValue(ref, context) : ref]));
  return <Blocks blocks={fragmentByName(block.name).blocks} screen={screen} context={{ ...context, values }} />;
}

function DividerView({ block }: BlockProps<DividerBlock>): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="divider" role="separator" aria-label={t(block.label)}>
      <span className="divider__label">{t(block.label)}</span>
    </div>
  );
}

function BlockView({ block, screen, context }: BlockProps<Block>): ReactNode {
  switch (block.type) {
    case 'itemList':
      return <ItemListView block={block} screen={screen} context={context} />;
    case 'select':
      return <SelectView block={block} screen={screen} context={context} />;
    case 'date':
      return <DateView block={block} screen={screen} context={context} />;
    case 'fragment':
      return <FragmentView block={block} screen={screen} context={context} />;
    case 'upload':
      return <UploadView block={block} screen={screen} context={context} />;
    case 'divider':
      return <DividerView block={block} screen={screen} context={context} />;
    case 'text':
      return <TextView block={block} screen={screen} context={context} />;
    case 'banner':
      return <BannerView block={block} screen={screen} context={context} />;
    case 'links':
      return <LinksView block={block} screen={screen} context={context} />;
    case 'details':
      return <DetailsView block={block} screen={screen} context={context} />;
    case 'cards':
      return <CardsView block={block} screen={screen} context={context} />;
    case 'table':
      return <TableView block={block} screen={screen} context={context} />;
    case 'list':
      return <ListView block={block} screen={screen} context={context} />;
    case 'form':
      // its own boundary: while the form engine arrives, the rest of the page stays (a row's inline form, a list's rows)
      return (
        <Suspense fallback={<Loader />}>
          <FormScreen screen={screen} context={context} renderBlocks={(blocks, shown) => <Blocks blocks={blocks} screen={screen} context={shown} />} />
        </Suspense>
      );
    case 'panel':
      return <PanelView block={block} screen={screen} context={context} />;
    case 'image':
      return <ImageView block={block} screen={screen} context={context} />;
    case 'columns':
      return <ColumnsView block={block} screen={screen} context={context} />;
    case 'linkList':
      return <LinkListView block={block} screen={screen} context={context} />;
  }
}

export function Blocks({ blocks, screen, context }: { blocks: Block[]; screen: ScreenDefinition; context: ScreenContext }): ReactElement {
  return (
    <>
      {blocks
        .filter((block) => matches(block.when, context))
        .map((block, index) => (
          <BlockView key={index} block={block} screen={screen} context={context} />
        ))}
    </>
  );
}
