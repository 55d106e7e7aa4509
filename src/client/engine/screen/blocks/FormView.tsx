import { lazy, Suspense, type ReactElement } from 'react';
import type { FormBlock } from '../../../../common/screens.js';
import { importFormScreen } from '../../forms/formScreenChunk.js';
import { Loader } from '../../Loader.js';
import type { BlockProps } from './shared.js';

const FormScreen = lazy(() => importFormScreen().then((module) => ({ default: module.FormScreen })));

/** The screen's form, from the form engine's chunk; its confirm and done blocks are shown by `renderBlocks`. */
export function FormView({ screen, context, renderBlocks }: BlockProps<FormBlock>): ReactElement {
  // its own boundary: while the form engine arrives, the rest of the page stays (a row's inline form, a list's rows)
  return (
    <Suspense fallback={<Loader />}>
      <FormScreen screen={screen} context={context} renderBlocks={renderBlocks} />
    </Suspense>
  );
}
