/**
 * The generated data the engines load, one `import()` per kind of chunk (build/generated): imported by the engines
 * and the route's preload (screen/preload.ts), never importing an engine, so no engine reaches itself through its
 * data. The engines' own loaders are screen/screenViewChunk.ts and forms/formScreenChunk.ts. Webpack fetches a chunk
 * once however often it is asked for; a form's, on a cold load, after the frame's first paint (forms/formEngineGate.ts).
 */
import { afterFrame } from './forms/formEngineGate.js';

/** A form's schema and precompiled validators (build/generated/forms/<name>.cjs). */
export const importFormChunk = (name: string) => afterFrame(() => import(/* webpackChunkName: "form-[request]" */ `../../../build/generated/forms/${name}.cjs`));

/** A screen's definition, conditions and own words in a language (build/generated/screens/<lang>/<id>.cjs). */
export const importScreenChunk = (id: string, language: string) => import(/* webpackChunkName: "screen-[request]" */ `../../../build/generated/screens/${language}/${id}.cjs`);

/** The words of the lazily loaded code (form engine, widgets) in a language. */
export const importEngineWords = (language: string) => import(/* webpackChunkName: "words-engine-[request]" */ `../../../build/generated/words-engine/${language}.json`);
