/**
 * The JSON body parser of every route. Before anything parses the text, one iterative pass over it measures its shape
 * against what the route's body schema allows (issue 7 finding 2, issue 25 finding 3), so that no body makes the
 * instance build a huge object graph or block its event loop:
 * - nested deeper than MAX_JSON_DEPTH (the wire conversion and the validators recurse): 400 bad_request;
 * - a list longer than the schema's longest (`maxItems`): 422 on that list, the answer the schema itself gives;
 * - an object with more keys than the schema's largest object declares, plus KEY_ALLOWANCE (unknown keys are
 *   dropped by the validators, so a few are harmless): 413 bad_request.
 * Then Fastify's own parser runs (secure-json-parse: __proto__ and constructor.prototype keys are refused as before),
 * and strings PostgreSQL cannot store (NUL, lone surrogates) are refused with 400 too.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { ApiError } from './errors.js';
import { FORM_MARKER, FormValidationError, getFormSchemas } from './validation.js';
import { toSnakeKey } from './wire.js';

export const MAX_JSON_DEPTH = 32;
/** Keys an object may carry beyond the most its schema declares (clients may send a few the validators drop). */
export const KEY_ALLOWANCE = 16;
/** The bounds of what a schema leaves open: a list without maxItems, an object of free keys, a route without a body schema. */
export const OPEN_MAX_ITEMS = 1000;
export const OPEN_MAX_KEYS = 100;

/** What a route's body may hold: its longest list, its largest object, and the keys its schema names (wire and code forms). */
export interface BodyBounds {
  maxItems: number;
  maxKeys: number;
  keys: ReadonlySet<string>;
}

type Schema = Record<string, unknown>;

const OPEN_BOUNDS: BodyBounds = { maxItems: OPEN_MAX_ITEMS, maxKeys: OPEN_MAX_KEYS, keys: new Set() };

/** The bounds of a body schema: plain JSON Schema, or a form marker (api/validation.ts) whose schemas use local `#/$defs/` references. */
function boundsOf(schema: Schema): BodyBounds {
  // a single-item array may stand for a scalar (ajv coerceTypes 'array'): one item is always allowed, and KEY_ALLOWANCE keys
  const bounds = { maxItems: 1, maxKeys: KEY_ALLOWANCE, keys: new Set<string>() };
  const seen = new Set<unknown>();
  const visit = (node: unknown, root: Schema): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    const schemaNode = node as Schema;
    const forms = schemaNode[FORM_MARKER] as string | string[] | undefined;
    for (const name of forms === undefined ? [] : [forms].flat()) visit(getFormSchemas()[name], getFormSchemas()[name] as Schema);
    const ref = schemaNode.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/$defs/')) visit((root.$defs as Schema | undefined)?.[ref.slice('#/$defs/'.length)], root);
    const types = [schemaNode.type ?? []].flat();
    if (types.includes('array') || 'items' in schemaNode) bounds.maxItems = Math.max(bounds.maxItems, typeof schemaNode.maxItems === 'number' ? schemaNode.maxItems : OPEN_MAX_ITEMS);
    const properties = (schemaNode.properties ?? {}) as Record<string, unknown>;
    const names = Object.keys(properties);
    for (const name of names) bounds.keys.add(name).add(toSnakeKey(name));
    const free = (types.includes('object') && names.length === 0) || (schemaNode.additionalProperties !== undefined && schemaNode.additionalProperties !== false) || 'patternProperties' in schemaNode;
    bounds.maxKeys = Math.max(bounds.maxKeys, free ? OPEN_MAX_KEYS : names.length + KEY_ALLOWANCE);
    for (const inner of [...Object.values(properties), schemaNode.items, schemaNode.if, schemaNode.then, schemaNode.else, schemaNode.not, schemaNode.additionalProperties]) visit(inner, root);
    for (const branch of [schemaNode.oneOf, schemaNode.anyOf, schemaNode.allOf].flat()) visit(branch, root);
  };
  visit(schema, schema);
  return bounds;
}

