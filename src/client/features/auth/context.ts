/**
 * What the auth sagas take from the saga context (createSagaMiddleware({context})), beside the api layer's keys.
 * createAppStore puts browserAuthContext() there; tests put fakes.
 */
import { getContext } from 'redux-saga/effects';
import type { IdentityProvider } from './identityProviderTypes.js';
import { createLazyIdentityProvider } from './lazyIdentityProvider.js';
import { createEncryptedLoginStore, type LoginStore } from './loginStore.js';
import { createVerificationStorage, type VerificationStorage } from './verificationStorage.js';

export interface AuthSagaContext {
  /** Default: the lazily loaded client of the provider at `${origin}/oidc`. */
  identityProvider?: IdentityProvider;
  /** Default: AES-GCM encrypted localStorage with a non-extractable key in IndexedDB. */
  loginStore?: LoginStore;
  /** Default: sessionStorage. */
  verificationStorage?: VerificationStorage;
  /** Full-page navigation to another site (the provider); default window.location.assign. */
  assignLocation?: (url: string) => void;
  /** The portal's origin; default window.location.origin. */
  origin?: string;
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

export const AUTH_CONTEXT = {
  identityProvider: 'identityProvider',
  loginStore: 'loginStore',
  verificationStorage: 'verificationStorage',
  assignLocation: 'assignLocation',
  origin: 'origin',
  now: 'now',
} as const satisfies Record<keyof AuthSagaContext, string>;

/** The browser's defaults, created once per store (the provider caches its discovery document). */
export function browserAuthContext(): Required<AuthSagaContext> {
  const origin = window.location.origin;
  return {
    identityProvider: createLazyIdentityProvider(origin),
    loginStore: createEncryptedLoginStore(),
    verificationStorage: createVerificationStorage(),
    assignLocation: (url) => window.location.assign(url),
    origin,
    now: Date.now,
  };
}

export function* authContext(): Generator<unknown, Required<AuthSagaContext>, unknown> {
  const values = {} as Record<keyof AuthSagaContext, unknown>;
  for (const key of Object.keys(AUTH_CONTEXT) as Array<keyof AuthSagaContext>) values[key] = yield getContext(AUTH_CONTEXT[key]);
  const missing = (['identityProvider', 'loginStore', 'verificationStorage', 'assignLocation'] as const).filter((key) => !values[key]);
  if (missing.length > 0) throw new Error(`auth saga context lacks ${missing.join(', ')} (see browserAuthContext)`);
  return {
    ...(values as Required<AuthSagaContext>),
    origin: (values.origin as string | undefined) ?? window.location.origin,
    now: (values.now as (() => number) | undefined) ?? Date.now,
  };
}
