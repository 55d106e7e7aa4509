/**
 * How every failure is answered (SPEC §8):
 * - a form that fails its schema: 422 `{errors: [{field, code, meta}]}`;
 * - a stale conditional write: 412 `{error: "precondition_failed", changed_by, changed_at}` (api/preconditions.ts);
 * - the database out of reach: 503 `{error: "maintenance"}`;
 * - other client errors: their status with `{error: code}` (bad_request, not_found, …);
 * - anything else: 500 `{error: "internal_error"}`, logged with its stack, which never reaches the client.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR, type ApiErrorCode } from '../../common/errorCodes.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import type { LastChange } from '../domain/versions.js';
import { FormValidationError, mapAjvErrors } from './validation.js';
import { toWire } from './wire.js';

/** An error the API answers with its own status and code. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly apiCode: ApiErrorCode,
    message: string = apiCode,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A row of a list written at once (a bulk update) whose record changed since the version it carried. */
export interface StaleRowChange {
  rowNo: number;
  lastChange: LastChange | undefined;
}

/** 412: the record (or rows of a list) changed since the version asked for; who changed it last and when, from the trail. */
export class PreconditionFailed extends Error {
  constructor(
    readonly lastChange: LastChange | undefined,
    readonly rows?: readonly StaleRowChange[],
  ) {
    super('precondition failed');
    this.name = 'PreconditionFailed';
  }
}

const changedBy = (change: LastChange | undefined) => (change ? { name: change.name, email: change.email } : null);

/** The 412 answer's body (before the wire's snake_case). */
export function preconditionFailedBody(error: PreconditionFailed) {
  return {
    error: API_ERROR.preconditionFailed,
    changedBy: changedBy(error.lastChange),
    changedAt: error.lastChange?.at ?? null,
    ...(error.rows && { rows: error.rows.map((row) => ({ rowNo: row.rowNo, changedBy: changedBy(row.lastChange), changedAt: row.lastChange?.at ?? null })) }),
  };
}

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: API_ERROR.badRequest,
  403: API_ERROR.forbidden,
  404: API_ERROR.notFound,
};

export function errorHandler(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof FormValidationError) {
    return reply.code(422).send(toWire({ errors: error.fieldErrors }));
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return reply.code(422).send(toWire({ errors: mapAjvErrors(fastifyError.validation as never) }));
  }
  if (error instanceof PreconditionFailed) {
    return reply.code(412).send(toWire(preconditionFailedBody(error)));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable: answering maintenance');
    return reply.code(503).send({ error: API_ERROR.maintenance });
  }
  if (error instanceof ApiError) {
    return reply.code(error.statusCode).send({ error: error.apiCode });
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    request.log.info({ err: error }, 'client error');
    return reply.code(status).send({ error: CODE_BY_STATUS[status] ?? API_ERROR.badRequest });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.code(500).send({ error: API_ERROR.internal });
}
