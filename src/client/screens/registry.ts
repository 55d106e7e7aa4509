/** Code-defined screens by id, each loaded as a chunk of its own when first opened. */
import type { ComponentType, LazyExoticComponent } from 'react';
import type { ScreenDefinition } from '../../common/screens.js';
import type { ComponentId } from './componentIds.js';

export type ScreenComponent = LazyExoticComponent<ComponentType<{ screen: ScreenDefinition }>>;

export const screenComponents: Record<ComponentId, ScreenComponent> = {};

