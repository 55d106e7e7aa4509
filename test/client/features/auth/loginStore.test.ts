import { expect } from 'chai';
import { createEncryptedLoginStore, LOGIN_STORAGE_KEY, memoryKeyProvider, type PersistedLogin } from '../../../../src/client/features/auth/loginStore.js';
import { restoreLogin } from '../../../../src/client/features/auth/persistenceSaga.js';
import { initialSessionState, sessionFromTokenResponse } from '../../../../src/client/state/session.js';
import { MemoryStorage, NOW, tokens } from './support.js';

const login: PersistedLogin = {
  session: {
    ...initialSessionState,
    session: sessionFromTokenResponse(tokens({ accessToken: 'secret-access-token', refreshToken: 'secret-refresh-token' })),
    isLoggedIn: true,
    organization: { id: 1, gloplaId: 'G0000001', corporationOfficialName: '株式会社デモ' },
    me: { id: 1, firstName: '太郎', lastName: '山田' },
    role: 'manager',
  },
  idToken: 'id.token',
};

describe('features/auth encrypted login store (SPEC §4 Session)', () => {
  it('round-trips the login, and localStorage holds only ciphertext', async () => {
    const storage = new MemoryStorage();
    const store = createEncryptedLoginStore({ storage, key: memoryKeyProvider() });
    await store.save(login);
    const raw = storage.getItem(LOGIN_STORAGE_KEY)!;
    expect(raw).to.match(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    for (const secret of ['secret-access-token', 'secret-refresh-token', 'G0000001', '山田']) expect(raw).to.not.contain(secret);
    expect(await store.load()).to.deep.equal(login);
  });

  it('each write uses a fresh IV', async () => {
    const storage = new MemoryStorage();
    const store = createEncryptedLoginStore({ storage, key: memoryKeyProvider() });
    await store.save(login);
    const first = storage.getItem(LOGIN_STORAGE_KEY);
    await store.save(login);
    expect(storage.getItem(LOGIN_STORAGE_KEY)).to.not.equal(first);
  });

  it('another key (IndexedDB cleared) or a tampered value: no login, and the value is removed', async () => {
    const storage = new MemoryStorage();
    await createEncryptedLoginStore({ storage, key: memoryKeyProvider() }).save(login);
    expect(await createEncryptedLoginStore({ storage, key: memoryKeyProvider() }).load()).to.equal(null);
    expect(storage.getItem(LOGIN_STORAGE_KEY)).to.equal(null);

    const key = memoryKeyProvider();
    const store = createEncryptedLoginStore({ storage, key });
    await store.save(login);
    const [iv, data] = storage.getItem(LOGIN_STORAGE_KEY)!.split('.');
    storage.setItem(LOGIN_STORAGE_KEY, `${iv}.${data.slice(0, -4)}AAA=`);
    expect(await store.load()).to.equal(null);
  });

  it('writes and clears happen in the order asked', async () => {
    const storage = new MemoryStorage();
    const store = createEncryptedLoginStore({ storage, key: memoryKeyProvider() });
    void store.save(login);
    await store.clear();
    expect(storage.getItem(LOGIN_STORAGE_KEY)).to.equal(null);
  });

  it('restoreLogin: the stored login while its refresh token lives; an expired one is removed', async () => {
    const storage = new MemoryStorage();
    const store = createEncryptedLoginStore({ storage, key: memoryKeyProvider() });
    await store.save(login);
    expect(await restoreLogin(store, NOW)).to.deep.equal({ session: login.session, idToken: 'id.token' });
    expect(await restoreLogin(store, NOW + 86_400_000)).to.equal(null);
    expect(storage.getItem(LOGIN_STORAGE_KEY)).to.equal(null);
  });
});
