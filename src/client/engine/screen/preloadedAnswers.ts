/**
 * The answers the route's preload (preload.ts) sent for, by request (callRequest.ts targetKey): only the last matched
 * route's. A module of its own: the screen's data saga (calls.ts), inside both engines, takes from it without
 * importing the preload, which loads the engines.
 */
import type { CallResult } from './callRequest.js';

const preloaded = new Map<string, Promise<CallResult>>();

/** A route matched: what the last one preloaded is dropped. */
export function clearPreloaded(): void {
  preloaded.clear();
}

export function putPreloaded(key: string, answer: Promise<CallResult>): void {
  preloaded.set(key, answer);
}

/** A preloaded answer, taken once: a reload of the screen asks again. */
export function takePreloaded(key: string): Promise<CallResult> | undefined {
  const answer = preloaded.get(key);
  preloaded.delete(key);
  return answer;
}
