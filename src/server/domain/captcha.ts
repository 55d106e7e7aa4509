/**
 * The captcha of the activation and reset mail requests (SPEC §5 Captcha): ALTCHA, a self-hosted proof-of-work
 * puzzle, behind the spec's request fields `capy_challengekey` (the challenge's id) and `capy_answer` (the widget's
 * payload, base64 JSON of {challenge, solution}).
 *
 * - Challenges are HMAC-signed with the server secret (CAPTCHA_SECRET, or one generated once and kept in the
 *   database), carry a random challenge id and expire after CHALLENGE_TTL_SECONDS.
 * - Deterministic mode: the server picks the counter, so a solution is checked against the signed derived key without
 *   any key derivation of its own (checking costs the server next to nothing).
 * - A solution works once: its challenge id is recorded (table captcha_solutions) until the challenge expires; a
 *   replay is refused. The insert is atomic, so two instances cannot both accept one solution.
 * - CAPTCHA=off (local use; refused outside demo mode by the configuration): challenges are trivial and every answer is
 *   accepted.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Payload } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { CaptchaMode } from '../config.js';
import type { Db } from '../db/index.js';
import { serverSecret } from './serverSecrets.js';

/** How long a challenge can be solved and its solution sent. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

/**
 * The work asked of the browser: PBKDF2-SHA-256 with `cost` iterations, tried for counters from 0 up to a random
 * counter in [counterMin, counterMax]. About a second in a current browser with the widget's workers; see README.
 */
export const CAPTCHA_DIFFICULTY = { algorithm: 'PBKDF2/SHA-256', cost: 1000, counterMin: 500, counterMax: 2000 } as const;
const OFF_DIFFICULTY = { algorithm: 'PBKDF2/SHA-256', cost: 1, counterMin: 1, counterMax: 10 } as const;

export interface CaptchaSettings {
  mode: CaptchaMode;
  /** CAPTCHA_COST: PBKDF2's iterations a try; default CAPTCHA_DIFFICULTY's. A challenge carries its own, signed. */
  cost?: number;
  /** CAPTCHA_SECRET; undefined: the generated one kept in the database. */
  secret: string | undefined;
}

export type CaptchaCheck = 'ok' | 'invalid' | 'expired' | 'replayed';

export interface CaptchaAnswer {
  /** capy_challengekey. */
  challengeKey?: string;
  /** capy_answer. */
  answer?: string;
}

async function secrets(db: Db, settings: CaptchaSettings): Promise<{ signature: string; keySignature: string }> {
  const signature = settings.secret ?? (await serverSecret(db, 'captcha_hmac'));
  return { signature, keySignature: createHmac('sha256', signature).update('altcha-key-signature').digest('hex') };
}

/** A new signed challenge, as the ALTCHA widget fetches it. */
export async function createCaptchaChallenge(db: Db, settings: CaptchaSettings, now = Date.now()): Promise<Challenge> {
  const difficulty = settings.mode === 'off' ? OFF_DIFFICULTY : { ...CAPTCHA_DIFFICULTY, cost: settings.cost ?? CAPTCHA_DIFFICULTY.cost };
  const { signature, keySignature } = await secrets(db, settings);
  return createChallenge({
    algorithm: difficulty.algorithm,
    cost: difficulty.cost,
    counter: randomInt(difficulty.counterMax, difficulty.counterMin),
    deriveKey,
    data: { challengeId: randomBytes(16).toString('base64url') },
    expiresAt: Math.floor(now / 1000) + CHALLENGE_TTL_SECONDS,
    hmacSignatureSecret: signature,
    hmacKeySignatureSecret: keySignature,
  });
}

/** The widget's payload: base64 of JSON {challenge, solution}; undefined when it is not one. */
export function parseCaptchaPayload(answer: string): Payload | undefined {
  try {
    const payload = JSON.parse(Buffer.from(answer, 'base64').toString('utf8')) as Payload;
    const ok =
      typeof payload === 'object' &&
      payload !== null &&
      typeof payload.challenge?.parameters === 'object' &&
      payload.challenge.parameters !== null &&
      typeof payload.solution === 'object' &&
      payload.solution !== null;
    return ok ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks a captcha answer and, when it is good, records it so it cannot be used again. 'ok' only for a solution of a
 * challenge this server signed, not expired, not used before, whose id is the given challenge key. Solutions of
 * expired challenges are deleted by the retention clean-up (domain/retention.ts).
 */
export async function verifyCaptcha(db: Db, settings: CaptchaSettings, input: CaptchaAnswer, now = Date.now()): Promise<CaptchaCheck> {
  if (settings.mode === 'off') return 'ok';
  if (!input.answer || !input.challengeKey) return 'invalid';
  const payload = parseCaptchaPayload(input.answer);
  if (!payload) return 'invalid';
  const { parameters } = payload.challenge;
  const challengeId = parameters.data?.challengeId;
  if (typeof challengeId !== 'string' || challengeId !== input.challengeKey) return 'invalid';
  if (typeof parameters.expiresAt !== 'number' || parameters.expiresAt * 1000 <= now) return 'expired';

  const { signature, keySignature } = await secrets(db, settings);
  let verified = false;
  try {
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: signature,
      hmacKeySignatureSecret: keySignature,
    });
    if (result.expired) return 'expired';
    verified = result.verified;
  } catch {
    verified = false;
  }
  if (!verified) return 'invalid';

  const recorded = await db
    .insertInto('captchaSolutions')
    .values({ challengeId, expiresAt: new Date(parameters.expiresAt * 1000) })
    .onConflict((conflict) => conflict.column('challengeId').doNothing())
    .returning('challengeId')
    .executeTakeFirst();
  return recorded ? 'ok' : 'replayed';
}
