/**
 * Navigation by screen id (no path literals in code): a ScreenLink becomes the screen's path with its values. Until a
 * screen's chunk is loaded (screenModule.ts) its definition here is its route entry: path, access, title, breadcrumb.
 */
import routes from '../../../../build/generated/routes.json';
import type { ScreenDefinition, ScreenLink } from '../../../common/screens.js';
import { navigateTo } from '../../api/context.js';
import { resolveValues, type ScreenContext } from './values.js';

const byId = new Map((routes as ScreenDefinition[]).map((screen) => [screen.id, screen]));
const generated = new Set(byId.keys());

/** Whether the build made a chunk for this screen (a definition of screens/, not one a test registered). */
export function isGeneratedScreen(id: string): boolean {
  return generated.has(id);
}

/** Adds a definition beside those of screens/ (tests try engine capabilities that no screen uses yet this way). */
export function registerScreen(screen: ScreenDefinition): void {
  byId.set(screen.id, screen);
}

export function screenById(id: string): ScreenDefinition {
  const screen = byId.get(id);
  if (!screen) throw new Error(`unknown screen "${id}"`);
  return screen;
}

/** The path of the linked screen, its placeholders filled from the link's params (then the context's own), and its query. */
/**
 * A route path with its placeholders (':id', ':step?') filled; an optional one without a value is left out with its
 * slash (a link to a wizard's first step), a missing required one is an error of the definition.
 */
export function fillRoutePath(path: string, values: Record<string, unknown>, owner = path): string {
  return path.replace(/(\/?):([a-zA-Z][a-zA-Z0-9]*)(\??)/g, (_match, slash: string, name: string, optional: string) => {
    const value = values[name];
    const missing = value === undefined || value === null || value === '';
    if (missing && optional) return '';
    if (missing) throw new Error(`${owner}: no value for :${name}`);
    return `${slash}${encodeURIComponent(String(value))}`;
  });
}

export function screenPath(link: ScreenLink, context: Partial<ScreenContext>): string {
  const values = { ...context.params, ...resolveValues(link.params, context) };
  const path = fillRoutePath(screenById(link.screen).path, values, `screen ${link.screen}`);
  const query = new URLSearchParams(resolveValues(link.query, context) as Record<string, string>).toString();
  return query ? `${path}?${query}` : path;
}

export function* navigateToScreen(link: ScreenLink, context: Partial<ScreenContext>): Generator<unknown, void, unknown> {
  const state = link.state ? resolveValues(link.state, context) : undefined;
  yield* navigateTo(screenPath(link, context), { replace: link.replace, state });
}
