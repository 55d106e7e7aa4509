/**
 * Wire conventions (SPEC §7): JSON keys travel in snake_case, code works in camelCase.
 * Request bodies are converted (and every string trimmed) before validation; responses are converted
 * back before serialisation.
 */
import { Readable } from 'node:stream';
import { toCamelKey, toSnakeKey } from '../../common/keyCase.js';

export { toCamelKey, toSnakeKey };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Deep copy of a parsed JSON body with camelCase keys and trimmed strings (arrays of objects too). Only the `known`
 * keys (the route's schema names them: api/jsonBody.ts bodyBounds) are remembered by the conversion; without `known`, all.
 */
export function fromWire(value: unknown, known?: ReadonlySet<string>): unknown {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map((item) => fromWire(item, known));
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === '__proto__') continue;
      result[toCamelKey(key, known?.has(key) ?? true)] = fromWire(inner, known);
    }
    return result;
  }
  return value;
}

/**
 * Deep copy with snake_case keys. Only plain objects and arrays are walked: Dates, Buffers and class
 * instances pass through for the serialiser.
 */
export function toWire(value: unknown): unknown {
  // every answer goes through here (lists of hundreds of rows too): no [key, value] pair per key, strings, numbers and
  // nulls (most values) returned before the object tests
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(toWire);
  if (isPlainObject(value)) {
    const result: Record<string, unknown> = {};
    for (const key of Object.keys(value)) result[toSnakeKey(key)] = toWire(value[key]);
    return result;
  }
  return value;
}

/** Turns a dot-free camelCase path ("users/0/firstName") into the wire's "users.0.first_name". */
export function wireField(segments: readonly (string | number)[]): string {
  return segments.map((segment) => (typeof segment === 'number' ? String(segment) : toSnakeKey(segment))).join('.');
}

/** The type of the answers written by the routes rather than serialised by Fastify (streamed lists, lists PostgreSQL wrote). */
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The answer {...head, [key]: [...]} with the list written a batch at a time as `batches` yields them (issue 27): a
 * large list is never one object in memory nor one long turn of the event loop. Everything goes through toWire like
 * any other answer.
 */
export function streamedList(key: string, batches: AsyncIterable<readonly unknown[]>, head: Record<string, unknown> = {}): Readable {
  return streamedWireList(key, mapBatches(batches, wireItems), head);
}

/** The same answer from batches of items already written as JSON, in wire form. */
export function streamedJsonList(key: string, batches: AsyncIterable<readonly string[]>, head: Record<string, unknown> = {}): Readable {
  return streamedWireList(key, mapBatches(batches, (items) => joined('', items, '')), head);
}

/** The same answer from batches already in wire form (wireItems): a list whose batches are kept until its answer. */
export function streamedWireList(key: string, batches: AsyncIterable<Buffer>, head: Record<string, unknown> = {}): Readable {
  return Readable.from(listParts(key, batches, head), { objectMode: false });
}

/**
 * Items as one batch of a streamed list: JSON in wire form, comma-separated, in one buffer outside the JavaScript
 * heap. A list kept until its answer is kept so: 100,000 checked learners kept as objects were copied by every
 * young-generation collection until they reached the old one.
 */
export function wireItems(items: readonly unknown[]): Buffer {
  return joined('', items.map((item) => JSON.stringify(toWire(item))), '');
}

async function* mapBatches<T, U>(batches: AsyncIterable<T>, map: (batch: T) => U): AsyncGenerator<U> {
  for await (const batch of batches) yield map(batch);
}

async function* listParts(key: string, batches: AsyncIterable<Buffer>, head: Record<string, unknown>): AsyncGenerator<string | Buffer> {
  const opening = JSON.stringify(toWire(head)).slice(0, -1);
  yield `${opening === '{' ? '{' : `${opening},`}${JSON.stringify(toSnakeKey(key))}:[`;
  let first = true;
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    if (!first) yield ',';
    yield batch;
    first = false;
  }
  yield ']}';
}

/**
 * The answer `{"key":[items]…}` of a list whose items come written (JSON in wire form, by PostgreSQL), as one buffer;
 * `after`: the answer's members after the list (`,"next_page":2`). Joined into one string, a page of 999 applications
 * (780 KB of UTF-16) is allocated straight in the old generation, which only a full collection frees (issue 47).
 */
export function jsonListAnswer(key: string, items: readonly string[], after = ''): Buffer {
  return joined(`{${JSON.stringify(toSnakeKey(key))}:[`, items, `]${after}}`);
}

/**
 * `before`, the items comma-separated and `after` as one buffer outside the JavaScript heap, sized first and each item
 * encoded straight into it (no buffer an item, nothing copied twice). Never one long string: V8 allocates a string
 * over 128 KB straight in the old generation, and a batch of 500 learners as one string (~440 KB of UTF-16) made the
 * collector compact the whole heap once per download of the list (issue 27).
 */
function joined(before: string, items: readonly string[], after: string): Buffer {
  const commas = Math.max(items.length - 1, 0);
  const buffer = Buffer.allocUnsafe(items.reduce((bytes, item) => bytes + Buffer.byteLength(item), Buffer.byteLength(before) + commas + Buffer.byteLength(after)));
  let offset = buffer.write(before);
  for (const [index, item] of items.entries()) {
    if (index > 0) offset += buffer.write(',', offset, 'latin1');
    offset += buffer.write(item, offset);
  }
  buffer.write(after, offset);
  return buffer;
}
