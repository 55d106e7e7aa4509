import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { CardsBlock } from '../../../../common/screens.js';
import { screenPath } from '../navigation.js';
import { resolveValue } from '../values.js';
import type { BlockProps } from './shared.js';

export function CardsView({ block, context }: BlockProps<CardsBlock>): ReactElement {
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
