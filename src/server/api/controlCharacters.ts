/**
 * Control characters outside JSON bodies (issue 15 finding 5): no path, query value, form field or credential of the
 * portal or its identity provider carries one, and PostgreSQL cannot store NUL (a query with one answered 500). One
 * check, `hasControlCharacter`, and one hook early in every request (`refuseControlCharacters`): the path and query
 * (percent-decoded) and HTTP Basic credentials (base64-decoded) → 400 bad_request. The form parsers (the sign-in form,
 * the provider's own endpoints, multipart fields) call the same check. JSON bodies: api/jsonBody.ts.
 */
import type { FastifyInstance } from 'fastify';
import { API_ERROR } from '../../common/errorCodes.js';
import { ApiError } from './errors.js';

/** C0 controls (NUL, tab, line breaks, …) and DEL. */
const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text);
}

/** Whether some key or value of form fields (as URLSearchParams or entries) holds a control character. */
export function formHasControlCharacter(fields: Iterable<[string, string]>): boolean {
  for (const [key, value] of fields) if (hasControlCharacter(key) || hasControlCharacter(value)) return true;
  return false;
}

export function controlCharacterError(where: string): ApiError {
  return new ApiError(400, API_ERROR.badRequest, `control character in the ${where}`);
}

/** The decoded path; undefined when it is not valid percent-encoding (Fastify answers that one itself). */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** `Authorization: Basic …` decoded, or undefined for other schemes. */
function basicCredentials(header: string | undefined): string | undefined {
  const match = header ? /^Basic\s+(\S*)/i.exec(header) : null;
  return match ? Buffer.from(match[1]!, 'base64').toString('utf8') : undefined;
}

/** The headers that carry credentials: Authorization and the portal's tokens (x-v2-admin-auth-token, …). */
const isCredentialHeader = (name: string) => name === 'authorization' || name.startsWith('x-v2-admin-');

/** Where a request's URL or credentials carry a control character, else undefined. */
export function controlCharacterPlace(url: string, headers: Record<string, string | string[] | undefined>): string | undefined {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  if (hasControlCharacter(decodedPath(path) ?? '')) return 'path';
  if (queryStart !== -1 && formHasControlCharacter(new URLSearchParams(url.slice(queryStart + 1)))) return 'query';
  // every request passes here: no [name, value] pair per header
  for (const name of Object.keys(headers)) {
    if (!isCredentialHeader(name)) continue;
    const value = headers[name];
    const text = typeof value === 'string' ? value : [value ?? ''].flat().join(',');
    // only Authorization carries Basic credentials; a portal token header's value is a token, whatever its first word
    const decoded = name === 'authorization' ? basicCredentials(text) : undefined;
    if (hasControlCharacter(text) || hasControlCharacter(decoded ?? '')) return 'credentials';
  }
  return undefined;
}

/** The hook: before routing's handlers and every other hook of the portal, the API and the identity provider. */
export function refuseControlCharacters(app: FastifyInstance): void {
  // synchronous (done callback): it runs on every request
  app.addHook('onRequest', (request, _reply, done) => {
    const place = controlCharacterPlace(request.url, request.headers);
    done(place ? controlCharacterError(place) : undefined);
  });
}
