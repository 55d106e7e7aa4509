import type { CSSProperties, ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageBlock } from '../../../../common/screens.js';
import { resolveValue } from '../values.js';
import type { BlockProps } from './shared.js';

export function ImageView({ block, context }: BlockProps<ImageBlock>): ReactElement | null {
  const { t } = useTranslation();
  const src = resolveValue(block.src, context);
  if (typeof src !== 'string' || src === '') return null;
  // the stylesheet stretches an image to its column; a column as wide as its content gives it its own width (styles.css)
  const ownWidth = block.width === undefined ? undefined : ({ '--image-width': `${block.width}px` } as CSSProperties);
  return <img className="image" src={src} alt={block.alt ? t(block.alt) : ''} width={block.width} height={block.height} style={ownWidth} />;
}
