/**
 * How answers are compressed (issue 26): brotli or gzip as the client accepts, by @fastify/compress (app.ts). That
 * plugin compresses a buffer or a string on the event loop and a stream on zlib's thread pool, so a large answer is
 * handed to it as a stream (Service Details' 999 applications, 388 KB: ~4 ms of brotli a request otherwise held the
 * loop); answers kept between changes are compressed once (keptAnswers.ts).
 */
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Answers smaller than this go out uncompressed: below a packet, compressing saves nothing a user would notice. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** Brotli's quality for answers kept between changes (keptAnswers.ts): compressed once, and 4 is ~10× faster than 11 for a few per cent more bytes. */
export const BROTLI_QUALITY = 4;
/**
 * Brotli's quality and gzip's level for answers compressed as they are sent, each time: 2 and 1. On a large list it
 * is brotli 4 that costs: the preview of 100,000 learners (24 MB of JSON) took 567 ms at 4 and 126 at 2, for 2.63 MB
 * and 2.50; gzip 208 ms at its default 6 and 111 at 1, for 3.16 MB and 3.32 (API clients often ask gzip). On answers
 * of 30–380 KB brotli 2 is ~1.5× as fast as 4 for 2–7 % more bytes.
 */
export const ON_THE_FLY_BROTLI_QUALITY = 2;
export const ON_THE_FLY_GZIP_LEVEL = 1;
type Encoding = 'br' | 'gzip';
/** The encodings offered, the preferred first. */
export const ENCODINGS: Encoding[] = ['br', 'gzip'];
/** Answers from this size are compressed off the event loop (below it, compressing takes well under a millisecond). */
const STREAMED_FROM_BYTES = 64 * 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
  gzip: (body) => gzip(body),
};

/** The encoding the client accepts best of ENCODINGS, or null: the answer as it is. */
export function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const accepted = request.headers['accept-encoding'];
  return accepted ? negotiate(accepted, ENCODINGS) : null;
}

/** `body` compressed in `encoding` (one of ENCODINGS) on zlib's thread pool. */
export const compressed = (encoding: Encoding, body: Buffer): Promise<Buffer> => COMPRESS[encoding](body);

/** Before the compression plugin's own hook (register it first): a large answer the client would have compressed goes to the plugin as a stream. */
export function compressLargeAnswersOffTheLoop(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const size = Buffer.isBuffer(payload) || typeof payload === 'string' ? payload.length : 0;
    if (size < STREAMED_FROM_BYTES || reply.hasHeader('content-encoding') || acceptedEncoding(request) === null) return payload;
    return Readable.from([payload as Buffer | string]);
  });
}
