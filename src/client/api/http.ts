/**
 * The one HTTP client of the browser (SPEC §7 General): base /api/v2 (notices /api/v1), snake_case keys
 * out and camelCase keys in, a per-call timeout (default 300000 ms), retries of idempotent calls on
 * network failure only, the x-v2-admin-auth-token header whenever a token is given, and one typed error.
 *
 * No module state: `createHttpClient({fetch})` returns a client; tests inject their own fetch.
 */
import fetchBuilder from 'fetch-retry';
import type { FieldError } from '../../common/errorCodes.js';
import { DEFAULT_TIMEOUT_MS, NETWORK_RETRIES, NETWORK_RETRY_BASE_DELAY_MS } from '../state/constants.js';
import { camelCasePath, toCamelKeys, toSnakeKeys } from './caseConversion.js';
import type { UploadProgress } from './xhrTransport.js';

export type ApiVersion = 'v2' | 'v1';
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
export type QueryValue = string | number | boolean | null | undefined;

export const AUTH_TOKEN_HEADER = 'x-v2-admin-auth-token';
const IDEMPOTENT_METHODS: ReadonlySet<HttpMethod> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

export interface RequestOptions {
  /** Default GET. */
  method?: HttpMethod;
  /** Relative to the API root, e.g. 'organizations/1/contacts' (a leading slash is allowed). */
  path: string;
  /** JSON body (keys snake_cased), or FormData/Blob/URLSearchParams/string sent as is. */
  body?: unknown;
  /** Keys are snake_cased; arrays repeat the key; null and undefined are left out. */
  query?: Record<string, QueryValue | readonly QueryValue[]>;
  /** Default DEFAULT_TIMEOUT_MS (300000). */
  timeoutMs?: number;
  /** Default 'v2'; notices use 'v1'. */
  version?: ApiVersion;
  /** Extra headers (e.g. x-v2-admin-activate-token), sent verbatim. */
  headers?: Record<string, string>;
  /** Send the body as multipart/form-data without key conversion (a plain object becomes FormData). */
  multipart?: boolean;
  /** Access token; when present the auth header is added. callApi fills it from the session. */
  token?: string | null;
  /** 'auto' (default): JSON responses are parsed and camelCased, others returned as text. */
  responseType?: 'auto' | 'json' | 'text';
  /** Aborts the call (e.g. the calling saga was cancelled). */
  signal?: AbortSignal;
  /** Told how much of the body has been sent (sent over XMLHttpRequest, as fetch cannot tell; never retried). */
  onUploadProgress?: UploadProgress;
}

export type ApiErrorKind = 'http' | 'timeout' | 'network';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  method: HttpMethod;
  path: string;
  status?: number;
  code?: string;
  fieldErrors?: FieldError[];
  body?: unknown;
  cause?: unknown;
}

