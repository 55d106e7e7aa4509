import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';

/** Shown while a call is in progress (SPEC 2.2). */
export function Loader(): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="loader" role="status" aria-live="polite">
      <span className="loader__spinner" aria-hidden="true" />
      {t('common.loading')}
    </div>
  );
}
