/**
 * Renders a screen of screens/ through the engine as the app does: the real definition, the engine's reducers and
 * sagas on a real store, the real English words, a route at the screen's path. Only fetch and navigate are fakes.
 */
import 'global-jsdom/register';
import { act, render } from '@testing-library/react';
import routes from '../../../../build/generated/routes.json';
import type { ScreenDefinition } from '../../../../src/common/screens.js';
import sinon from 'sinon';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { UnknownAction } from 'redux';
import { formsReducer } from '../../../../src/client/engine/forms/formState.js';
import { formsSaga } from '../../../../src/client/engine/forms/formSaga.js';
import { featureFlagLoaded, featureFlagsReducers } from '../../../../src/client/engine/featureFlags.js';
import { portalSettingsReducers } from '../../../../src/client/engine/portalSettings.js';
import { dialogReducer } from '../../../../src/client/engine/screen/dialogState.js';
import { screenActionsSaga } from '../../../../src/client/engine/screen/actions.js';
import { announceRoutes, preloadSaga } from '../../../../src/client/engine/screen/preload.js';
import { screenReady } from '../../../../src/client/engine/screen/screenModule.js';
import { screenDataReducer } from '../../../../src/client/engine/screen/screenDataState.js';
import { screenDataSaga } from '../../../../src/client/engine/screen/screenData.js';
import { ScreenView } from '../../../../src/client/engine/screen/ScreenView.js';
import { organizationSelected, sessionFromTokenResponse, sessionStored, type Me, type Role } from '../../../../src/client/state/session.js';
import { setup, type Route as FetchRoute } from '../../api/harness.js';
import { englishI18n } from '../../support/i18n.js';

let i18nInstance: i18n | undefined;

export interface ScreenOptions {
  /** The URL (a path, with a query or not); default the screen's path. */
  url?: string;
  /** Navigation state. */
  state?: unknown;
  /** Signed in with this role and admin (organisation 1, G0000001). */
  signedIn?: { role: Role; me: Me };
  routes?: Record<string, FetchRoute>;
  flags?: Record<string, boolean>;
  /** The page's language; default English. */
  language?: 'en' | 'ja';
  /** The sagas' navigations move the rendered router too (a wizard's steps), besides being recorded. */
  followNavigation?: boolean;
  /** The route's preload runs as in the app (engine/screen/preload.ts): the route table's entry announced first. */
  preload?: boolean;
}

export const MANAGER: ScreenOptions['signedIn'] = { role: 'manager', me: { id: 1, firstName: '太郎', lastName: '山田', email: 'manager@example.com' } };
export const MEMBER: ScreenOptions['signedIn'] = { role: 'member', me: { id: 2, firstName: '花子', lastName: '佐藤', email: 'member@example.com' } };

export async function renderScreen(screenId: string, options: ScreenOptions = {}) {
  const instance = (i18nInstance ??= await englishI18n());
  if (i18nInstance.language !== (options.language ?? 'en')) await i18nInstance.changeLanguage(options.language ?? 'en');
  // the screen's chunk (full definition, conditions, words) loaded first, as a link's prefetch does in the app
  const screen = await screenReady(i18nInstance, screenId);
  // the router is made after the store (its element needs none), the sagas' navigate reaches it through this
  const routerRef: { current?: ReturnType<typeof createMemoryRouter> } = {};
  const recorded = sinon.spy();
  const harness = setup({
    routes: options.routes,
    ...(options.followNavigation
      ? {
          context: {
            navigate: (to: string, navigateOptions?: { replace?: boolean; state?: unknown }) => {
              recorded(to, navigateOptions);
              void routerRef.current?.navigate(to, navigateOptions);
            },
          },
        }
      : {}),
    reducers: {
      forms: formsReducer,
      screenData: screenDataReducer,
      dialog: dialogReducer,
      ...(featureFlagsReducers as Record<string, (state: unknown, action: UnknownAction) => unknown>),
      ...(portalSettingsReducers as Record<string, (state: unknown, action: UnknownAction) => unknown>),
    },
  });
  harness.run(screenDataSaga);
  harness.run(screenActionsSaga);
  harness.run(formsSaga);
  if (options.signedIn) {
    harness.store.dispatch(sessionStored(sessionFromTokenResponse({ accessToken: 'token', refreshToken: 'r', createdAt: 1, expiresIn: 900, refreshTokenExpiresIn: 900 })));
    harness.store.dispatch(organizationSelected({ organization: { id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' }, me: options.signedIn.me, role: options.signedIn.role }));
  }
  for (const [name, enabled] of Object.entries(options.flags ?? {})) harness.store.dispatch(featureFlagLoaded({ name: name as never, enabled }));
  // the URL's query, when it has one, as the location's search
  const url = new URL(options.url ?? screen.path, 'http://localhost');
  const handle = { screen: (routes as ScreenDefinition[]).find((entry) => entry.id === screenId) };
  const router = createMemoryRouter([{ path: screen.path, handle, element: <ScreenView screen={screen} /> }], { initialEntries: [{ pathname: url.pathname, search: url.search, state: options.state }] });
  routerRef.current = router;
  if (options.preload) {
    harness.run(preloadSaga);
    announceRoutes(router, harness.store.dispatch, () => instance.language);
  }
  // rendered in an awaited act: a lazily loaded part (the form engine) that suspends on the first render is then
  // rendered when it arrives (a suspension inside an act that is not awaited waits for a next act that may not come)
  let view!: ReturnType<typeof render>;
  await act(async () => {
    view = render(
      <Provider store={harness.store}>
        <I18nextProvider i18n={instance}>
          <RouterProvider router={router} />
        </I18nextProvider>
      </Provider>,
    );
  });
  return { view, router, ...harness, ...(options.followNavigation ? { navigate: recorded } : {}) };
}
