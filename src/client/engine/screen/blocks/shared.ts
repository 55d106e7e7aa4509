/**
 * What the block views share: their props and the dispatch of a screen's action. The views of blocks that show other
 * blocks (panel, columns, a table's expansion, fragment, form) get the block renderer as `renderBlocks`: importing the
 * registry (index.tsx), which imports them, would make an import cycle.
 */
import type { ReactElement } from 'react';
import { useDispatch } from 'react-redux';
import type { Block, ScreenDefinition } from '../../../../common/screens.js';
import { actionRequested } from '../dialogState.js';
import type { ScreenContext } from '../values.js';

/** Shows blocks of the same screen in a context (the registry's `Blocks`). */
export type RenderBlocks = (blocks: Block[], context: ScreenContext) => ReactElement;

export interface BlockProps<B> {
  block: B;
  screen: ScreenDefinition;
  context: ScreenContext;
  renderBlocks: RenderBlocks;
}

export function useRunAction(screen: ScreenDefinition) {
  const dispatch = useDispatch();
  return (actionId: string, context: ScreenContext) => dispatch(actionRequested({ screenId: screen.id, actionId, context }));
}
