/**
 * The conditions (`when`) of the screen definitions: JSON Schemas over the screen context, precompiled at build time
 * into one module (scripts/generate.ts) so the browser never compiles code. A condition is found by its JSON text.
 *
 * What a file may write (docs/configuration.md 'Conditions'), each turned here, and only here, into the full JSON
 * Schema that is compiled, checked and looked up:
 * - a name: `"when": "withClass"`, a condition of the screen's own `conditions` or of screens/conditions.json;
 * - a list: all of its conditions hold (`allOf`): `["manager", {"not": "ownRow"}]`;
 * - the short form, an object whose keys are paths into the context: `{"load": "loaded"}`,
 *   `{"form.projectClassId": {"minimum": 1}}`. The value at the path must exist and match the path's value: a JSON
 *   Schema object, an array (one of these values: `enum`) or any other value (that value: `const`; `true` is the
 *   value true, not JSON Schema's "anything"). Several paths must all hold.
 * - JSON Schema itself. A key with a dot is always a path; a key without one is a JSON Schema keyword when it is one
 *   (KEYWORDS), else a path. The conditions under `not`, `allOf`, `anyOf`, `oneOf`, `if`, `then` and `else` are
 *   conditions again (short, named or long): `{"not": {"values.detail": true}}`, `{"anyOf": ["member", "ownRow"]}`.
 */
export type ConditionSchema = Record<string, unknown>;
/** A condition as a file writes it: a name, a list (all of them) or an object (short form, JSON Schema, or both). */
export type ConditionSource = string | ConditionSource[] | Record<string, unknown>;
/** Conditions by name: screens/conditions.json, laid under a screen's own `conditions`. */
export type NamedConditions = Record<string, ConditionSource>;

/** The file of the shared named conditions, in screens/. */
export const CONDITIONS_FILE = 'conditions.json';
/** What a condition's name looks like: a word in camelCase. */
export const CONDITION_NAME_PATTERN = '^[a-z][a-zA-Z0-9]*$';

/**
 * The keys of the screen context (ScreenContext in src/client/engine/screen/values.ts): a path starts with one of
 * them, so check:config and editors catch a misspelt keyword that would otherwise read as a path.
 */
export const CONTEXT_KEYS = ['params', 'query', 'state', 'data', 'load', 'role', 'flags', 'me', 'organization', 'language', 'today', 'time', 'local', 'pending', 'rowNo', 'file', 'item', 'values', 'along', 'element', 'value', 'form', 'body', 'status'] as const;

/** Keywords whose value is a condition, or a list of conditions, in turn. */
const ONE_CONDITION = new Set(['not', 'if', 'then', 'else']);
const CONDITION_LIST = new Set(['allOf', 'anyOf', 'oneOf']);
/** The JSON Schema keywords (draft-07 and ajv's own): a key without a dot that is one of these keeps its meaning. */
export const KEYWORDS = new Set([
  ...ONE_CONDITION,
  ...CONDITION_LIST,
  ...['$id', '$ref', '$schema', '$comment', '$defs', 'definitions', 'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly'],
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format'],
  ...['items', 'additionalItems', 'maxItems', 'minItems', 'uniqueItems', 'contains', 'maxContains', 'minContains', 'prefixItems', 'unevaluatedItems'],
  ...['maxProperties', 'minProperties', 'required', 'properties', 'patternProperties', 'additionalProperties', 'dependencies', 'dependentRequired'],
  ...['dependentSchemas', 'propertyNames', 'unevaluatedProperties', 'contentEncoding', 'contentMediaType', 'errorMessage'],
]);

/** A condition that names nothing known, loops through its names, or is no condition at all. */
export class ConditionError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a key of a condition object is a path into the context rather than a JSON Schema keyword. */
export function isPathKey(key: string): boolean {
  return key.includes('.') || !KEYWORDS.has(key);
}

/** The full JSON Schema of a condition written in any of the forms above; `names`: the conditions it may name. */
export function normaliseCondition(source: unknown, names: NamedConditions = {}, seen: string[] = []): ConditionSchema {
  if (typeof source === 'string') {
    if (seen.includes(source)) throw new ConditionError(`the condition "${source}" names itself (${[...seen, source].join(' → ')})`);
    if (!Object.hasOwn(names, source)) throw new ConditionError(`unknown condition "${source}"; known: ${Object.keys(names).join(', ') || 'none'}`);
    return normaliseCondition(names[source], names, [...seen, source]);
  }
  if (Array.isArray(source)) return { allOf: source.map((item) => normaliseCondition(item, names, seen)) };
  if (!isObject(source)) throw new ConditionError('a condition is a name, a list or an object');
  const keywords: ConditionSchema = {};
  const paths: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(source)) {
    if (isPathKey(key)) paths.push([key, value]);
    else if (ONE_CONDITION.has(key)) keywords[key] = normaliseCondition(value, names, seen);
    else if (CONDITION_LIST.has(key)) {
      if (!Array.isArray(value)) throw new ConditionError(`${key} takes a list of conditions`);
      keywords[key] = value.map((item) => normaliseCondition(item, names, seen));
    } else keywords[key] = value;
  }
  if (paths.length === 0) return keywords;
  const byPaths = pathsSchema(paths);
  if (Object.keys(keywords).length === 0) return byPaths;
  const overlaps = Object.keys(keywords).some((key) => key in byPaths);
  return overlaps ? { allOf: [byPaths, keywords] } : { ...byPaths, ...keywords };
}

