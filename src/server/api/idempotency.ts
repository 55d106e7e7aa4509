/**
 * The Idempotency-Key header of the application writes (issue 15, finding 8; domain/idempotency.ts): the wizard sends
 * one key per confirm; a repeat with the key within 24 hours answers the first answer, the key with another request
 * answers 422 `idempotency_key` `invalid`. Without the header a write runs as before; a dry run ignores it.
 */
import type { FastifyRequest } from 'fastify';
import { FIELD_ERROR } from '../../common/errorCodes.js';
import { IdempotencyKeyReused, requestHash, type IdempotentRequest } from '../domain/idempotency.js';
import { FormValidationError } from './validation.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** The route's headers schema (and the API document's header parameter). */
export const idempotencyHeaders = {
  type: 'object',
  properties: {
    [IDEMPOTENCY_HEADER]: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^[!-~]+$',
      description: 'optional; one key per submit (printable ASCII, at most 100): a repeat within 24 h answers the first answer, another request with the key 422',
    },
  },
} as const;

const requests = new WeakMap<FastifyRequest, string>();

/** Run first in preValidation, before the body is normalised: what makes a repeat the same request. */
export function rememberRequest(request: FastifyRequest): void {
  requests.set(request, requestHash({ method: request.method, path: request.url.split('?')[0], body: request.body }));
}

/** The key of the request, when it carries one, for the admin's write in the organisation. */
export function idempotentRequest(request: FastifyRequest, organizationId: number, adminId: number): IdempotentRequest | undefined {
  const key = request.headers[IDEMPOTENCY_HEADER];
  if (typeof key !== 'string') return undefined;
  return { organizationId, adminId, key, requestHash: requests.get(request)! };
}

/** The key reused with another request as the 422 field error of the forms. */
export function keyReusedAsFieldError(error: unknown): unknown {
  return error instanceof IdempotencyKeyReused ? new FormValidationError([{ field: 'idempotency_key', code: FIELD_ERROR.invalid, meta: {} }]) : error;
}
