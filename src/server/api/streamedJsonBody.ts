/**
 * A JSON body that is one long list of flat rows, `{"users": [{…}, …]}` (POST …/users/bulk_update: 100,000 learners,
 * 20 MB), read as it arrives (issue 27): tokenized a chunk at a time with a turn of the event loop between chunks,
 * each row checked and converted to the code's form as it completes, never the whole text or tree at once. The JSON
 * parser of every other route (api/jsonBody.ts) held the event loop about 300 ms for such a body.
 *
 * Its answers are that parser's: more than the route's body limit 413; not JSON, a value nested in a row, a NUL or a
 * lone surrogate, a `__proto__` key: 400; a list of more items than the schema's maxItems: 422 on the list; an object
 * of more keys than the schema's largest plus KEY_ALLOWANCE: 413; and a string or number of more than MAX_TOKEN_BYTES:
 * 413. The bounds are counted as the text is read, so the refusal comes at the first key, item or byte past them,
 * before the object, list or string is built (issue 44 finding 7: a row of 1.4 M keys was built before it was
 * counted, the process grew 270 MB). The body comes out converted (camelCase keys, trimmed strings), and the route's schema then
 * validates it like any other.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';
import { API_ERROR, FIELD_ERROR } from '../../common/errorCodes.js';
import { ApiError } from './errors.js';
import { bodyBounds, storableStrings, type BodyBounds } from './jsonBody.js';
import { FormValidationError } from './validation.js';
import { fromWire, toCamelKey } from './wire.js';

/** Bodies already in the code's form: the API's conversion of every body (api/index.ts) leaves them as they are. */
export const convertedBodies = new WeakSet<object>();

/**
 * The longest string (key or value) or number a body may hold, bytes as sent: the row schema's longest string, nameId's
 * 1,000 characters, fits even written as escaped surrogate pairs (12 bytes a character); a longer one is the schema's
 * to refuse (maxLength, 422) as long as it fits.
 */
export const MAX_TOKEN_BYTES = 16 * 1024;

/** How deep a row is: in the body's object, in its list. A container inside a row is no flat row. */
const ROW_DEPTH = 3;

/** This plugin's JSON bodies are `{[list]: rows}`, read as they arrive. */
export function installStreamedListParser(app: FastifyInstance, list: string): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) => readList(request, payload, list));
}

const tooLarge = () => new ApiError(413, API_ERROR.badRequest, "JSON body over the route's limit");
const notJson = (reason: string) => new ApiError(400, API_ERROR.badRequest, `JSON body: ${reason}`);
const tooManyKeys = () => new ApiError(413, API_ERROR.badRequest, 'JSON body with an object of more keys than the route takes');
const tooLong = () => new ApiError(413, API_ERROR.badRequest, `JSON body with a string or number of more than ${MAX_TOKEN_BYTES} bytes`);

async function readList(request: FastifyRequest, payload: Readable, list: string): Promise<unknown> {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  if (Number(request.headers['content-length'] ?? 0) > limit) throw tooLarge();
  const bounds = bodyBounds(request);
  const rows: unknown[] = [];
  const shape = new BodyShape(list, bounds);
  const lengths = new TokenLengths();
  const tokenizer = new Tokenizer();
  // only the rows are emitted, each deleted from the list as it is (keepStack): the tree never holds them all
  const parser = new TokenParser({ paths: [`$.${list}.*`], keepStack: false });
  tokenizer.onToken = (token) => {
    const feed = shape.see(token.token, token.value);
    if (feed === 'token') parser.write(token);
    else if (feed === 'null') parser.write({ ...token, token: TokenType.NULL, value: null });
  };
  tokenizer.onEnd = () => {
    if (!parser.isEnded) parser.end(); // a document left open is refused there
  };
  parser.onValue = ({ value, parent }) => {
    if (Array.isArray(parent)) rows.push(checkedRow(value, bounds));
  };
  let bytes = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limit) throw tooLarge(); // leaving the loop destroys the payload: nothing more is read
    lengths.see(chunk); // before the tokenizer gathers a long string
    tokenize(() => tokenizer.write(chunk));
    await nextTurn(); // other requests between chunks, even when the whole body has arrived
  }
  tokenize(() => tokenizer.end());
  // the body's other members are dropped as the schema drops them (additionalProperties: false)
  const body = { [toCamelKey(list)]: shape.listValue(rows) };
  convertedBodies.add(body);
  return body;
}

/** What the parser is given for a token: the token, a null in place of a member the body is not read for, or nothing (inside that member). */
type Feed = 'token' | 'null' | 'nothing';

/** A container of the body being read: its elements so far (an object's keys), and an object's current key. */
interface Container {
  isArray: boolean;
  count: number;
  expectingKey: boolean;
  key: unknown;
}

/**
 * What the body is, followed token by token before the parser builds anything of it: an object (else 400 as the
 * schema's type), no container nested inside a row, no object of more than `maxKeys` keys (the body's own named neither
 * `__proto__` nor `constructor`, refused as secure-json-parse refuses them), no list of more than `maxItems` items;
 * and what its list member was. Only the list is given to the parser: another member's object or list, which the
 * schema drops, is counted here and given as a null, never built.
 */
