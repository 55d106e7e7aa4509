/** The route table, generated from the screen definitions in screens/. */
import type { AccessClass, FormStep, PageWidth, ScreenDefinition } from '../../common/screens.js';

export interface RouteEntry {
  screen: ScreenDefinition;
  /** react-router path; form screens with steps get an optional `:step` segment. */
  path: string;
  access: AccessClass;
  width: PageWidth;
}

export const STEP_PARAM = 'step';

export function hasSteps(screen: ScreenDefinition): boolean {
  return (screen.form?.steps?.length ?? 0) > 1;
}

export function buildRouteTable(screens: ScreenDefinition[]): RouteEntry[] {
  return screens.map((screen) => ({
    screen,
    path: hasSteps(screen) ? `${screen.path.replace(/\/$/, '')}/:${STEP_PARAM}?` : screen.path,
    access: screen.access,
    width: screen.width,
  }));
}

/** The URL of a step of a form screen; the first step is the screen's own path. */
export function stepPath(screen: ScreenDefinition, step: FormStep): string {
  const first = screen.form?.steps?.[0] ?? 'input';
  return step === first ? screen.path : `${screen.path.replace(/\/$/, '')}/${step}`;
}
