/**
 * The session and login context (SPEC §4 Session), kept ENCRYPTED in localStorage so a reload or a new tab stays
 * signed in.
 *
 * How: AES-GCM (256 bit, a fresh 96-bit IV per write) with a key generated in the browser as NON-EXTRACTABLE and kept
 * in IndexedDB (a CryptoKey is stored as is; its bytes can never be read by script, exported or copied).
 *
 * What this protects against: the tokens never sit in localStorage in the clear, so anything that only gets the
 * storage contents — a copied or synced browser profile, a backup, a disk image, a bug or extension that dumps or
 * logs localStorage, another program reading the profile's files — gets ciphertext it cannot use, because the key
 * cannot leave the browser's key store. Tampering with the stored value makes decryption fail (GCM is
 * authenticated) and the session is dropped.
 * What it does NOT protect against: script running in the portal's own origin (XSS, a malicious dependency) can use
 * the key handle to decrypt, or simply read the tokens from memory or watch the calls; an attacker using the
 * victim's unlocked browser is signed in as the victim. Against those the defences are the Content-Security-Policy,
 * short-lived access tokens, refresh-token rotation and server-side revocation, not this file.
 * Without IndexedDB (some private modes) the key lives in memory only: the login then lasts as long as the page.
 */
import type { SessionState } from '../../state/session.js';

export const LOGIN_STORAGE_KEY = 'portal.login';
const DB_NAME = 'corporate-admin-portal';
const DB_STORE = 'keys';
const KEY_ID = 'login';

/** What is persisted: the session slice and the last ID token (for id_token_hint at logout). */
export interface PersistedLogin {
  session: SessionState;
  idToken: string | null;
}

export interface LoginStore {
  load(): Promise<PersistedLogin | null>;
  save(login: PersistedLogin): Promise<void>;
  clear(): Promise<void>;
}

export type KeyProvider = () => Promise<CryptoKey>;

function newKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']) as Promise<CryptoKey>;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** The key in IndexedDB, created on first use; falls back to a key in memory when IndexedDB is unavailable. */
export function indexedDbKeyProvider(factory: IDBFactory | undefined = globalThis.indexedDB): KeyProvider {
  let key: Promise<CryptoKey> | undefined;
  const load = async (): Promise<CryptoKey> => {
    if (!factory) return newKey();
    try {
      const open = factory.open(DB_NAME, 1);
      open.onupgradeneeded = () => open.result.createObjectStore(DB_STORE);
      const db = await request(open);
      try {
        const existing = (await request(db.transaction(DB_STORE, 'readonly').objectStore(DB_STORE).get(KEY_ID))) as CryptoKey | undefined;
        if (existing) return existing;
        const created = await newKey();
        // add, not put: when two tabs race, the first key wins and the other tab reads it back
        try {
          await request(db.transaction(DB_STORE, 'readwrite').objectStore(DB_STORE).add(created, KEY_ID));
          return created;
        } catch {
          return (await request(db.transaction(DB_STORE, 'readonly').objectStore(DB_STORE).get(KEY_ID))) as CryptoKey;
        }
      } finally {
        db.close();
      }
    } catch {
      return newKey();
    }
  };
  return () => (key ??= load());
}

/** A key that lives as long as the provider (tests, and browsers without IndexedDB). */
export function memoryKeyProvider(): KeyProvider {
  let key: Promise<CryptoKey> | undefined;
  return () => (key ??= newKey());
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

export function createEncryptedLoginStore(options: { storage?: Storage; key?: KeyProvider } = {}): LoginStore {
  const storage = options.storage ?? globalThis.localStorage;
  const key = options.key ?? indexedDbKeyProvider();
  // writes and clears run in order, so a sign-out is never overtaken by an earlier, slower save
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    load: () =>
      enqueue(async () => {
        const raw = storage.getItem(LOGIN_STORAGE_KEY);
        if (!raw) return null;
        try {
          const [iv, data] = raw.split('.').map(fromBase64);
          const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: iv as BufferSource }, await key(), data as BufferSource);
          return JSON.parse(new TextDecoder().decode(plain)) as PersistedLogin;
        } catch {
          // another key (IndexedDB was cleared), or a tampered value: the login is gone
          storage.removeItem(LOGIN_STORAGE_KEY);
          return null;
        }
      }),
    save: (login) =>
      enqueue(async () => {
        const iv = crypto.getRandomValues(new Uint8Array(12));
        const plain = new TextEncoder().encode(JSON.stringify(login));
        const data = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await key(), plain));
        storage.setItem(LOGIN_STORAGE_KEY, `${toBase64(iv)}.${toBase64(data)}`);
      }),
    clear: () =>
      enqueue(async () => {
        storage.removeItem(LOGIN_STORAGE_KEY);
      }),
  };
}
