/**
 * Answers kept between the changes of what they show (issue 47): an organisation's admin list (3,000 admins are 1.46 MB
 * that PostgreSQL takes ~25 ms to write, and the list has no paging) and its pages of applications (999 a page, ~18 ms
 * of the portal's and PostgreSQL's CPU to write). Each is kept with the version its data had
 * when it was read — a database value that every change moves, so any instance's write ends it — and the time until
 * which its content holds without a change. At most `maxBytes` of answers, the least recently used dropped first.
 *
 * A kept answer is compressed once per encoding a client asks for, on zlib's thread pool (compression.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { acceptedEncoding, compressed, COMPRESSION_THRESHOLD_BYTES } from './compression.js';
import { JSON_TYPE } from './wire.js';

export interface KeptAnswer {
  /** The version of the data the answer shows. */
  version: string;
  /** Until when (ms since the epoch) the answer holds while its version stands: its content depends on the time. */
  validUntil: number;
  /** The JSON answer. */
  body: Buffer;
}

/** A kept answer with its compressed forms, each made when first asked for. */
export interface Kept extends KeptAnswer {
  encoded: Map<string, Promise<Buffer>>;
}

export interface KeptAnswers<K> {
  /** Whether an answer is kept for `key` (worth asking the data's version). */
  has(key: K): boolean;
  /** The answer kept for `key` if it still holds: its data is at `version` and `now` (ms) is before its end. */
  current(key: K, version: string, now: number): Kept | undefined;
  /** Keeps the answer (unless it has ended already or is larger than the store) and gives it back to be sent. */
  keep(key: K, answer: KeptAnswer): Kept;
}

/** A store of at most `maxBytes` of answers (their JSON; the compressed forms add a few per cent); 0: none is ever kept. */
export function keptAnswers<K extends object | number | string>(maxBytes: number): KeptAnswers<K> {
  const kept = (answer: KeptAnswer): Kept => ({ ...answer, encoded: new Map() });
  if (maxBytes <= 0) return { has: () => false, current: () => undefined, keep: (_key, answer) => kept(answer) };
  // an answer larger than maxBytes is never kept (lru-cache refuses it)
  const answers = new LRUCache<K, Kept>({ maxSize: maxBytes, sizeCalculation: (answer) => Math.max(1, answer.body.length) });
  return {
    has: (key) => answers.has(key),
    current(key, version, now) {
      const answer = answers.get(key);
      return answer && answer.version === version && now < answer.validUntil ? answer : undefined;
    },
    keep(key, answer) {
      const entry = kept(answer);
      if (answer.validUntil > Date.now()) answers.set(key, entry);
      return entry;
    },
  };
}

/** Sends a kept answer as JSON in the encoding the client accepts best (as the compression plugin would choose it). */
export async function sendKept(request: FastifyRequest, reply: FastifyReply, answer: Kept): Promise<FastifyReply> {
  const vary = reply.getHeader('vary');
  reply.type(JSON_TYPE).header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
  const encoding = answer.body.length >= COMPRESSION_THRESHOLD_BYTES ? acceptedEncoding(request) : null;
  if (!encoding) return reply.send(answer.body);
  let encoded = answer.encoded.get(encoding);
  if (!encoded) {
    encoded = compressed(encoding, answer.body);
    answer.encoded.set(encoding, encoded);
  }
  // already encoded: the compression plugin passes it on as it is
  return reply.header('content-encoding', encoding).send(await encoded);
}
