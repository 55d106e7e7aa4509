/**
 * Browser entry: choose the language, load its words, restore the encrypted login, build router and store, render.
 * The login is restored before the first render, so guarded pages see the session at once.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import routes from '../../../build/generated/routes.json';
import type { ScreenDefinition } from '../../common/screens.js';
import { chooseLanguage, initI18n, LANGUAGE_STORAGE_KEY } from '../engine/i18n.js';
import { browserAuthContext, initialAuthState, restoreLogin } from '../features/auth/index.js';
import { createRouter } from './router.js';
import { createAppStore } from './store.js';
import './styles.css';

async function start(): Promise<void> {
  const authContext = browserAuthContext();
  const [, restored] = await Promise.all([
    initI18n(chooseLanguage(window.location.search, window.localStorage.getItem(LANGUAGE_STORAGE_KEY))),
    restoreLogin(authContext.loginStore),
  ]);
  const router = createRouter(routes as ScreenDefinition[]);
  const store = createAppStore(
    { navigate: (to, options) => void router.navigate(to, options), ...authContext },
    restored ? { session: restored.session, auth: { ...initialAuthState, idToken: restored.idToken } } : undefined,
  );
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

void start();
