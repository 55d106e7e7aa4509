/**
 * The blocks of a screen definition (text, banner, links, details, cards, table, form, panel), each shown only when
 * its condition holds for the screen context. Components dispatch; actions run in sagas (actions.ts).
 */
import { lazy, useState, type ReactElement, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router-dom';
import type { BannerBlock, Block, CardsBlock, Cell, DetailsBlock, LinkItem, LinksBlock, PanelBlock, ScreenDefinition, TableBlock, TextBlock } from '../../../common/screens.js';
import { DEFAULT_LANGUAGE, isLanguage } from '../../../common/languages.js';
import { isPending, type OperationsRootState } from '../../state/operations.js';
import { formatDate } from '../dates.js';
import { actionOperation, actionRequested } from './actions.js';
import { matches } from './conditions.js';
import { linkClassName, LinkView, useHref } from './LinkView.js';
import { screenPath } from './navigation.js';
import { resolveValue, resolveValues, type ScreenContext } from './values.js';

const FormScreen = lazy(() => import(/* webpackChunkName: "form-screen" */ '../forms/FormScreen.js').then((module) => ({ default: module.FormScreen })));

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
  const content = <Trans i18nKey={block.text} values={resolveValues(block.values, context)} components={links} />;
  if (block.style === 'heading') return <h2 className={className}>{content}</h2>;
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
  return (
    <button type="button" className={linkClassName(item.style)} aria-label={item.ariaLabel ? t(item.ariaLabel) : undefined} disabled={pending} onClick={() => run(item.action!, context)}>
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
  return (
    <dl className="details">
      {block.rows
        .filter((row) => matches(row.when, context))
        .map((row) => (
          <div key={row.label} className="details__row">
            <dt>{t(row.label)}</dt>
            <dd>
              <span className="details__value">{row.text ? t(row.text, resolveValues(row.values, context)) : String(resolveValue(row.value, context) ?? '')}</span>
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

/** The values a cell names in `formats`, as dates in the page's language. */
function formatted(values: Record<string, unknown>, formats: Cell['formats'], language: string): Record<string, unknown> {
  if (!formats) return values;
  const lang = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, formats[name] === 'date' && typeof value === 'string' ? formatDate(value, lang) : value]));
}

function CellView({ cell, screen, context }: { cell: Cell; screen: ScreenDefinition; context: ScreenContext }): ReactElement | null {
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
        <a href={href(cell.href ?? '', context)} {...(cell.external ? { target: '_blank', rel: 'noreferrer' } : {})}>
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
          className={`button button--small${cell.style === 'danger' ? ' button--danger' : ''}`}
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

function TableView({ block, screen, context }: BlockProps<TableBlock>): ReactElement {
  const { t } = useTranslation();
  const rows = (resolveValue(block.rows, context) as unknown[] | undefined) ?? [];
  if (rows.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  return (
    <table className="table">
      <caption className="table__caption">{t(block.caption)}</caption>
      <thead>
        <tr>
          {block.columns.map((column) => (
            <th key={column.title} scope="col">
              {t(column.title)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((item, index) => {
          const rowContext = { ...context, item };
          return (
            <tr key={index}>
              {block.columns.map((column) => (
                <td key={column.title}>
                  <div className="table__cell">
                    {column.cells.map((cell, cellIndex) => (
                      <CellView key={cellIndex} cell={cell} screen={screen} context={rowContext} />
                    ))}
                  </div>
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
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

function BlockView({ block, screen, context }: BlockProps<Block>): ReactNode {
  switch (block.type) {
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
    case 'form':
      return <FormScreen screen={screen} context={context} />;
    case 'panel':
      return <PanelView block={block} screen={screen} context={context} />;
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
