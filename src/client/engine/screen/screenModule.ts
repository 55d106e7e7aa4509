/**
 * A screen's chunk (build/generated/screens/<id>.cjs, one per screen): its full definition, the fragments it shows,
 * their precompiled conditions, and its words in the page's language (words/<lang>/<id>.json). The first load has
 * only each screen's route entry (routes.json); a screen waits for its chunk before it renders, so no condition is
 * missing and no word shows as its key. Links prefetch the chunk of the screen they lead to when the browser idles.
 */
import type { i18n } from 'i18next';
import type { FragmentDefinition, ScreenDefinition } from '../../../common/screens.js';
import { addConditions, type ConditionsModule } from './conditions.js';
import { registerFragment } from './fragments.js';
import { isGeneratedScreen, registerScreen, screenById } from './navigation.js';

type ScreenModule = ConditionsModule & { definition: ScreenDefinition; fragments: Record<string, FragmentDefinition> };

const definitions = new Map<string, Promise<ScreenDefinition>>();
// by language and screen: the page has one i18next instance (the gallery's own hold every word already)
const words = new Map<string, Promise<void>>();
const ready = new Map<string, Promise<ScreenDefinition>>();

/** The screen's full definition, its fragments and conditions registered; a screen the build does not know as it is. */
export function loadScreen(id: string): Promise<ScreenDefinition> {
  let definition = definitions.get(id);
  if (!definition) {
    definition = isGeneratedScreen(id)
      ? import(/* webpackChunkName: "screen-[request]" */ `../../../../build/generated/screens/${id}.cjs`).then((imported) => {
          // a CommonJS module: its exports are the default export (webpack and Node alike)
          const module = (imported.default ?? imported) as ScreenModule;
          addConditions(module);
          for (const [name, fragment] of Object.entries(module.fragments)) registerFragment(name, fragment);
          registerScreen(module.definition);
          return module.definition;
        })
      : Promise.resolve(screenById(id));
    definitions.set(id, definition);
    // a chunk that failed to load (the network) is asked for again next time
    definition.catch(() => definitions.delete(id));
  }
  return definition;
}

const cached = <T>(byKey: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> => {
  let value = byKey.get(key);
  if (!value) {
    const loading = load();
    byKey.set(key, (value = loading));
    // React's `use` reads a settled promise marked this way at once: a loaded (prefetched) screen never suspends
    loading.then((result) => Object.assign(loading, { status: 'fulfilled', value: result }), () => byKey.delete(key));
  }
  return value;
};

const addWords = (instance: i18n, language: string) => (imported: { default?: object }) => {
  instance.addResourceBundle(language, 'translation', imported.default ?? imported, true, false);
};

/** The words of the lazily loaded code (form engine, widgets) and those only this screen names, in the page's language. */
export function loadScreenWords(instance: i18n, id: string): Promise<void> {
  const language = instance.language;
  const engine = cached(words, `${language}/`, () =>
    import(/* webpackChunkName: "words-engine-[request]" */ `../../../../build/generated/words-engine/${language}.json`).then(addWords(instance, language)),
  );
  if (!isGeneratedScreen(id)) return engine;
  const own = cached(words, `${language}/${id}`, () =>
    import(/* webpackChunkName: "words-[request]" */ `../../../../build/generated/words/${language}/${id}.json`).then(addWords(instance, language)),
  );
  return Promise.all([engine, own]).then(() => undefined);
}

/** The same promise for the same screen and language (React's `use` waits on it): definition and words loaded. */
export function screenReady(instance: i18n, id: string): Promise<ScreenDefinition> {
  return cached(ready, `${instance.language}/${id}`, async () => (await Promise.all([loadScreen(id), loadScreenWords(instance, id)]))[0]);
}

/** Loads a screen's chunk and words when the browser has nothing else to do (a link to it is shown). */
export function prefetchScreen(instance: i18n, id: string): () => void {
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 1));
  const cancel = window.cancelIdleCallback ?? window.clearTimeout;
  const handle = idle(() => void screenReady(instance, id).catch(() => undefined));
  return () => cancel(handle);
}
