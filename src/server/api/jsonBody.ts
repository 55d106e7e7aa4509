/**
 * The JSON body parser of every route (issue 7 finding 2): a body nested deeper than MAX_JSON_DEPTH is refused
 * with 400 before anything walks it (the wire conversion and the validators recurse, and a few KiB of brackets
 * would overflow the stack). The depth is measured on the raw text in one iterative pass; then Fastify's own
 * parser runs (secure-json-parse: __proto__ and constructor.prototype keys are refused as before), and strings
 * PostgreSQL cannot store (NUL, lone surrogates) are refused with 400 too.
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';
import { API_ERROR } from '../../common/errorCodes.js';

export const MAX_JSON_DEPTH = 32;

/** The deepest nesting of objects and arrays in a JSON text (brackets inside strings do not count). */
export function jsonDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++; // backslash: skip the escaped character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > stopAbove) return deepest;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return deepest;
}

/** NUL and lone UTF-16 surrogates: valid JSON escapes that PostgreSQL cannot store in text (it answered 500). */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether every string (and key) of a parsed body can be stored; an iterative walk, the depth is already bounded. */
export function storableStrings(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return false;
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item); // not push(...value): a long array would overflow the call
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) stack.push(key, inner);
    }
  }
  return true;
}

export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new ApiError(400, API_ERROR.badRequest, `JSON body nested deeper than ${MAX_JSON_DEPTH}`), undefined);
      return;
    }
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (!storableStrings(value)) return done(new ApiError(400, API_ERROR.badRequest, 'JSON body with a NUL or a lone surrogate'), undefined);
      done(null, value);
    });
  });
}
