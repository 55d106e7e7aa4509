/**
 * Conditional writes (issue 28, RFC 9110 §13.1.1 If-Match, RFC 6585 428): a changeable record answers with a strong
 * `ETag` (its version, domain/versions.ts), and a PATCH, PUT or DELETE carrying `If-Match` changes it only while it is
 * still that version; otherwise 412 `{error: precondition_failed, changed_by: {name, email}, changed_at}` (who and
 * when from the audit trail) and nothing changes. A write without If-Match keeps working, as SPEC's clients send none,
 * unless IF_MATCH_REQUIRED asks for it: 428 precondition_required. The portal's own pages always send it.
 *
 * If-Match is `*` (any present version) or a list of entity tags; a weak tag (`W/"…"`) never matches (strong
 * comparison, RFC 9110 §8.8.3.2). Anything else, or more than MAX_TAGS tags, answers 400.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { DEFAULT_LANGUAGE, type Language } from '../../common/languages.js';
import type { Db } from '../db/index.js';
import { lastChange, StaleVersion, type Precondition, type VersionedTarget } from '../domain/versions.js';
import { ApiError, PreconditionFailed } from './errors.js';
import { requestLanguage } from './language.js';

/** The most entity tags one If-Match lists (a client names the one version it saw; a few are generous). */
export const MAX_TAGS = 16;
const MAX_HEADER_LENGTH = 1024;

/** An entity tag: optionally weak, then a quoted string of etagc characters (RFC 9110 §8.8.3). */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** The write's condition from If-Match: undefined without one (or 428 when IF_MATCH_REQUIRED), 400 when unreadable. */
export function preconditionOf(request: FastifyRequest, required: boolean): Precondition | undefined {
  const header = request.headers['if-match'];
  if (header === undefined) {
    if (required) throw new ApiError(428, API_ERROR.preconditionRequired);
    return undefined;
  }
  const text = (Array.isArray(header) ? header.join(',') : header).trim();
  if (text.length > MAX_HEADER_LENGTH) throw new ApiError(400, API_ERROR.badRequest, 'If-Match too long');
  if (text === '*') return '*';
  const tags = text.split(',').map((tag) => ENTITY_TAG.exec(tag.trim()));
  if (tags.length > MAX_TAGS || tags.some((tag) => tag === null)) throw new ApiError(400, API_ERROR.badRequest, 'If-Match is no list of entity tags');
  // a weak tag stands in the list as nothing a version's strong tag equals
  return tags.flatMap((tag) => (tag![1] ? [] : [`"${tag![2]!}"`]));
}

/** The record's version (its entity tag) as the answer's ETag; none for a record not stored (a dry run's new one). */
export function sendEtag(reply: FastifyReply, etag: string): void {
  if (etag) reply.header('etag', etag);
}

/** The language a 412 names who changed the record in (a person's name is written in the reader's order). */
export const changeLanguage = (request: FastifyRequest): Language => requestLanguage(request) ?? DEFAULT_LANGUAGE;

/** The 412 of a stale write on the target (the trail names who made the present version). */
export async function preconditionFailed(db: Db, request: FastifyRequest, organizationId: number, target: VersionedTarget): Promise<PreconditionFailed> {
  return new PreconditionFailed(await lastChange(db, organizationId, target, changeLanguage(request)));
}

/** The work's result; a StaleVersion it throws (the domain refused a change on an old version) as the 412. */
/** A versioned record's write as the domains answer it (API clients, webhook endpoints, single-sign-on connections and domains). */
export type RecordWrite<Result> = { outcome: 'done'; result: Result } | { outcome: 'not_found' } | { outcome: 'stale' } | { outcome: 'limit' };

/** The write's result, or its refusal as the API answers it: 404, 412 naming who changed the record, 409 limit_reached. */
export async function writtenRecord<Result>(db: Db, request: FastifyRequest, write: RecordWrite<Result>, target: VersionedTarget): Promise<Result> {
  switch (write.outcome) {
    case 'done':
      return write.result;
    case 'not_found':
      throw new ApiError(404, API_ERROR.notFound);
    case 'stale':
      throw await preconditionFailed(db, request, (request.params as { orgId: number }).orgId, target);
    case 'limit':
      throw new ApiError(409, API_ERROR.limitReached);
  }
}

export async function changedMeanwhileAs412<T>(db: Db, request: FastifyRequest, organizationId: number, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof StaleVersion) throw await preconditionFailed(db, request, organizationId, error.target);
    throw error;
  }
}

/** What a conditional write's route documents (OpenAPI): the If-Match header it reads, and its 412 and 428. */
export const conditionalWrite = {
  headers: {
    type: 'object',
    properties: {
      'if-match': {
        type: 'string',
        description: `the ETag of the version the change was made on (or * for any, or a list of up to ${MAX_TAGS}); a stale one answers 412 and changes nothing. Without it the write is unconditional (428 when IF_MATCH_REQUIRED)`,
      },
    },
  },
  answers: {
    412: {
      type: 'object',
      additionalProperties: false,
      description: 'The record changed since the version of If-Match: who made the present version and when (null when the trail no longer says)',
      properties: {
        error: { type: 'string', enum: [API_ERROR.preconditionFailed] },
        changed_by: { type: ['object', 'null'], additionalProperties: false, properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name', 'email'] },
        changed_at: { type: ['string', 'null'], format: 'date-time' },
        rows: {
          type: 'array',
          description: 'a bulk update: its rows whose learner changed since they were previewed (CSV line, who, when), at most the first 100',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: { row_no: { type: 'integer' }, changed_by: { type: ['object', 'null'], additionalProperties: true }, changed_at: { type: ['string', 'null'] } },
            required: ['row_no', 'changed_by', 'changed_at'],
          },
        },
      },
      required: ['error', 'changed_by', 'changed_at'],
    },
    428: { type: 'object', additionalProperties: false, properties: { error: { type: 'string', enum: [API_ERROR.preconditionRequired] } }, required: ['error'] },
  },
} as const;

/** The ETag header a versioned answer carries (OpenAPI). */
export const etagHeader = { etag: { type: 'string', description: "the record's version, a strong entity tag: send it back in If-Match" } } as const;
