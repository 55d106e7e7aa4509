/** Fakes for the auth sagas: an identity provider, in-memory Web Storage, and a harness with the auth context. */
import sinon from 'sinon';
import type { JWTPayload } from 'jose';
import { authReducers } from '../../../../src/client/features/auth/authState.js';
import type { IdentityProvider, ProviderMetadata } from '../../../../src/client/features/auth/identityProviderTypes.js';
import { createEncryptedLoginStore, memoryKeyProvider } from '../../../../src/client/features/auth/loginStore.js';
import { createVerificationStorage } from '../../../../src/client/features/auth/verificationStorage.js';
import type { ApiSagaContext } from '../../../../src/client/api/context.js';
import type { AuthSagaContext } from '../../../../src/client/features/auth/context.js';
import type { TokenResponse } from '../../../../src/client/state/session.js';
import { setup, type Route } from '../../api/harness.js';

export const ORIGIN = 'http://portal.test';
export const NOW = Date.parse('2025-04-01T09:00:00Z');

export class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

export const metadata: ProviderMetadata = {
  issuer: `${ORIGIN}/oidc`,
  authorizationEndpoint: `${ORIGIN}/oidc/auth`,
  tokenEndpoint: `${ORIGIN}/oidc/token`,
  jwksUri: `${ORIGIN}/oidc/jwks`,
  revocationEndpoint: `${ORIGIN}/oidc/token/revocation`,
  endSessionEndpoint: `${ORIGIN}/oidc/session/end`,
};

export function tokens(overrides: Partial<TokenResponse> = {}): TokenResponse {
  return {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    createdAt: Math.floor(NOW / 1000),
    expiresIn: 900,
    refreshTokenExpiresIn: 86_400,
    idToken: 'header.payload.signature',
    ...overrides,
  };
}

export function fakeIdentityProvider(options: { claims?: JWTPayload } = {}) {
  const provider = {
    metadata: sinon.stub<[], Promise<ProviderMetadata>>().resolves(metadata),
    exchangeCode: sinon.stub<[{ code: string; codeVerifier: string }], Promise<TokenResponse>>().resolves(tokens()),
    refresh: sinon.stub<[string], Promise<TokenResponse>>().resolves(tokens({ accessToken: 'access-2', refreshToken: 'refresh-2' })),
    revoke: sinon.stub<[string, ('access_token' | 'refresh_token')?], Promise<void>>().resolves(),
    decodeIdToken: sinon.stub<[string], Promise<JWTPayload>>().resolves(options.claims ?? { glopla_id: 'G0000001', locale: 'ja', sub: '1' }),
    verifyIdToken: sinon.stub<[string, string], Promise<JWTPayload>>().resolves({}),
  } satisfies IdentityProvider;
  return provider;
}

export function authSetup(options: { routes?: Record<string, Route>; context?: Partial<ApiSagaContext & AuthSagaContext> } = {}) {
  const identityProvider = fakeIdentityProvider();
  const session = new MemoryStorage();
  const local = new MemoryStorage();
  const verificationStorage = createVerificationStorage(session);
  const loginStore = createEncryptedLoginStore({ storage: local, key: memoryKeyProvider() });
  const assignLocation = sinon.spy();
  const context = {
    identityProvider,
    loginStore,
    verificationStorage,
    assignLocation,
    origin: ORIGIN,
    now: () => NOW,
    ...options.context,
  };
  const harness = setup({ routes: options.routes, context: context as Partial<ApiSagaContext>, reducers: { ...authReducers } });
  return { ...harness, identityProvider, sessionStorage: session, localStorage: local, verificationStorage, loginStore, assignLocation };
}
