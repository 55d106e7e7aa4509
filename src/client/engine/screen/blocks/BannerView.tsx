import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { BannerBlock } from '../../../../common/screens.js';
import { resolveValues } from '../values.js';
import type { BlockProps } from './shared.js';

export function BannerView({ block, context }: BlockProps<BannerBlock>): ReactElement | null {
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