/**
 * The schema of a path's value: a schema object as it is, a list as `enum`, anything else as `const`; `{"$data":
 * "/me/id"}` is the value at that pointer of the context (`const` with ajv's $data).
 */
function valueSchema(value: unknown): ConditionSchema {
  if (isObject(value) && Object.keys(value).length === 1 && typeof value.$data === 'string') return { const: value };
  if (isObject(value)) return value;
  if (Array.isArray(value)) return { enum: value };
  return { const: value };
}

interface PathNode {
  children: Map<string, PathNode>;
  schemas: ConditionSchema[];
}

/** The paths as one schema: each step an object that has the next key (so a missing value never matches). */
function pathsSchema(paths: Array<[string, unknown]>): ConditionSchema {
  const root: PathNode = { children: new Map(), schemas: [] };
  for (const [path, value] of paths) {
    let node = root;
    for (const segment of path.split('.')) {
      if (segment === '') throw new ConditionError(`"${path}" is no path: an empty step`);
      if (!node.children.has(segment)) node.children.set(segment, { children: new Map(), schemas: [] });
      node = node.children.get(segment)!;
    }
    node.schemas.push(valueSchema(value));
  }
  return nodeSchema(root, true);
}

function nodeSchema(node: PathNode, isRoot: boolean): ConditionSchema {
  const parts = [...node.schemas];
  if (node.children.size > 0) {
    const properties = Object.fromEntries([...node.children].map(([key, child]) => [key, nodeSchema(child, false)]));
    // the context itself is always an object; a step inside it must be one for `required` to mean anything
    parts.unshift({ ...(isRoot ? {} : { type: 'object' }), required: [...node.children.keys()], properties });
  }
  return parts.length === 1 ? parts[0]! : { allOf: parts };
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * A copy of `value` with every condition (the value of a `when` key, anywhere) replaced by what `replace` returns for
 * it, given the JSON pointer of the `when`.
 */
export function mapConditions(value: unknown, replace: (condition: unknown, pointer: string) => unknown, pointer = ''): unknown {
  if (Array.isArray(value)) return value.map((item, index) => mapConditions(item, replace, `${pointer}/${index}`));
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, child]) => {
      const childPointer = `${pointer}/${escapePointer(name)}`;
      return [name, name === 'when' ? replace(child, childPointer) : mapConditions(child, replace, childPointer)];
    }),
  );
}

/**
 * A screen, fragment or menu definition as the engine reads it: its conditions in full (names from `shared` under the
 * definition's own `conditions`), without the keys only files and editors need (`conditions`, `$schema`). Throws a
 * ConditionError naming the pointer of the first bad condition.
 */
export function resolveConditions<T>(definition: T, shared: NamedConditions = {}): T {
  const { conditions: own, $schema: _schema, ...rest } = definition as Record<string, unknown>;
  const names: NamedConditions = { ...shared, ...(isObject(own) ? (own as NamedConditions) : {}) };
  return mapConditions(rest, (condition, pointer) => {
    try {
      return normaliseCondition(condition, names);
    } catch (error) {
      throw new ConditionError(`${pointer}: ${(error as Error).message}`);
    }
  }) as T;
}

/** The key of a condition in the precompiled module: its JSON text, as parsed from the screen file. */
export function conditionKey(condition: ConditionSchema): string {
  return JSON.stringify(condition);
}

/** Every condition found under a `when` key anywhere in `value`, each once, with the JSON pointer of its first use. */
export function collectConditions(value: unknown, pointer = '', found = new Map<string, { condition: ConditionSchema; pointer: string }>()) {
  if (Array.isArray(value)) value.forEach((item, index) => collectConditions(item, `${pointer}/${index}`, found));
  else if (value !== null && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) {
      const childPointer = `${pointer}/${escapePointer(name)}`;
      if (name === 'when' && child !== null && typeof child === 'object' && !Array.isArray(child)) {
        const key = conditionKey(child as ConditionSchema);
        if (!found.has(key)) found.set(key, { condition: child as ConditionSchema, pointer: childPointer });
      }
      collectConditions(child, childPointer, found);
    }
  }
  return found;
}
