/**
 * The settings of the portals the tests start that make their deliberate work light, which no test is about: argon2id
 * at OWASP's lowest line (7 MiB × 5 passes, one lane: a sixth of the default's CPU; the tests sign in hundreds of times)
 * and the captcha's proof of work at one PBKDF2 iteration a try (a thousandth). test/server/config.test.ts and
 * test/server/domain/captcha.test.ts check the settings themselves.
 */
export const LIGHT_WORK = { PASSWORD_HASH_MEMORY_KIB: '7168', PASSWORD_HASH_PASSES: '5', PASSWORD_HASH_PARALLELISM: '1', CAPTCHA_COST: '1' };

/**
 * Node's flags for a portal a test starts and stops within minutes: its JavaScript stays in V8's baseline tiers and
 * PGlite's WebAssembly in Liftoff, without the optimising compilers' background work, which so short a life does not
 * pay back (a portal's start on a prepared database took 6.3–8.8 s of CPU, 4.7–5.6 with these). The benchmarks run
 * the portal as production does, without them.
 */
export const SHORT_LIFE_FLAGS: readonly string[] = ['--no-opt', '--liftoff-only'];
