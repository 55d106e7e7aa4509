/**
 * The form engine (RJSF and its widgets), one chunk: loaded by the block engine's form block and the route's preload,
 * which share this one `import()`. It stands apart from the block engine's loader (screen/screenViewChunk.ts): the
 * form block, inside the block engine, imports it without reaching the block engine again.
 */
import { afterFrame } from './formEngineGate.js';

export const importFormScreen = () => afterFrame(() => import(/* webpackChunkName: "form-screen" */ './FormScreen.js'));
