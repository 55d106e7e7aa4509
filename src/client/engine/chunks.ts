/**
 * The lazily loaded code, one `import()` per kind of chunk: the components that render it and the route's preload
 * (screen/preload.ts), which asks for a page's chunks the moment its route is matched, share them; webpack fetches a
 * chunk once however often it is asked for.
 */

/** The block engine, one chunk shared by every screen made of blocks. */
export const importScreenView = () => import(/* webpackChunkName: "screen-view" */ './screen/ScreenView.js');

/** The form engine (RJSF and its widgets). */
export const importFormScreen = () => import(/* webpackChunkName: "form-screen" */ './forms/FormScreen.js');

/** A form's schema and precompiled validators (build/generated/forms/<name>.cjs). */
export const importFormChunk = (name: string) => import(/* webpackChunkName: "form-[request]" */ `../../../build/generated/forms/${name}.cjs`);

/** A screen's definition, conditions and own words in a language (build/generated/screens/<lang>/<id>.cjs). */
export const importScreenChunk = (id: string, language: string) => import(/* webpackChunkName: "screen-[request]" */ `../../../build/generated/screens/${language}/${id}.cjs`);

/** The words of the lazily loaded code (form engine, widgets) in a language. */
export const importEngineWords = (language: string) => import(/* webpackChunkName: "words-engine-[request]" */ `../../../build/generated/words-engine/${language}.json`);
