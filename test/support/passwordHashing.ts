/**
 * argon2id at OWASP's lowest line (7 MiB × 5 passes, one lane), a sixth of the default's CPU, for the portals the
 * tests start: they sign in hundreds of times, and no test is about the cost (test/server/config.test.ts checks the
 * settings themselves).
 */
export const LIGHT_PASSWORD_HASHING = { PASSWORD_HASH_MEMORY_KIB: '7168', PASSWORD_HASH_PASSES: '5', PASSWORD_HASH_PARALLELISM: '1' };
