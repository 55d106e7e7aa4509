/**
 * Password hashing: argon2id, by default with the library's cost (64 MiB, 3 passes, 4 lanes). PASSWORD_HASH_* set the
 * cost of new hashes for the machine the portal runs on, down to OWASP's lowest recommended line; a verification
 * reads the cost from the stored hash, so hashes made at another cost keep working.
 */
import argon2 from 'argon2';

export interface PasswordHashing {
  memoryKib: number;
  passes: number;
  parallelism: number;
}

export const DEFAULT_PASSWORD_HASHING: PasswordHashing = { memoryKib: 65536, passes: 3, parallelism: 4 };
/** OWASP's Password Storage Cheat Sheet: at least 7 MiB, and memory × passes at least that of 7 MiB × 5 passes. */
export const MIN_PASSWORD_HASH_MEMORY_KIB = 7168;
export const MIN_PASSWORD_HASH_WORK = MIN_PASSWORD_HASH_MEMORY_KIB * 5;

/** The cost of new hashes: one a process, set as the app starts (config.passwordHashing). */
let hashing = DEFAULT_PASSWORD_HASHING;

/** Sets the cost of new hashes; answers the one it replaces. */
export function usePasswordHashing(cost: PasswordHashing): PasswordHashing {
  const replaced = hashing;
  hashing = cost;
  return replaced;
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: hashing.memoryKib, timeCost: hashing.passes, parallelism: hashing.parallelism });
}

/** False for a wrong password and for a missing or malformed hash; never throws on bad input. */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}
