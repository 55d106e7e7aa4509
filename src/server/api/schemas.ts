/**
 * Schema pieces the routes share. Answers are declared once in src/common/api (camelCase, with their TypeScript
 * types); `wire` renders one for Fastify (serialisation) and the OpenAPI document (snake_case, as it travels).
 * Errors are declared per status with the codes a route can answer, so the document lists them as an enum.
 */
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { API_ERROR, FIELD_ERROR, type ApiErrorCode } from '../../common/errorCodes.js';
import { LANGUAGES } from '../../common/languages.js';
import type { JsonSchema } from '../../configuration/load.js';
import { wireSchema } from '../../configuration/schemaViews.js';
import { toSnakeKey } from './wire.js';

/** The wire (snake_case) rendering of an answer schema of src/common/api. */
export function wire(schema: JSONSchema): JsonSchema {
  return wireSchema(schema as JsonSchema, toSnakeKey);
}

/** The largest id: the columns are PostgreSQL `integer`; a larger one would make the query fail (500), issue 15 finding 4. */
export const MAX_ID = 2147483647;

/** Whether a path value is an id the schema `id` accepts: for hooks that run before validation (preValidation). */
export function isId(value: unknown): boolean {
  return /^\s*[1-9][0-9]{0,9}\s*$/.test(String(value)) && Number(value) <= MAX_ID;
}

/** An id in a path or a query: 1 to MAX_ID, else 422. */
export const id = { type: 'integer', minimum: 1, maximum: MAX_ID } as const;

/** Params of the routes under admins/{adminId}. */
export const adminIdParams = { type: 'object', additionalProperties: false, properties: { adminId: id }, required: ['adminId'] } as const;
export type AdminIdParams = FromSchema<typeof adminIdParams>;

const orgId = { ...id, description: "the organisation's id: the one the session was signed in for" } as const;

/** Params of the routes under organizations/{orgId}. */
export const organizationParams = { type: 'object', additionalProperties: false, properties: { orgId }, required: ['orgId'] } as const;
export type OrganizationParams = FromSchema<typeof organizationParams>;

/** Params of the routes under organizations/{orgId}/affiliations/admins/{adminId}. */
export const organizationAdminParams = {
  type: 'object',
  additionalProperties: false,
  properties: { orgId, adminId: id },
  required: ['orgId', 'adminId'],
} as const;
export type OrganizationAdminParams = FromSchema<typeof organizationAdminParams>;

/** Params of the routes under organizations/{orgId}/contacts/{id} and billing_contacts/{id}. */
export const organizationRecordParams = {
  type: 'object',
  additionalProperties: false,
  properties: { orgId, id },
  required: ['orgId', 'id'],
} as const;
export type OrganizationRecordParams = FromSchema<typeof organizationRecordParams>;

/** Params of services/{id} and service_groups/{id}. */
export const idParams = { type: 'object', additionalProperties: false, properties: { id }, required: ['id'] } as const;
export type IdParams = FromSchema<typeof idParams>;

/** `?lang=`: the language of what the answer (or its mail) says. */
export function languageQuery(description: string) {
  return { type: 'object', properties: { lang: { type: 'string', enum: [...LANGUAGES], description } } } as const;
}

/** The error envelope `{error}` with the codes a route answers with this status. */
export function errorAnswer(codes: readonly ApiErrorCode[]) {
  return {
    type: 'object',
    additionalProperties: false,
    properties: { error: { type: 'string', enum: [...new Set(codes)] } },
    required: ['error'],
  } as const;
}

/** Response entries for `{status: codes}`: `response: { 200: …, ...errorAnswers({ 403: [API_ERROR.forbidden] }) }`. */
export function errorAnswers(codesByStatus: Partial<Record<number, readonly ApiErrorCode[]>>): Record<number, ReturnType<typeof errorAnswer>> {
  return Object.fromEntries(Object.entries(codesByStatus).map(([status, codes]) => [status, errorAnswer(withRuleRefusal(codes!))]));
}

/** Where a call may be refused the organisation (forbidden), its two-step rule may refuse it too (issue 29). */
const withRuleRefusal = (codes: readonly ApiErrorCode[]): readonly ApiErrorCode[] =>
  codes.includes(API_ERROR.forbidden) && !codes.includes(API_ERROR.mfaRequired) ? [...codes, API_ERROR.mfaRequired] : codes;

/** The component holding 422 field errors (registered by openapi.ts, referenced as `{ $ref: 'FieldErrors#' }`). */
export const FIELD_ERRORS_ID = 'FieldErrors';

export const fieldErrorsSchema = {
  $id: FIELD_ERRORS_ID,
  type: 'object',
  description: 'Field errors (SPEC §8): blank, tooLong (meta.length), invalid (meta.message_key when the schema names a message), …',
  additionalProperties: false,
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          field: { type: 'string', description: 'snake_case; nested paths joined with dots' },
          code: { type: 'string', enum: Object.values(FIELD_ERROR) },
          meta: { type: 'object', additionalProperties: true },
        },
        required: ['field', 'code', 'meta'],
      },
    },
  },
  required: ['errors'],
} as const;

/** What every API route may answer besides its own: a body that is not JSON, the database away, a fault. */
export const COMMON_ERRORS = { 400: [API_ERROR.badRequest], 500: [API_ERROR.internal], 503: [API_ERROR.maintenance] } as const;

/** What every route of a signed-in admin may answer (api/auth.ts). */
export const AUTHENTICATION_ERRORS = { 401: [API_ERROR.invalidAccessToken, API_ERROR.accessTokenExpired] } as const;
