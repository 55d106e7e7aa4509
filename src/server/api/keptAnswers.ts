/**
 * Answers kept between the changes of what they show (issue 47: an organisation's admin list of 3,000 admins is
 * 1.46 MB that PostgreSQL takes ~25 ms to write, and the list has no paging). Each is kept with the version its data had
 * when it was read — a database value that every change moves, so any instance's write ends it — and the time until
 * which its content holds without a change. At most `maxBytes` of answers, the least recently used dropped first.
 */
import { LRUCache } from 'lru-cache';

export interface KeptAnswer {
  /** The version of the data the answer shows. */
  version: string;
  /** Until when (ms since the epoch) the answer holds while its version stands: its content depends on the time. */
  validUntil: number;
  body: Buffer;
}

export interface KeptAnswers<K> {
  /** Whether an answer is kept for `key` (worth asking the data's version). */
  has(key: K): boolean;
  /** The answer kept for `key` if it still holds: its data is at `version` and `now` (ms) is before its end. */
  current(key: K, version: string, now: number): Buffer | undefined;
  keep(key: K, answer: KeptAnswer): void;
}

/** A store of at most `maxBytes` of answers; 0: none is ever kept. */
export function keptAnswers<K extends object | number | string>(maxBytes: number): KeptAnswers<K> {
  if (maxBytes <= 0) return { has: () => false, current: () => undefined, keep: () => undefined };
  // an answer larger than maxBytes is never kept (lru-cache refuses it)
  const answers = new LRUCache<K, KeptAnswer>({ maxSize: maxBytes, sizeCalculation: (answer) => Math.max(1, answer.body.length) });
  return {
    has: (key) => answers.has(key),
    current(key, version, now) {
      const answer = answers.get(key);
      return answer && answer.version === version && now < answer.validUntil ? answer.body : undefined;
    },
    keep: (key, answer) => void answers.set(key, answer),
  };
}
