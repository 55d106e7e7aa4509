/**
 * How a CSV export (the learners, the audit trail: domain/csv.ts) is sent: streamed as it is read, and one at a time
 * per admin on this instance (issue 25 finding 3: four parallel exports of a large trail once took 3.2 GB). A second
 * export of the same admin while one is still being sent answers 429 too_many_requests.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { signedIn } from './auth.js';
import { ApiError } from './errors.js';

/** The admins whose export is being sent (their stream not closed yet). */
const exporting = new Set<number>();

/** The answers of an export route besides 200: refused (403) or one already being sent (429). */
export const CSV_EXPORT_ERRORS = { 403: [API_ERROR.forbidden], 429: [API_ERROR.tooManyRequests] } as const;

/** Sends the file `open` makes, unless the admin's previous export is still being sent. */
export function sendCsvExport(request: FastifyRequest, reply: FastifyReply, open: () => Readable, attachment?: string): FastifyReply {
  const adminId = signedIn(request).id;
  if (exporting.has(adminId)) throw new ApiError(429, API_ERROR.tooManyRequests);
  exporting.add(adminId);
  const file = open();
  // closed when the last byte is read, when the client goes away, or on a database error
  file.once('close', () => exporting.delete(adminId));
  reply.type('text/csv; charset=utf-8');
  if (attachment) reply.header('content-disposition', `attachment; filename="${attachment}"`);
  return reply.send(file);
}
