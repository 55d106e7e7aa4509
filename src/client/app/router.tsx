/** The router, built from the screen definitions: each screen behind its guard, inside the page frame. */
import { lazy, type ReactElement } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router-dom';
import type { ScreenDefinition } from '../../common/screens.js';
import { importScreenView } from '../engine/screen/screenViewChunk.js';
import { Guard } from '../engine/Guard.js';
import { revealing } from '../engine/Reveal.js';
import { buildRouteTable } from '../engine/routes.js';
import { screenComponents, type ScreenComponent } from '../screens/registry.js';
import type { ComponentId } from '../screens/componentIds.js';
import { Frame, type ScreenHandle } from './frame/Frame.js';

/** The block engine, one chunk shared by every screen made of blocks (the route's preload asks for it first). */
const ScreenView: ScreenComponent = lazy(() => revealing(importScreenView()).then((module) => ({ default: module.ScreenView })));

/** A code component where a protocol needs one; otherwise the engine shows the screen's blocks (or its form). */
function ScreenContent({ screen }: { screen: ScreenDefinition }): ReactElement {
  const Component = screen.component ? screenComponents[screen.component as ComponentId] : ScreenView;
  return <Component screen={screen} />;
}

export function buildRoutes(screens: ScreenDefinition[]): RouteObject[] {
  const children: RouteObject[] = buildRouteTable(screens).map((entry) => ({
    path: entry.path,
    handle: { screen: entry.screen } satisfies ScreenHandle,
    element: (
      <Guard access={entry.access} reauthentication={entry.screen.reauthentication} flag={entry.screen.flag}>
        <ScreenContent key={entry.screen.id} screen={entry.screen} />
      </Guard>
    ),
  }));
  children.push({ path: '*', element: <Navigate to="/" replace /> });
  return [{ element: <Frame />, children }];
}

export function createRouter(screens: ScreenDefinition[]) {
  return createBrowserRouter(buildRoutes(screens));
}
