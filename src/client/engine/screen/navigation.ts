/** Navigation by screen id (no path literals in code): a ScreenLink becomes the screen's path with its values. */
import screens from '../../../../build/generated/screens.json';
import type { ScreenDefinition, ScreenLink } from '../../../common/screens.js';
import { navigateTo } from '../../api/context.js';
import { resolveValues, type ScreenContext } from './values.js';

const byId = new Map((screens as ScreenDefinition[]).map((screen) => [screen.id, screen]));

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
/** A route path with its placeholders (':id', ':step?') filled; a missing value is an error of the definition. */
export function fillRoutePath(path: string, values: Record<string, unknown>, owner = path): string {
  return path.replace(/:([a-zA-Z][a-zA-Z0-9]*)\??/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined || value === null || value === '') throw new Error(`${owner}: no value for :${name}`);
    return encodeURIComponent(String(value));
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
