/** Schemas shared by the routes (snake_case: they describe the wire). */
import { LANGUAGES } from '../../common/languages.js';

/** Params of the routes under admins/{adminId}. */
export const adminIdParams = {
  type: 'object',
  properties: { adminId: { type: 'integer', minimum: 1 } },
  required: ['adminId'],
} as const;

/** `?lang=`: the language of what the answer (or its mail) says. */
export function languageQuery(description: string) {
  return { type: 'object', properties: { lang: { type: 'string', enum: [...LANGUAGES], description } } } as const;
}

export const errorResponse = {
  type: 'object',
  description: 'An error code of src/common/errorCodes.ts (for example not_found, bad_request, maintenance, internal_error)',
  properties: { error: { type: 'string' } },
  required: ['error'],
} as const;

export const validationErrorResponse = {
  type: 'object',
  description: 'Field errors: code blank, tooLong (meta.length), invalid (meta.message_key when the schema names a message)',
  properties: {
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          field: { type: 'string', description: 'snake_case; nested paths joined with dots' },
          code: { type: 'string' },
          meta: { type: 'object', additionalProperties: true },
        },
        required: ['field', 'code', 'meta'],
      },
    },
  },
  required: ['errors'],
} as const;

/** The answers any API route can give besides its own. */
export const commonResponses = {
  400: errorResponse,
  500: errorResponse,
  503: errorResponse,
} as const;
