import { lazy, type ReactElement } from 'react';
import type { FormBlock } from '../../../../common/screens.js';
import { importFormScreen } from '../../forms/formScreenChunk.js';
import { FormFrame, FormPlaceholder, placeholderRows } from '../../forms/FormFrame.js';
import { Reveal, revealing } from '../../Reveal.js';
import type { BlockProps } from './shared.js';

const FormScreen = lazy(() => revealing(importFormScreen()).then((module) => ({ default: module.FormScreen })));

/**
 * The screen's form, from the form engine's chunk, below its steps; its confirm and done blocks are shown by
 * `renderBlocks`. `waiting`: the screen's first answers are not in yet (its steps and the form's place show).
 */
export function FormView({ screen, context, renderBlocks, waiting = false }: BlockProps<FormBlock> & { waiting?: boolean }): ReactElement {
  // the form its own boundary: while the form engine arrives, the rest of the page stays (a row's inline form, a list's
  // rows) and the form's steps and place show (issue 47)
  return (
    <FormFrame screen={screen}>
      {waiting ? undefined : (
        <Reveal fallback={<FormPlaceholder rows={placeholderRows(screen)} />}>
          <FormScreen screen={screen} context={context} renderBlocks={renderBlocks} />
        </Reveal>
      )}
    </FormFrame>
  );
}
