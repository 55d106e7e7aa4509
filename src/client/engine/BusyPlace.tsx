import type { CSSProperties, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * In the place of what is on its way (a form's engine, a virtual table's chunk): sized by its class and style, busy,
 * and named by the loading words for a screen reader. It keeps the loader's class (Loader.tsx): what waits for a shown
 * screen waits for it too. A module of its own, outside the first load, which has the Loader.
 */
export function BusyPlace({ className, style }: { className: string; style: CSSProperties }): ReactElement {
  const { t } = useTranslation();
  return (
    <div className={`loader ${className}`} role="status" aria-busy="true" style={style}>
      <span className="visually-hidden">{t('common.loading')}</span>
    </div>
  );
}
