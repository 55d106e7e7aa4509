import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ItemListBlock } from '../../../../common/screens.js';
import { matches } from '../conditions.js';
import { screenPath } from '../navigation.js';
import { resolveValue, type ScreenContext } from '../values.js';
import { CellView, CellWords } from './CellView.js';
import type { BlockProps } from './shared.js';

/** Items each linking to a screen: a title line of cells (text and marks), then a line per cell. */
export function ItemListView({ block, screen, context }: BlockProps<ItemListBlock>): ReactElement {
  const { t } = useTranslation();
  const items = resolveValue(block.items, context);
  const list = Array.isArray(items) ? items : [];
  if (list.length === 0 && block.empty) return <p className="text">{t(block.empty)}</p>;
  return (
    <ul className="item-list" aria-label={t(block.caption)}>
      <CellWords value={t}>
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
      </CellWords>
    </ul>
  );
}
