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
  /** 400 on PUT admins/{adminId}/password: the current password is wrong. */
  currentPasswordMismatch: 'current_password_mismatch',
  adminAlreadyDeleted: 'admin_already_deleted',
  forbidden: 'forbidden',
  notFound: 'not_found',
  validationFailed: 'validation_failed',
  badRequest: 'bad_request',
  internal: 'internal_error',
  /** 429: too many activation or reset mail requests for this address or from this client (Retry-After says when). */
  tooManyRequests: 'too_many_requests',
  /** 401 on the activation and reset mail requests: the captcha was not solved, expired or was used before. */
  captchaInvalid: 'captcha_invalid',
  /** The activation mail was asked for an admin who is already activated (SPEC §4 Admin account). */
  alreadyActivated: 'already_activated',
  /** 401 on the activation and reset token calls (SPEC §4 Tokens): unknown, expired or already used. */
  invalidToken: 'invalid_token',
  tokenExpired: 'token_expired',
  tokenUsed: 'token_used',
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
