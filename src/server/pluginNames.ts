/**
 * Fastify names each plugin it registers, for its messages and plugin tree. A plugin without a display name (every
 * route plugin here: only fastify-plugin sets one) is looked for in the whole of require's cache first
 * (`getPluginName` in fastify/lib/plugin-utils.js): an app's start registers ~90 such plugins, and a test process
 * holds ~1,300 modules, so that search was ~9 s of the Node-side tests' CPU a run (`--cpu-prof`). Naming each plugin
 * by its function's name, as Fastify does after the search, gives the same names without it (an anonymous one is
 * still searched for).
 */
import type { FastifyInstance } from 'fastify';

const DISPLAY_NAME = Symbol.for('fastify.display-name');

type Plugin = ((...args: never[]) => unknown) & { [DISPLAY_NAME]?: string };

/** `app.register` (which its child instances inherit) giving each named plugin its name before Fastify asks. */
export function namePluginsByFunction(app: FastifyInstance): void {
  const register = app.register;
  app.register = function (this: FastifyInstance, plugin: Plugin, ...rest: unknown[]) {
    // an anonymous one keeps Fastify's own name (the search, then its source's first lines); a module's namespace or
    // a promise of one is unwrapped by Fastify itself
    if (typeof plugin === 'function' && plugin.name && plugin[DISPLAY_NAME] === undefined) plugin[DISPLAY_NAME] = plugin.name;
    return (register as (...args: unknown[]) => unknown).call(this, plugin, ...rest);
  } as typeof register;
}
