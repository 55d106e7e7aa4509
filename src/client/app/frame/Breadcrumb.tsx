import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { BreadcrumbItem, ScreenLink } from '../../../common/screens.js';

/** Every page's breadcrumb starts with Home, linking to '/' (SPEC 2.2). */
export function Breadcrumb({
  items,
  label,
  linkPath,
}: {
  items: BreadcrumbItem[];
  label?: (label: string) => string;
  /** The path of an item's link to a screen (none: no link). */
  linkPath?: (link: ScreenLink) => string | undefined;
}): ReactElement {
  const { t } = useTranslation();
  const text = label ?? t;
  const all: BreadcrumbItem[] = [{ label: 'common.home', to: '/' }, ...items];
  return (
    <nav className="breadcrumb" aria-label={t('common.breadcrumb')}>
      <ol>
        {all.map((item, index) => {
          const last = index === all.length - 1;
          const to = item.to ?? (item.screen && linkPath ? linkPath(item.screen) : undefined);
          return (
            <li key={`${item.label}-${index}`}>
              {to && !last ? <Link to={to}>{text(item.label)}</Link> : <span aria-current={last ? 'page' : undefined}>{text(item.label)}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
