/** Code-defined screens by id, each loaded as a chunk of its own when first opened. */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenDefinition } from '../../common/screens.js';
import type { ComponentId } from './componentIds.js';

export type ScreenComponent = LazyExoticComponent<ComponentType<{ screen: ScreenDefinition }>>;

export const screenComponents: Record<ComponentId, ScreenComponent> = {
  SignIn: lazy(() => import(/* webpackChunkName: "screen-SignIn" */ './SignIn.js')),
  SignInCallback: lazy(() => import(/* webpackChunkName: "screen-SignInCallback" */ './SignInCallback.js')),
  SignOut: lazy(() => import(/* webpackChunkName: "screen-SignOut" */ './SignOut.js')),
  Gateway: lazy(() => import(/* webpackChunkName: "screen-Gateway" */ './Gateway.js')),
  // /dev/screens, for product staff; the server answers 404 for it outside demo mode
  ScreenGallery: lazy(() => import(/* webpackChunkName: "screen-ScreenGallery" */ './ScreenGallery.js')),
};
