/**
 * A screen's chunk (build/generated/screens/<lang>/<id>.cjs, one per screen and language): its full definition, the
 * fragments it shows, their precompiled conditions and the words only it names. The first load has only each
 * screen's route entry (routes.json); a screen waits for its chunk and the engine's words before it renders, so no
 * condition is missing and no word shows as its key. The route's preload (preload.ts) starts both the moment the
 * route is matched; a link prefetches the screen it leads to when the admin is about to follow it.
 */
import type { i18n } from 'i18next';
import { DEFAULT_LANGUAGE } from '../../../common/languages.js';
import { onceByKey } from '../../../common/onceByKey.js';
import type { FragmentDefinition, ScreenDefinition } from '../../../common/screens.js';
import { importEngineWords, importScreenChunk } from '../dataChunks.js';
import { addConditions, type ConditionsModule } from './conditions.js';
import { registerFragment } from './fragments.js';
import { revealing } from '../Reveal.js';
import { isGeneratedScreen, registerScreen, screenById } from './navigation.js';

type ScreenModule = ConditionsModule & { definition: ScreenDefinition; fragments: Record<string, FragmentDefinition>; words: object };
type Words = { default?: object };

/** Promises by key that settle once: a failure (the network) is dropped, so the next time asks again. */
function cached<T>(byKey: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  return onceByKey(byKey, key, () => {
    const loading = load();
    // React's `use` reads a settled promise marked this way at once: a loaded (prefetched) screen never suspends
    loading.then((result) => Object.assign(loading, { status: 'fulfilled', value: result }), () => undefined);
    return loading;
  });
}

const chunks = new Map<string, Promise<ScreenModule>>();
const engineChunks = new Map<string, Promise<Words>>();
const registered = new Map<string, Promise<ScreenDefinition>>();
const ready = new Map<string, Promise<ScreenDefinition>>();

/** The screen's chunk in a language, fetched once (the route's preload and the first render ask for the same). */
export function screenChunk(id: string, language: string): Promise<ScreenModule> {
  // a CommonJS module: its exports are the default export (webpack and Node alike)
  return cached(chunks, `${language}/${id}`, () => importScreenChunk(id, language).then((imported) => (imported.default ?? imported) as ScreenModule));
}

/** The words of the lazily loaded code (form engine, widgets) in a language, fetched once. */
export function engineWords(language: string): Promise<Words> {
  return cached(engineChunks, language, () => importEngineWords(language));
}

/** The screen's full definition, its fragments and conditions registered; a screen the build does not know as it is. */
export function loadScreen(id: string, language: string = DEFAULT_LANGUAGE): Promise<ScreenDefinition> {
  if (!isGeneratedScreen(id)) return Promise.resolve(screenById(id));
  return cached(registered, id, () =>
    screenChunk(id, language).then((module) => {
      addConditions(module);
      for (const [name, fragment] of Object.entries(module.fragments)) registerFragment(name, fragment);
      registerScreen(module.definition);
      return module.definition;
    }),
  );
}

const addWords = (instance: i18n, language: string, words: Words) => instance.addResourceBundle(language, 'translation', words.default ?? words, true, false);

/** The same promise for the same screen and language (React's `use` waits on it): definition and words loaded. */
export function screenReady(instance: i18n, id: string): Promise<ScreenDefinition> {
  const language = instance.language;
  // its arrival shows the screen's boundary at once (Reveal.tsx)
  return cached(ready, `${language}/${id}`, () =>
    revealing(
      Promise.all([loadScreen(id, language), engineWords(language), isGeneratedScreen(id) ? screenChunk(id, language) : undefined]).then(([definition, engine, module]) => {
        addWords(instance, language, engine);
        if (module) addWords(instance, language, module.words);
        return definition;
      }),
    ),
  );
}

/**
 * Loads a screen's chunk and words as the admin shows the intent to follow a link to it (pointer over it, focus,
 * touch): following it then waits for little, and a page's first visit asks only for what it shows.
 */
export function prefetchScreen(instance: i18n, id: string): void {
  screenReady(instance, id).catch(() => undefined);
}
