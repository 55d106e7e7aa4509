/**
 * The JSON body parser of every route (issue 7 finding 2): a body nested deeper than MAX_JSON_DEPTH is refused
 * with 400 before anything walks it (the wire conversion and the validators recurse, and a few KiB of brackets
 * would overflow the stack). The depth is measured on the raw text in one iterative pass; then Fastify's own
 * parser runs (secure-json-parse: __proto__ and constructor.prototype keys are refused as before).
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

export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      done(new ApiError(400, API_ERROR.badRequest, `JSON body nested deeper than ${MAX_JSON_DEPTH}`), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
