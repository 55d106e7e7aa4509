import type { ReactElement } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { TextBlock } from '../../../../common/screens.js';
import { formatted } from '../formats.js';
import { hrefOf } from '../LinkView.js';
import { resolveValues } from '../values.js';
import type { BlockProps } from './shared.js';

export function TextView({ block, context }: BlockProps<TextBlock>): ReactElement {
  const { t } = useTranslation();
  const links = (block.links ?? []).map((link, index) => (
    <a key={index} href={hrefOf(link.href, context, t)} {...(link.external ? { target: '_blank', rel: 'noreferrer' } : {})} />
  ));
  const className = block.style ? `text text--${block.style}` : 'text';
  const content = <Trans i18nKey={block.text} values={formatted(resolveValues(block.values, context), block.formats, context.language)} components={links} />;
  if (block.style === 'heading') return <h2 className={className}>{content}</h2>;
  if (block.style === 'subheading') return <h3 className={className}>{content}</h3>;
  return (
    <p className={className} role={block.style === 'warning' ? 'alert' : undefined}>
      {content}
    </p>
  );
}
