/**
 * Views of a JSON Schema for other readers than the validators: the wire rendering for the OpenAPI document and the
 * structural rendering the TypeScript types are computed from. Both inline the `#/$defs/…` references, so the
 * result stands alone.
 */
import type { JsonSchema } from './load.js';

type Node = Record<string, unknown>;

const MAX_DEPTH = 32;

/**
 * Walks a schema, replacing each `#/$defs/<name>` reference by the definition (its siblings win) and handing every
 * object node to `visit`, which returns its rendering (`render` renders the children).
 */
function walk(schema: JsonSchema, visit: (node: Node, render: (child: unknown) => unknown) => Node): JsonSchema {
  const defs = (schema.$defs ?? {}) as Record<string, Node>;
  const render = (node: unknown, depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new Error('schema nested too deeply (recursive $ref?)');
    if (Array.isArray(node)) return node.map((item) => render(item, depth + 1));
    if (typeof node !== 'object' || node === null) return node;
    let source = node as Node;
    if (typeof source.$ref === 'string' && source.$ref.startsWith('#/$defs/')) {
      const { $ref, ...siblings } = source;
      source = { ...defs[($ref as string).slice('#/$defs/'.length)], ...siblings };
    }
    const { $defs: _definitions, ...rest } = source;
    return visit(rest, (child) => render(child, depth + 1));
  };
  return render(schema, 0) as JsonSchema;
}

function mapEntries(value: unknown, mapKey: (key: string) => string, render: (child: unknown) => unknown): Node {
  return Object.fromEntries(Object.entries(value as Node).map(([name, inner]) => [mapKey(name), render(inner)]));
}

/**
 * The wire (snake_case) rendering of a schema for documentation: property names and `required` through `toWireKey`,
 * ajv-errors messages and comments dropped; `text`, when given, turns titles and descriptions (locale keys) into
 * words, and those it cannot are dropped.
 */
export function wireSchema(schema: JsonSchema, toWireKey: (key: string) => string, text?: (key: string) => string | undefined): JsonSchema {
  return walk(schema, (node, render) => {
    const result: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$comment' || key === 'errorMessage') continue;
      if (text && (key === 'title' || key === 'description')) {
        const words = typeof value === 'string' ? text(value) : undefined;
        if (words !== undefined) result[key] = words;
        continue;
      }
      if (key === 'properties' && typeof value === 'object' && value !== null) result.properties = mapEntries(value, toWireKey, render);
      else if (key === 'required' && Array.isArray(value)) result.required = value.map((name) => toWireKey(String(name)));
      else result[key] = render(value);
    }
    return result;
  });
}

/** The keywords that decide a value's TypeScript type; the rest (lengths, patterns, if/then, messages) only refine it. */
const STRUCTURAL_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'oneOf', 'anyOf', 'default']);

/** The structural rendering of a (camelCase) schema, from which `json-schema-to-ts` computes the TypeScript type. */
export function typeSchema(schema: JsonSchema): JsonSchema {
  return walk(schema, (node, render) => {
    const result: Node = {};
    for (const [key, value] of Object.entries(node)) {
      if (!STRUCTURAL_KEYWORDS.has(key)) continue;
      if (key === 'properties') result.properties = mapEntries(value, (name) => name, render);
      else result[key] = key === 'enum' || key === 'const' || key === 'default' ? value : render(value);
    }
    return result;
  });
}
