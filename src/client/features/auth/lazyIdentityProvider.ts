/**
 * An IdentityProvider whose implementation (oidc-client-ts, jose) is loaded as a chunk of its own on first use, so
 * the initial bundle carries neither.
 */
import type { IdentityProvider } from './identityProviderTypes.js';

export function createLazyIdentityProvider(origin: string): IdentityProvider {
  let loaded: Promise<IdentityProvider> | undefined;
  const provider = () =>
    (loaded ??= import(/* webpackChunkName: "identity-provider" */ './identityProvider.js').then((module) =>
      module.createIdentityProvider({ origin }),
    ));
  return {
    metadata: async () => (await provider()).metadata(),
    exchangeCode: async (args) => (await provider()).exchangeCode(args),
    refresh: async (token) => (await provider()).refresh(token),
    revoke: async (token, hint) => (await provider()).revoke(token, hint),
    decodeIdToken: async (token) => (await provider()).decodeIdToken(token),
    verifyIdToken: async (token, nonce) => (await provider()).verifyIdToken(token, nonce),
  };
}
