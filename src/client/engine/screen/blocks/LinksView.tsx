import type { ReactElement } from 'react';
import type { LinksBlock } from '../../../../common/screens.js';
import { LinkItemView } from './LinkItemView.js';
import type { BlockProps } from './shared.js';

export function LinksView({ block, screen, context }: BlockProps<LinksBlock>): ReactElement {
  return (
    <div className="links">
      {block.items.map((item, index) => (
        <LinkItemView key={index} item={item} screen={screen} context={context} />
      ))}
    </div>
  );
}
