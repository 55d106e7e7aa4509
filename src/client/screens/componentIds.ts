/**
 * Ids of code-defined screen components that screens/*.json may name with "component", for what configuration cannot
 * say (README: why each one exists). Kept free of React so the configuration check can read it; registry.ts maps each
 * id to its lazily loaded component.
 */
export const COMPONENT_IDS = [
  'SignIn',
  'SignInCallback',
  'SignOut',
  'Gateway',
  'ScreenGallery',
] as const;
export type ComponentId = (typeof COMPONENT_IDS)[number];
