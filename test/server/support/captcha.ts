/**
 * Solving the portal's captcha in tests the way the ALTCHA widget does: fetch a challenge, brute-force it with
 * altcha-lib, and build the request fields capy_challengekey and capy_answer (the widget's base64 payload).
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';

export interface CaptchaFields {
  capy_challengekey: string;
  capy_answer: string;
}

export async function fetchChallenge(app: FastifyInstance): Promise<Challenge> {
  const response = await app.inject({ url: '/api/v2/captcha/challenge' });
  if (response.statusCode !== 200) throw new Error(`challenge: HTTP ${response.statusCode}`);
  return response.json() as Challenge;
}

export async function solve(challenge: Challenge): Promise<CaptchaFields> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge could not be solved');
  const payload = { challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution };
  return {
    capy_challengekey: String(challenge.parameters.data?.challengeId),
    capy_answer: Buffer.from(JSON.stringify(payload)).toString('base64'),
  };
}

export async function solvedCaptcha(app: FastifyInstance): Promise<CaptchaFields> {
  return solve(await fetchChallenge(app));
}
