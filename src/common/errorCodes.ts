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
  /** 403: the organisation requires two-step sign-in and the session's sign-in was a password only (issue 29). */
  mfaRequired: 'mfa_required',
  /** 403: an admin bound by an organisation's two-step rule starts a first factor without the mailed enrolment link (issue 44). */
  enrolmentLinkRequired: 'enrolment_link_required',
  /** 400 on PUT admins/{adminId}/password: the current password is wrong. */
  currentPasswordMismatch: 'current_password_mismatch',
  adminAlreadyDeleted: 'admin_already_deleted',
  forbidden: 'forbidden',
  /** An API client's token lacks the route's scope, or the route is not open to API clients (issue 46; RFC 6750). */
  insufficientScope: 'insufficient_scope',
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
  /** 401 on the single-sign-on verify call: the partner's credentials (HTTP Basic code:secret) are wrong or missing. */
  invalidClient: 'invalid_client',
  /** 401 on the single-sign-on verify call: gsg is not the signature of the fields presented. */
  invalidSignature: 'invalid_signature',
  /** 412: the record changed since the version the write named in If-Match (issue 28); nothing was changed. */
  preconditionFailed: 'precondition_failed',
  /** 428: the write named no version while IF_MATCH_REQUIRED asks every conditional write for one. */
  preconditionRequired: 'precondition_required',
  /** 403: requiring single sign-on for a domain needs a session signed in through single sign-on (issue 45: nobody locks the organisation out). */
  federatedSessionRequired: 'federated_session_required',
  /** 409: the organisation has as many single-sign-on connections, or domains, as it may. */
  limitReached: 'limit_reached',
  /** 400 on the learner CSV preview (SPEC §8 CSV preview), sent as the SPEC spells them. */
  exceedMaxSize: 'exceedMaxSize',
  fileNotFound: 'fileNotFound',
  invalidCsvFormat: 'invalidCsvFormat',
  invalidHeader: 'invalidHeader',
  malformedCsv: 'malformedCsv',
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
  /** Learners (SPEC §5 CSV upload, §8): a nameId that is not single-byte alphanumerics (shown as nameIdFormat). */
  invalidFormat: 'invalid_format',
  /** Learners: a name or the e-mail differs from the stored one (SPEC 2.15: they cannot be changed). */
  cannotBeChanged: 'cannotBeChanged',
  nameIdMustBeBlankWhenNameIdTypeIsEmail: 'nameIdMustBeBlankWhenNameIdTypeIsEmail',
  nameIdMustBePresentWhenNameIdTypeIsNameId: 'nameIdMustBePresentWhenNameIdTypeIsNameId',
  nameIdMustBeBlankWhenIdpNotSpecified: 'nameIdMustBeBlankWhenIdpNotSpecified',
  /** Learners (issue 19): a cell holding a character the file's encoding did not keep (U+FFFD, or '?' for a stored character CP932 has not). */
  lostCharacter: 'lostCharacter',
  /** Corporate subscriptions (SPEC §8 'Application errors'; words in locales/<lang>/subscriptions.json errors.<field>.<code>). */
  required: 'required',
  cantBeUsed: 'cantBeUsed',
  outOfRange: 'outOfRange',
  maximumNumberUsersHodai: 'maximumNumberUsers.hodai',
  maximumNumberUsersEmba: 'maximumNumberUsers.emba',
  classSize: 'classSize',
  notUpdatable: 'notUpdatable',
  enlargementDeadline: 'enlargementDeadline',
  reductionDeadline: 'reductionDeadline',
  /** A new registration for a gls class past its registration deadline (issue 17; meta.deadline, the last day). */
  classClosed: 'classClosed',
  /** Single sign-on (issue 45): an IdP's URL that is not https (demo mode: http on a loopback address too). */
  httpsRequired: 'httpsRequired',
  /** Single sign-on: an IdP's URL whose host is no public address (private, loopback, link-local, reserved). */
  privateAddress: 'privateAddress',
  /** Single sign-on: a free-mail domain, which no organisation may claim. */
  freeMailDomain: 'freeMailDomain',
  /** Single sign-on: the domain's TXT record is not published (meta: the record's name and value). */
  txtRecordMissing: 'txtRecordMissing',
  /** Single sign-on: the DNS resolvers gave no answer about the domain's TXT record (meta.dns_error). */
  dnsLookupFailed: 'dnsLookupFailed',
  /** Single sign-on: required for a domain not verified yet. */
  notVerified: 'notVerified',
  /** Single sign-on: required for a domain whose connection (or the organisation's only active one) is not on. */
  connectionNotOn: 'connectionNotOn',
} as const;
export type FieldErrorCode = (typeof FIELD_ERROR)[keyof typeof FIELD_ERROR];

export interface FieldError {
  field: string;
  code: string;
  meta?: Record<string, unknown>;
  /** SPEC §8 'Application errors': an item naming a message code of its own (E001…); the browser shows that message. */
  errorCode?: string;
}

/** The format errors of a learner CSV (400 on POST organizations/{orgId}/users/preview; SPEC §8 CSV preview). */
export const CSV_FORMAT_ERRORS = [
  API_ERROR.exceedMaxSize,
  API_ERROR.fileNotFound,
  API_ERROR.invalidCsvFormat,
  API_ERROR.invalidHeader,
  API_ERROR.malformedCsv,
] as const;
export type CsvFormatError = (typeof CSV_FORMAT_ERRORS)[number];

/**
 * Row error codes of the learner CSV and of a learner's edit (SPEC §5 CSV upload, §8 field errors): name_id
 * invalid_format (shown as nameIdFormat) and the nameId rules by nameIdType; cannotBeChanged for a name or e-mail that
 * differs from the stored one; notFound and duplicated for a row's id.
 */
export const USER_ROW_ERROR = {
  invalidFormat: FIELD_ERROR.invalidFormat,
  tooLong: FIELD_ERROR.tooLong,
  cannotBeChanged: FIELD_ERROR.cannotBeChanged,
  notFound: FIELD_ERROR.notFound,
  duplicated: FIELD_ERROR.duplicated,
  nameIdMustBeBlankWhenNameIdTypeIsEmail: FIELD_ERROR.nameIdMustBeBlankWhenNameIdTypeIsEmail,
  nameIdMustBePresentWhenNameIdTypeIsNameId: FIELD_ERROR.nameIdMustBePresentWhenNameIdTypeIsNameId,
  nameIdMustBeBlankWhenIdpNotSpecified: FIELD_ERROR.nameIdMustBeBlankWhenIdpNotSpecified,
  lostCharacter: FIELD_ERROR.lostCharacter,
} as const;
export type UserRowErrorCode = (typeof USER_ROW_ERROR)[keyof typeof USER_ROW_ERROR];
