import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelBlock } from '../../../../common/screens.js';
import type { BlockProps } from './shared.js';

export function PanelView({ block, context, renderBlocks }: BlockProps<PanelBlock>): ReactElement {
  const { t } = useTranslation();
  return (
    <section className={`panel panel--${block.style ?? 'info'}`} aria-label={block.title ? t(block.title) : undefined}>
      {block.title && <h2 className="panel__title">{t(block.title)}</h2>}
      {renderBlocks(block.blocks, context)}
    </section>
  );
}
