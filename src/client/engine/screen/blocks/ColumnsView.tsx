import type { ReactElement } from 'react';
import type { ColumnsBlock } from '../../../../common/screens.js';
import type { BlockProps } from './shared.js';

export function ColumnsView({ block, context, renderBlocks }: BlockProps<ColumnsBlock>): ReactElement {
  return (
    <div className="columns">
      {block.columns.map((column, index) => (
        <div key={index} className={`columns__column columns__column--${column.width ?? 'main'}`}>
          {renderBlocks(column.blocks, context)}
        </div>
      ))}
    </div>
  );
}
