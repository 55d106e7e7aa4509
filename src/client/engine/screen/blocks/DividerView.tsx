import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { DividerBlock } from '../../../../common/screens.js';
import type { BlockProps } from './shared.js';

export function DividerView({ block }: BlockProps<DividerBlock>): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="divider" role="separator" aria-label={t(block.label)}>
      <span className="divider__label">{t(block.label)}</span>
    </div>
  );
}
