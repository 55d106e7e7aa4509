/**
 * Ids of code-defined screen components that screens/*.json may name with "component". Kept free of React so the
 * configuration check can read it; registry.ts maps each id to its lazily loaded component.
 */
export const COMPONENT_IDS = [
  'Home',
  'SignIn',
  'SignInCallback',
  'SignOut',
  'Account',
  'ActivationStart',
  'Activate',
  'ActivationAlreadyCompleted',
  'PasswordResetStart',
  'PasswordReset',
  'SignInAfterSuccess',
  'TokenSent',
  'TokenExpired',
] as const;
export type ComponentId = (typeof COMPONENT_IDS)[number];
