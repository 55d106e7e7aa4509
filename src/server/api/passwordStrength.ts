/**
 * The password strength rule of SPEC §5 on the server (issue 7 finding 14): the score the browser's meter shows
 * (zxcvbn-ts, the same dictionaries) must reach MIN_PASSWORD_SCORE, so an API call cannot set a password the form
 * would refuse. The schema has already checked the policy (length, characters); a weak password answers 422 on its
 * field with the meter's words as the message (password.strength.<score>).
 *
 * The score runs in a worker thread, started on the first check and let go after IDLE_MS: one check takes
 * 300–500 ms of CPU (the dictionaries with Levenshtein distances), and the dictionaries are tens of MB of small
 * objects that every major collection of the portal's heap would otherwise mark (docs/performance.md, eighth session).
 */
import { Piscina } from 'piscina';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { MIN_PASSWORD_SCORE } from '../../common/passwordPolicy.js';
import { ApiError } from './errors.js';
import { FormValidationError } from './validation.js';
import { wireField } from './wire.js';

const IDLE_MS = 60_000;
/** Scores waiting beyond the one under way, about ten seconds of the worker's time: more answer 429, not a growing queue. */
const MAX_WAITING = 20;
// beside this module under tsx; beside build/server/main.js once compiled (scripts/buildServer.ts)
const WORKER = new URL(`./passwordStrength.worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

export interface PasswordStrength {
  /** Throws a FormValidationError on `field` when the password's score is below MIN_PASSWORD_SCORE. */
  requireStrong(field: string, password: string): Promise<void>;
  close(): Promise<void>;
}

export function createPasswordStrength({ maxWaiting = MAX_WAITING } = {}): PasswordStrength {
  const pool = new Piscina<string, number>({ filename: WORKER.href, minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  return {
    async requireStrong(field, password) {
      if (pool.queueSize >= maxWaiting) throw new ApiError(429, API_ERROR.tooManyRequests);
      const score = await pool.run(password);
      if (score >= MIN_PASSWORD_SCORE) return;
      throw new FormValidationError([{ field: wireField([field]), code: FIELD_ERROR.invalid, meta: { messageKey: `password.strength.${score}` } }]);
    },
    close: () => pool.destroy(),
  };
}
