/**
 * Browser entry: choose the language and load its words, build the router and (a login is stored) ask for the route's
 * chunks, meanwhile restore the encrypted login, build the store and announce the routes to the preload; render once
 * the words are there.
 * The login is restored before the first render, so guarded pages see the session at once.
 */
import { startTransition, StrictMode } from 'react';
import i18next from 'i18next';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import routes from '../../../build/generated/routes.json';
import type { ScreenDefinition } from '../../common/screens.js';
import { LANGUAGE_STORAGE_KEY } from '../../common/languages.js';
import { chooseLanguage, initI18n } from '../engine/i18n.js';
import { browserAuthContext, initialAuthState, LOGIN_STORAGE_KEY, restoreLogin } from '../features/auth/index.js';
import { holdFormEngine } from '../engine/forms/formEngineGate.js';
import { nextTask } from '../engine/paint.js';
import { announceRoutes, preloadRouteCode } from '../engine/screen/preload.js';
import { createRouter } from './router.js';
import { createAppStore } from './store.js';
// Every stylesheet is in the first load's one file, the lazily loaded widgets' and the gallery's too: no chunk then
// carries CSS, and the script has no CSS-loading runtime (about 1 KB gzip of the first load's budget).
import './styles.css';
import 'altcha/altcha.css';
import '../widgets/captcha/captcha.css';
import '../screens/ScreenGallery.css';

async function start(): Promise<void> {
  // the form engine's chunks leave once the frame has painted (app/firstPaint.ts)
  holdFormEngine();
  const authContext = browserAuthContext();
  const language = chooseLanguage(window.location.search, window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
  // the words arrive while the login is restored, the store starts and the route's preload asks for its data
  const words = initI18n(language);
  const restoring = restoreLogin(authContext.loginStore);
  // the router in a task of its own, not at the end of the first load's evaluation: shorter tasks (issue 26)
  await nextTask();
  const router = createRouter(routes as ScreenDefinition[]);
  if (localStorage.getItem(LOGIN_STORAGE_KEY)) preloadRouteCode(router.state, language);
  const restored = await restoring;
  const store = createAppStore(
    { navigate: (to, options) => void router.navigate(to, options), ...authContext },
    restored ? { session: restored.session, auth: { ...initialAuthState, idToken: restored.idToken } } : undefined,
  );
  // the sagas' start and the route's preload in tasks of their own: together 50–100 ms at 4× CPU (issue 47)
  await nextTask();
  // each screen's chunks and data are asked for as its route is matched, not after its code has arrived
  announceRoutes(router, store.dispatch, () => i18next.language || language);
  await words;
  const root = createRoot(document.getElementById('root')!);
  // a transition: React renders the first page in slices, not in one task that holds the page (issue 26)
  startTransition(() =>
    root.render(
      <StrictMode>
        <Provider store={store}>
          <RouterProvider router={router} />
        </Provider>
      </StrictMode>,
    ),
  );
}

void start();
