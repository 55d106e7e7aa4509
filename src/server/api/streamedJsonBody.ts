/**
 * A JSON body that is one long list of flat rows, `{"users": [{…}, …]}` (POST …/users/bulk_update: 100,000 learners,
 * 20 MB), read as it arrives (issue 27): tokenized a chunk at a time with a turn of the event loop between chunks,
 * each row checked and converted to the code's form as it completes, never the whole text or tree at once. The JSON
 * parser of every other route (api/jsonBody.ts) held the event loop about 300 ms for such a body.
 *
 * Its answers are that parser's: more than the route's body limit 413; not JSON, a value nested in a row, a NUL or a
 * lone surrogate, a `__proto__` key: 400; more rows than the schema's maxItems: 422 on the list; an object of more keys
 * than the schema's largest plus KEY_ALLOWANCE: 413. The body comes out converted (camelCase keys, trimmed strings),
 * and the route's schema then validates it like any other.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { ApiError } from './errors.js';
import { bodyBounds, storableStrings } from './jsonBody.js';
import { FormValidationError } from './validation.js';
import { fromWire, toCamelKey } from './wire.js';

/** Bodies already in the code's form: the API's conversion of every body (api/index.ts) leaves them as they are. */
export const convertedBodies = new WeakSet<object>();

/** How deep a row is: in the body's object, in its list. A container inside a row is no flat row. */
const ROW_DEPTH = 3;

/** This plugin's JSON bodies are `{[list]: rows}`, read as they arrive. */
export function installStreamedListParser(app: FastifyInstance, list: string): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) => readList(request, payload, list));
}

const tooLarge = () => new ApiError(413, API_ERROR.badRequest, "JSON body over the route's limit");
const notJson = (reason: string) => new ApiError(400, API_ERROR.badRequest, `JSON body: ${reason}`);

async function readList(request: FastifyRequest, payload: Readable, list: string): Promise<unknown> {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  if (Number(request.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const bounds = bodyBounds(request);
  const rows: unknown[] = [];
  const shape = new BodyShape(list, bounds.maxKeys);
  const tokenizer = new Tokenizer();
  // only the rows are emitted, each deleted from the list as it is (keepStack): the tree never holds them all
  const parser = new TokenParser({ paths: [`$.${list}.*`], keepStack: false });
  tokenizer.onToken = (token) => {
    shape.see(token.token, token.value);
    parser.write(token);
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end(); // a document left open is refused there
  };
  parser.onValue = ({ value, parent }) => {
    if (Array.isArray(parent)) rows.push(checkedRow(value, rows.length, bounds, list));
  };
  let bytes = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw tooLarge(); // leaving the loop destroys the payload: nothing more is read
    tokenize(() => tokenizer.write(chunk));
    await nextTurn(); // other requests between chunks, even when the whole body has arrived
  }
  tokenize(() => tokenizer.end());
  // the body's other members are dropped as the schema drops them (additionalProperties: false)
  const body = { [toCamelKey(list)]: shape.listValue(rows) };
  convertedBodies.add(body);
  return body;
}

/**
 * What the body is around its rows, followed token by token: an object (else 400 as the schema's type), of at most
 * `maxKeys` members, none named `__proto__` or `constructor` (refused as secure-json-parse refuses them), its list an
 * array, no container nested inside a row.
 */
class BodyShape {
  private depth = 0;
  private members = 0;
  private expectingKey = false;
  private key: unknown;
  /** What the list member was: an array (its rows are read), missing, or another value (the schema refuses it). */
  private list: { kind: 'array' } | { kind: 'missing' } | { kind: 'other'; value: unknown } = { kind: 'missing' };

  constructor(
    private readonly listKey: string,
    private readonly maxKeys: number,
  ) {}

  see(token: TokenType, value: unknown): void {
    const opens = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
    if (this.depth === 0 && token !== TokenType.LEFT_BRACE) throw new FormValidationError([{ field: '', code: FIELD_ERROR.invalid, meta: {} }]);
    if (this.depth === 1) this.seeMember(token, value);
    if (opens) {
      this.depth += 1;
      if (this.depth > ROW_DEPTH) throw notJson('a value nested in a row');
      if (this.depth === 1) this.expectingKey = true;
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) this.depth -= 1;
  }

  /** A token of the body object itself: a member's key, its colon, the start of its value, or a comma. */
  private seeMember(token: TokenType, value: unknown): void {
    if (this.expectingKey && token === TokenType.STRING) {
      if (value === '__proto__' || value === 'constructor') throw notJson(`a ${String(value)} key`);
      this.members += 1;
      if (this.members > this.maxKeys) throw new ApiError(413, API_ERROR.badRequest, 'JSON body with an object of more keys than the route takes');
      this.key = value;
      this.expectingKey = false;
    } else if (token === TokenType.COMMA) this.expectingKey = true;
    else if (token !== TokenType.COLON && token !== TokenType.RIGHT_BRACE && this.key === this.listKey) {
      this.list = token === TokenType.LEFT_BRACKET ? { kind: 'array' } : { kind: 'other', value: token === TokenType.LEFT_BRACE ? {} : value };
    }
  }

  /** The list member as the schema will see it: the rows read, nothing, or the value that was no list. */
  listValue(rows: unknown[]): unknown {
    return this.list.kind === 'array' ? rows : this.list.kind === 'other' ? this.list.value : undefined;
  }
}

/** Runs the tokenizer: its own errors (not JSON, cut short) are a bad request, the checks' answers pass as they are. */
function tokenize(step: () => void): void {
  try {
    step();
  } catch (error) {
    if (error instanceof ApiError || error instanceof FormValidationError) throw error;
    throw notJson((error as Error).message);
  }
}

/** A row as the generic parser would let it through, converted: within the list's and the objects' bounds, storable. */
function checkedRow(value: unknown, index: number, bounds: ReturnType<typeof bodyBounds>, list: string): unknown {
  if (index >= bounds.maxItems) throw new FormValidationError([{ field: list, code: FIELD_ERROR.invalid, meta: {} }]);
  if (value !== null && typeof value === 'object') {
    if (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, 'constructor')) throw notJson('a __proto__ or constructor key');
    if (Object.keys(value).length > bounds.maxKeys) throw new ApiError(413, API_ERROR.badRequest, 'JSON body with an object of more keys than the route takes');
  }
  if (!storableStrings(value)) throw notJson('a NUL or a lone surrogate');
  return fromWire(value, bounds.keys);
}