/** Every failure of a call: an HTTP error status, a timeout, or a network failure (no status). */
export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly method: HttpMethod;
  readonly path: string;
  /** HTTP status (kind 'http' only). */
  readonly status?: number;
  /** body.error of the response, e.g. 'access_token_expired'. */
  readonly code?: string;
  /** body.errors of the response ({field, code, meta}), field names camelCased per dot-path segment. */
  readonly fieldErrors?: FieldError[];
  /** The response body, camelCased when it was JSON. */
  readonly body?: unknown;

  constructor(init: ApiErrorInit) {
    const what = `${init.method} ${init.path}`;
    const message =
      init.kind === 'http'
        ? `${what} failed: HTTP ${init.status}${init.code ? ` (${init.code})` : ''}`
        : init.kind === 'timeout'
          ? `${what} timed out`
          : `${what} failed: network error`;
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    if (init.status !== undefined) this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    if (init.fieldErrors !== undefined) this.fieldErrors = init.fieldErrors;
    if (init.body !== undefined) this.body = init.body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpClientOptions {
  /** Default: the global fetch, looked up at call time. */
  fetch?: FetchLike;
  /** Origin prefix of the API, default '' (same origin). */
  baseUrl?: string;
  /** Network-failure retries of idempotent calls, default NETWORK_RETRIES. */
  retries?: number;
  /** Backoff before retry n (0-based), default 300 ms × 2^n. */
  retryDelay?: (attempt: number) => number;
  /** The transport of calls that report upload progress; default XMLHttpRequest, or the injected fetch (no progress). */
  uploadTransport?: (onUploadProgress: UploadProgress) => FetchLike;
}

export interface HttpClient {
  request<T = unknown>(options: RequestOptions): Promise<T>;
}

/** '/api/v2/organizations/1/contacts?per_page=999' */
export function apiUrl(
  version: ApiVersion,
  path: string,
  query?: RequestOptions['query'],
  baseUrl = '',
): string {
  const url = `${baseUrl}/api/${version}/${path.replace(/^\/+/, '')}`;
  if (!query) return url;
  const params = new URLSearchParams();
  const snakeQuery = toSnakeKeys<Record<string, QueryValue | readonly QueryValue[]>>(query);
  for (const [key, value] of Object.entries(snakeQuery)) {
    const values: readonly QueryValue[] = Array.isArray(value) ? value : [value as QueryValue];
    for (const item of values) if (item !== null && item !== undefined) params.append(key, String(item));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function isRawBody(body: unknown): boolean {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function toFormData(body: unknown): FormData {
  if (body instanceof FormData) return body;
  const form = new FormData();
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Blob) form.append(key, value);
    else form.append(key, String(value));
  }
  return form;
}

function extractFieldErrors(body: unknown): FieldError[] | undefined {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return undefined;
  const fieldErrors = errors.flatMap((item): FieldError[] => {
    if (item === null || typeof item !== 'object') return [];
    const { field, code, meta, errorCode } = item as { field?: unknown; code?: unknown; meta?: unknown; errorCode?: unknown };
    if (typeof field !== 'string' || (typeof code !== 'string' && typeof errorCode !== 'string')) return [];
    const fieldError: FieldError = { field: camelCasePath(field), code: typeof code === 'string' ? code : '' };
    if (meta !== null && typeof meta === 'object') fieldError.meta = meta as Record<string, unknown>;
    if (typeof errorCode === 'string') fieldError.errorCode = errorCode;
    return [fieldError];
  });
  return fieldErrors.length > 0 ? fieldErrors : undefined;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const baseFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const retries = options.retries ?? NETWORK_RETRIES;
  const retryDelay = options.retryDelay ?? ((attempt: number) => NETWORK_RETRY_BASE_DELAY_MS * 2 ** attempt);
  const fetchWithRetry = fetchBuilder(baseFetch);
  // the XMLHttpRequest transport is loaded when a file is first sent (not part of the first visit)
  const uploadTransport =
    options.uploadTransport ??
    (options.fetch ? () => baseFetch : (onUploadProgress: UploadProgress): FetchLike => async (url, init) => (await import(/* webpackChunkName: "xhr-transport" */ './xhrTransport.js')).xhrTransport(onUploadProgress)(url, init));

  async function request<T = unknown>(requestOptions: RequestOptions): Promise<T> {
    const method = requestOptions.method ?? 'GET';
    const { path, body, token, multipart } = requestOptions;
    const url = apiUrl(requestOptions.version ?? 'v2', path, requestOptions.query, options.baseUrl);
    const timeoutMs = requestOptions.timeoutMs ?? DEFAULT_TIMEOUT_MS;

    const headers: Record<string, string> = { accept: 'application/json' };
    let payload: BodyInit | undefined;
    if (body !== undefined && method !== 'GET' && method !== 'HEAD') {
      if (multipart) payload = toFormData(body);
      else if (isRawBody(body)) payload = body as BodyInit;
      else {
        headers['content-type'] = 'application/json; charset=utf-8';
        payload = JSON.stringify(toSnakeKeys(body));
      }
    }
    Object.assign(headers, requestOptions.headers);
    if (token) headers[AUTH_TOKEN_HEADER] = `Bearer ${token}`;

    const controller = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    const external = requestOptions.signal;
    const abortFromCaller = () => controller.abort();
    if (external?.aborted) controller.abort();
    external?.addEventListener('abort', abortFromCaller, { once: true });

    const fail = (kind: ApiErrorKind, extra: Partial<ApiErrorInit> = {}) =>
      new ApiError({ kind, method, path, ...extra });

    try {
      let response: Response;
      try {
        const send = requestOptions.onUploadProgress ? fetchBuilder(uploadTransport(requestOptions.onUploadProgress)) : fetchWithRetry;
        response = await send(url, {
          method,
          headers,
          body: payload,
          signal: controller.signal,
          retryOn: (attempt: number, error: Error | null) =>
            // a write with an Idempotency-Key is safe to resend: the server answers the repeat with the first answer
            error !== null && (IDEMPOTENT_METHODS.has(method) || 'idempotency-key' in headers) && attempt < retries && !controller.signal.aborted,
          retryDelay,
        });
      } catch (cause) {
        throw fail(timedOut ? 'timeout' : 'network', { cause });
      }

      let text: string;
      try {
        text = await response.text();
      } catch (cause) {
        throw fail(timedOut ? 'timeout' : 'network', { cause });
      }
      const contentType = response.headers.get('content-type') ?? '';
      const responseType = requestOptions.responseType ?? 'auto';
      const wantsJson = responseType === 'json' || (responseType === 'auto' && /\bjson\b/i.test(contentType));
      let data: unknown = text;
      let parseError: unknown;
      if (text === '') data = undefined;
      else if (wantsJson) {
        try {
          data = toCamelKeys(JSON.parse(text));
        } catch (error) {
          parseError = error;
        }
      }

      if (!response.ok) {
        const bodyObject = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : undefined;
        const code = typeof bodyObject?.error === 'string' ? bodyObject.error : undefined;
        throw fail('http', {
          status: response.status,
          ...(code === undefined ? {} : { code }),
          ...(bodyObject ? { fieldErrors: extractFieldErrors(bodyObject) } : {}),
          ...(data === undefined ? {} : { body: data }),
        });
      }
      if (parseError !== undefined) throw fail('http', { status: response.status, body: text, cause: parseError });
      return data as T;
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      external?.removeEventListener('abort', abortFromCaller);
    }
  }

  return { request };
}
