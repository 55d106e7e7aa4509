/**
 * The sign-in verification state (SPEC §3) between the sign-in redirect and the callback, in sessionStorage: it
 * belongs to this tab only and is gone when the tab closes. Kept apart from the encrypted login (SPEC §4 Session).
 */
import type { VerificationState } from './signinRequest.js';

export const VERIFICATION_STORAGE_KEY = 'auth.verification';
/** An in-portal path to return to after sign-in; wins over the nonce's returnTo (SPEC §4 Return path). */
export const RETURN_PATH_STORAGE_KEY = 'auth.returnPath';

export interface VerificationStorage {
  write(state: VerificationState): void;
  read(): Partial<VerificationState> | null;
  /** Purges the verification state and the stored return path. */
  clear(): void;
  readReturnPath(): string | null;
}

export function createVerificationStorage(storage: Storage | undefined = globalThis.sessionStorage): VerificationStorage {
  return {
    write(state) {
      storage?.setItem(VERIFICATION_STORAGE_KEY, JSON.stringify(state));
    },
    read() {
      const raw = storage?.getItem(VERIFICATION_STORAGE_KEY);
      if (!raw) return null;
      try {
        const value = JSON.parse(raw) as Record<string, unknown>;
        const text = (name: string) => (typeof value[name] === 'string' ? (value[name] as string) : undefined);
        return { state: text('state'), nonce: text('nonce'), codeVerifier: text('codeVerifier') };
      } catch {
        return null;
      }
    },
    clear() {
      storage?.removeItem(VERIFICATION_STORAGE_KEY);
      storage?.removeItem(RETURN_PATH_STORAGE_KEY);
    },
    readReturnPath() {
      return storage?.getItem(RETURN_PATH_STORAGE_KEY) ?? null;
    },
  };
}