const boundsBySchema = new WeakMap<object, BodyBounds>();

/** The bounds of the request's route, worked out once per body schema. */
export function bodyBounds(request: FastifyRequest): BodyBounds {
  const schema = request.routeOptions.schema?.body as Schema | undefined;
  if (!schema || typeof schema !== 'object') return OPEN_BOUNDS;
  let bounds = boundsBySchema.get(schema);
  if (!bounds) boundsBySchema.set(schema, (bounds = boundsOf(schema)));
  return bounds;
}

/** What is wrong with a body's shape: too deep, a list too long (at: the wire path of the list), an object with too many keys. */
export type ShapeProblem = { kind: 'depth' } | { kind: 'items'; at: string[] } | { kind: 'keys' };

/** A container being read: how many elements (keys of an object) so far, and where its current key is in the text. */
interface Container {
  isArray: boolean;
  count: number;
  keyStart: number;
  keyEnd: number;
}

const BACKSLASH = 0x5c;

/** The index of the quote that ends the string starting after `open` (-1 if none): a quote behind an odd run of backslashes is escaped. */
function stringEnd(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  for (;;) {
    if (end === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function keyAt(text: string, container: Container): string {
  const raw = text.slice(container.keyStart, container.keyEnd);
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/** The wire path of the innermost container: each outer container's current key, or index. */
function pathOf(text: string, stack: readonly Container[]): string[] {
  return stack.slice(0, -1).map((container) => (container.isArray ? String(container.count - 1) : keyAt(text, container)));
}

/**
 * The first way a JSON text exceeds the bounds, or undefined; one pass, structure outside strings only. A malformed
 * text may pass: the parser refuses it afterwards.
 */
export function jsonShapeProblem(text: string, bounds: Pick<BodyBounds, 'maxItems' | 'maxKeys'>, maxDepth = MAX_JSON_DEPTH): ShapeProblem | undefined {
  const stack: Container[] = [];
  let startsElement = false; // after [ { or , : the next token starts an element of the innermost container
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === ':') continue;
    if (char === ']' || char === '}') {
      stack.pop();
      startsElement = false;
      continue;
    }
    if (char === ',') {
      startsElement = true;
      continue;
    }
    const container = stack.at(-1);
    const isKey = startsElement && container !== undefined && !container.isArray;
    if (startsElement && container) {
      startsElement = false;
      container.count++;
      if (container.isArray && container.count > bounds.maxItems) return { kind: 'items', at: pathOf(text, stack) };
      if (!container.isArray && container.count > bounds.maxKeys) return { kind: 'keys' };
    }
    if (char === '"') {
      const end = stringEnd(text, i);
      if (end === -1) return undefined;
      if (isKey) [container.keyStart, container.keyEnd] = [i + 1, end];
      i = end;
    } else if (char === '[' || char === '{') {
      stack.push({ isArray: char === '[', count: 0, keyStart: 0, keyEnd: 0 });
      if (stack.length > maxDepth) return { kind: 'depth' };
      startsElement = true;
    }
  }
  return undefined;
}

/** The answer to a body whose shape exceeds the route's bounds. */
function shapeError(problem: ShapeProblem): Error {
  if (problem.kind === 'depth') return new ApiError(400, API_ERROR.badRequest, `JSON body nested deeper than ${MAX_JSON_DEPTH}`);
  if (problem.kind === 'keys') return new ApiError(413, API_ERROR.badRequest, 'JSON body with an object of more keys than the route takes');
  return new FormValidationError([{ field: problem.at.join('.'), code: FIELD_ERROR.invalid, meta: {} }]);
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
    const problem = jsonShapeProblem(body as string, bodyBounds(request));
    if (problem) return done(shapeError(problem), undefined);
    parse(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if (!storableStrings(value)) return done(new ApiError(400, API_ERROR.badRequest, 'JSON body with a NUL or a lone surrogate'), undefined);
      done(null, value);
    });
  });
}
