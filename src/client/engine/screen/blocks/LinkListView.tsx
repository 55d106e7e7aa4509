import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { LinkListBlock } from '../../../../common/screens.js';
import { isAbsoluteUrl } from '../../../../common/serviceLinks.js';
import { matches } from '../conditions.js';
import { resolveValue, resolveValues } from '../values.js';
import type { BlockProps } from './shared.js';

/** Relative URLs and http(s) ones only: a link of the data never runs script (javascript:, data:). */
function isSafeHref(href: string): boolean {
  return href !== '' && (!isAbsoluteUrl(href) || /^(https?:)?\/\//i.test(href));
}

/** A button per chosen element of a list of links: absolute URLs in a new tab, relative ones inside the product. */
export function LinkListView({ block, context }: BlockProps<LinkListBlock>): ReactElement | null {
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
