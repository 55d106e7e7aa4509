export { ApiError, AUTH_TOKEN_HEADER, apiUrl, createHttpClient, isApiError } from './http.js';
export type { ApiErrorKind, ApiVersion, FetchLike, HttpClient, HttpClientOptions, HttpMethod, RequestOptions } from './http.js';
export { callApi, type CallApiOptions, type CallApiRequest } from './callApi.js';
export { classifyApiError, handleApiError, isSessionExpiredError, reauthenticationUrl, type GeneralHandling } from './errorCatalogue.js';
export { fieldErrorMessage, fieldErrorsToFormErrors, type FormErrorMessage, type FormErrors } from './fieldErrors.js';
export { errorReportFor, reportError, type ErrorReport } from './report.js';
export { API_CONTEXT, type ApiSagaContext, type Navigate } from './context.js';
export { camelCasePath, toCamelKeys, toSnakeKeys } from './caseConversion.js';
