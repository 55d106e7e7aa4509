/**
 * Error codes on the wire (SPEC section 8), shared by the server that sends them
 * and the client's error catalogue that reads them.
 */
export const API_ERROR = {
  maintenance: 'maintenance',
  /** 401: the access token has expired; the client refreshes once and retries. */
  accessTokenExpired: 'access_token_expired',
  invalidAccessToken: 'invalid_access_token',
  reauthenticationExpired: 'reauthentication_expired',
  adminAlreadyDeleted: 'admin_already_deleted',
  forbidden: 'forbidden',
  notFound: 'not_found',
  validationFailed: 'validation_failed',
  badRequest: 'bad_request',
  internal: 'internal_error',
} as const;
export type ApiErrorCode = (typeof API_ERROR)[keyof typeof API_ERROR];

/** Field error codes of a 422 `{errors: [{field, code, meta}]}` (SPEC section 8, field errors). */
export const FIELD_ERROR = {
  blank: 'blank',
  duplicated: 'duplicated',
  invalid: 'invalid',
  notFound: 'notFound',
  tooLong: 'tooLong',
  taken: 'taken',
} as const;
export type FieldErrorCode = (typeof FIELD_ERROR)[keyof typeof FIELD_ERROR];

export interface FieldError {
  field: string;
  code: string;
  meta?: Record<string, unknown>;
}