class BodyShape {
  private readonly stack: Container[] = [];
  /** The depth of the member being counted but not given to the parser (0: none). */
  private skipped = 0;
  /** What the list member was: an array (its rows are read), missing, or another value (the schema refuses it). */
  private list: { kind: 'array' } | { kind: 'missing' } | { kind: 'other'; value: unknown } = { kind: 'missing' };

  constructor(
    private readonly listKey: string,
    private readonly bounds: Pick<BodyBounds, 'maxItems' | 'maxKeys'>,
  ) {}

  see(token: TokenType, value: unknown): Feed {
    const container = this.stack.at(-1);
    if (!container && token !== TokenType.LEFT_BRACE) throw new FormValidationError([{ field: '', code: FIELD_ERROR.invalid, meta: {} }]);
    let feed: Feed = this.skipped > 0 ? 'nothing' : 'token';
    if (container?.isArray) this.seeItem(container, token);
    else if (container && this.seeMember(container, token, value)) feed = 'null';
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      this.stack.push({ isArray: token === TokenType.LEFT_BRACKET, count: 0, expectingKey: token === TokenType.LEFT_BRACE, key: undefined });
      if (this.stack.length > ROW_DEPTH) throw notJson('a value nested in a row');
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) this.stack.pop();
    if (feed === 'null') this.skipped = this.stack.length;
    else if (this.skipped > this.stack.length) this.skipped = 0; // the skipped member ended
    return feed;
  }

  /** A token of a list: the start of an item, a comma or its end. */
  private seeItem(container: Container, token: TokenType): void {
    if (token === TokenType.COMMA || token === TokenType.RIGHT_BRACKET) return;
    container.count += 1;
    if (container.count > this.bounds.maxItems) throw new FormValidationError([{ field: this.path().join('.'), code: FIELD_ERROR.invalid, meta: {} }]);
  }

  /**
   * A token of an object: a member's key, its colon, the start of its value, a comma or its end. Whether it starts an
   * object or a list in the body that is not its list member (not to be built).
   */
  private seeMember(container: Container, token: TokenType, value: unknown): boolean {
    const body = this.stack.length === 1;
    if (container.expectingKey && token === TokenType.STRING) {
      if (body && (value === '__proto__' || value === 'constructor')) throw notJson(`a ${String(value)} key`);
      container.count += 1;
      if (container.count > this.bounds.maxKeys) throw tooManyKeys();
      container.key = value;
      container.expectingKey = false;
    } else if (token === TokenType.COMMA) container.expectingKey = true;
    else if (body && token !== TokenType.COLON && token !== TokenType.RIGHT_BRACE) {
      const isList = container.key === this.listKey;
      if (isList) this.list = token === TokenType.LEFT_BRACKET ? { kind: 'array' } : { kind: 'other', value: token === TokenType.LEFT_BRACE ? {} : value };
      return token === TokenType.LEFT_BRACE || (token === TokenType.LEFT_BRACKET && !isList);
    }
    return false;
  }

  /** The wire path of the innermost container: each outer one's current key, or index. */
  private path(): string[] {
    return this.stack.slice(0, -1).map((container) => (container.isArray ? String(container.count - 1) : String(container.key)));
  }

  /** The list member as the schema will see it: the rows read, nothing, or the value that was no list. */
  listValue(rows: unknown[]): unknown {
    return this.list.kind === 'array' ? rows : this.list.kind === 'other' ? this.list.value : undefined;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** The bytes a JSON number is written with. */
const NUMBER_BYTES = new Uint8Array(256);
for (const char of '0123456789+-.eE') NUMBER_BYTES[char.charCodeAt(0)] = 1;

/**
 * The length of each string and number of the body, in bytes as they arrive, measured before the tokenizer reads them:
 * the tokenizer gathers a string whole before it passes it on, so a long one would be built before anything could
 * count it. Exact for JSON; a text that is not may be measured wrong, and the tokenizer refuses it anyway.
 */
class TokenLengths {
  private inString = false;
  /** Inside a string, after a backslash: the next byte is escaped. */
  private escaped = false;
  /** Bytes of the string or number being read. */
  private length = 0;

  see(chunk: Buffer): void {
    // an indexed loop: iterating the Buffer took four times as long (about 350 ms for 22 MB)
    for (let index = 0; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) {
          this.inString = false;
          this.length = 0;
          continue;
        }
      } else if (byte === QUOTE) {
        this.inString = true;
        continue;
      } else if (NUMBER_BYTES[byte] === 0) {
        this.length = 0;
        continue;
      }
      this.length += 1;
      if (this.length > MAX_TOKEN_BYTES) throw tooLong();
    }
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

/** A row as the generic parser would let it through, converted: storable, with no `__proto__` or `constructor` key (its keys are counted as they are read). */
function checkedRow(value: unknown, bounds: BodyBounds): unknown {
  if (value !== null && typeof value === 'object' && (Object.getPrototypeOf(value) !== Object.prototype || Object.hasOwn(value, 'constructor'))) throw notJson('a __proto__ or constructor key');
  if (!storableStrings(value)) throw notJson('a NUL or a lone surrogate');
  return fromWire(value, bounds.keys);
}
