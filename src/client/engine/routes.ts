/** The route table, generated from the screen definitions in screens/. */
import type { AccessClass, FormStep, ScreenDefinition } from '../../common/screens.js';

export interface RouteEntry {
  screen: ScreenDefinition;
  /** react-router path; form screens with steps get an optional `:step` segment. */
  path: string;
  access: AccessClass;
}

export const STEP_PARAM = 'step';
const STEP_SEGMENT = `/:${STEP_PARAM}?`;

export function hasSteps(screen: ScreenDefinition): boolean {
  return (screen.form?.steps?.length ?? 0) > 1;
}

/** The screen's path without its optional step segment (a screen may name it itself: '/subscription/:requestCode/edit/:step?'). */
export function basePath(screen: ScreenDefinition): string {
  return screen.path.endsWith(STEP_SEGMENT) ? screen.path.slice(0, -STEP_SEGMENT.length) : screen.path.replace(/\/$/, '') || '/';
}

/**
 * What makes a new entry to a screen (its data loaded again): each navigation, but the steps of a form are one entry
 * (moving between them, or to a field's anchor, keeps its data and its own state).
 */
export function screenEntryKey(screen: ScreenDefinition, params: Record<string, string | undefined>, location: { key: string }): string {
  return hasSteps(screen) ? fillRoute(basePath(screen), params) : location.key;
}

export function buildRouteTable(screens: ScreenDefinition[]): RouteEntry[] {
  return screens.map((screen) => ({
    screen,
    path: hasSteps(screen) ? `${basePath(screen)}${STEP_SEGMENT}` : screen.path,
    access: screen.access,
  }));
}

/** A path's placeholders filled from the route's parameters (those without a value stay). */
export function fillRoute(path: string, params: Record<string, string | undefined> = {}): string {
  return path.replace(/:([a-zA-Z][a-zA-Z0-9]*)/g, (placeholder, name: string) => {
    const value = params[name];
    return value === undefined || value === '' ? placeholder : encodeURIComponent(value);
  });
}

/**
 * The URL of a step of a form screen, its placeholders filled from the current route's parameters; the first step is
 * the screen's own path.
 */
export function stepPath(screen: ScreenDefinition, step: FormStep, params: Record<string, string | undefined> = {}): string {
  const first = screen.form?.steps?.[0] ?? 'input';
  const base = fillRoute(basePath(screen), params);
  return step === first ? base : `${base.replace(/\/$/, '')}/${step}`;
}
