/** The block tests' render: a screen's blocks against a context, in the given i18next instance's language. */
import { act, render } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import type { ScreenDefinition } from '../../../../../src/common/screens.js';
import { Blocks } from '../../../../../src/client/engine/screen/blocks/index.js';
import type { ScreenContext } from '../../../../../src/client/engine/screen/values.js';

/** The context a block reads: signed in as a manager of no particular organisation, with `data` and `language`. */
export const blockContext = (data: Record<string, unknown>, language: string): ScreenContext => ({ params: {}, query: {}, state: {}, data, role: 'manager', flags: {}, me: null, organization: null, language });

export async function renderBlocks(screen: ScreenDefinition, context: ScreenContext, instance: i18n): Promise<ReturnType<typeof render>> {
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(
      <I18nextProvider i18n={instance}>
        <Blocks blocks={screen.blocks!} screen={screen} context={context} />
      </I18nextProvider>,
    );
  });
  return view;
}
