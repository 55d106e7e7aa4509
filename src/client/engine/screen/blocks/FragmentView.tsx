import type { ReactElement } from 'react';
import type { FragmentBlock } from '../../../../common/screens.js';
import { fragmentByName } from '../fragments.js';
import { resolveValue } from '../values.js';
import type { BlockProps } from './shared.js';

/** The blocks of a fragment, with its inputs as `$values` (resolved in the using context). */
export function FragmentView({ block, context, renderBlocks }: BlockProps<FragmentBlock>): ReactElement {
  const values = Object.fromEntries(Object.entries(block.values ?? {}).map(([name, ref]) => [name, typeof ref === 'string' ? resolveValue(ref, context) : ref]));
  return renderBlocks(fragmentByName(block.name).blocks, { ...context, values });
}
