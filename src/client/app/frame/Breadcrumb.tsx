import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { BreadcrumbItem } from '../../../common/screens.js';

/** Every page's breadcrumb starts with Home, linking to '/' (SPEC 2.2). */
export function Breadcrumb({ items, label }: { items: BreadcrumbItem[]; label?: (label: string) => string }): ReactElement {
  const { t } = useTranslation();
  const text = label ?? t;
  const all: BreadcrumbItem[] = [{ label: 'common.home', to: '/' }, ...items];
  return (
    <nav className="breadcrumb" aria-label={t('common.breadcrumb')}>
      <ol>
        {all.map((item, index) => {
          const last = index === all.length - 1;
          return (
            <li key={`${item.label}-${index}`}>
              {item.to && !last ? <Link to={item.to}>{text(item.label)}</Link> : <span aria-current={last ? 'page' : undefined}>{text(item.label)}</span>}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
