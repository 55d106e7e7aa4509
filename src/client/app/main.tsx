/** Browser entry: choose the language, load its words, build router and store, render. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import screens from '../../../build/generated/screens.json';
import type { ScreenDefinition } from '../../common/screens.js';
import { chooseLanguage, initI18n, LANGUAGE_STORAGE_KEY } from '../engine/i18n.js';
import { createRouter } from './router.js';
import { createAppStore } from './store.js';
import './styles.css';

async function start(): Promise<void> {
  await initI18n(chooseLanguage(window.location.search, window.localStorage.getItem(LANGUAGE_STORAGE_KEY)));
  const router = createRouter(screens as ScreenDefinition[]);
  const store = createAppStore({ navigate: (to, options) => void router.navigate(to, options) });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

void start();
