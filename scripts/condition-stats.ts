/**
 * `npx tsx scripts/condition-stats.ts`: how big the conditions of the definition files are (the JSON text of every
 * `when` and every named condition) and which condition is written out more than once (the same full JSON Schema
 * from two places that do not name it). test/configuration/conditions.test.ts keeps both small.
 */
import path from 'node:path';
import { CONDITIONS_FILE, mapConditions, normaliseCondition, type NamedConditions } from '../src/configuration/conditions.js';
import { FRAGMENTS_DIR, jsonFiles, loadNamedConditions, PROJECT_ROOT, readJson, resolveExtends, screenFiles } from '../src/configuration/load.js';

export interface ConditionStats {
  /** UTF-8 bytes of the JSON text of every condition written in the files. */
  bytes: number;
  /** How many conditions are written (uses and named definitions). */
  count: number;
  /** Conditions written out (not by name) in more than one place: the places by file and pointer. */
  repeated: string[][];
  /** Places whose condition is JSON Schema's long form at a condition's level (`properties`, `required`). */
  longForm: string[];
}

/** Whether a condition written in a file uses `properties` or `required` where a path would do. */
function isLongForm(source: unknown): boolean {
  if (Array.isArray(source)) return source.some(isLongForm);
  if (!source || typeof source !== 'object') return false;
  return Object.entries(source).some(([key, value]) => key === 'properties' || key === 'required' || (['not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf'].includes(key) && isLongForm(value)));
}

export function conditionStats(root = PROJECT_ROOT): ConditionStats {
  const shared = loadNamedConditions(root);
  const screensDir = path.join(root, 'screens');
  const files: Array<{ file: string; definition: Record<string, unknown> }> = [
    ...screenFiles(screensDir).map((name) => `screens/${name}`),
    ...jsonFiles(path.join(screensDir, FRAGMENTS_DIR)).map((name) => `screens/${FRAGMENTS_DIR}/${name}`),
    'frame/navigation.json',
  ].map((file) => ({ file, definition: readJson<Record<string, unknown>>(path.join(root, file)) }));
  // a screen that extends another may name the conditions of its base
  const merged = resolveExtends(files.map((entry) => entry.definition));
  const resolved = new Map(files.map(({ file }, index) => [file, merged[index]!]));
  const written: Array<{ place: string; source: unknown; names: NamedConditions }> = [];
  for (const [name, source] of Object.entries(shared)) written.push({ place: `screens/${CONDITIONS_FILE}#/${name}`, source, names: shared });
  for (const { file, definition } of files) {
    const names = { ...shared, ...((resolved.get(file)!.conditions as NamedConditions | undefined) ?? {}) };
    for (const [name, source] of Object.entries((definition.conditions as NamedConditions | undefined) ?? {})) written.push({ place: `${file}#/conditions/${name}`, source, names });
    mapConditions({ ...definition, conditions: undefined }, (source, pointer) => {
      written.push({ place: `${file}#${pointer}`, source, names });
      return source;
    });
  }
  const places = new Map<string, string[]>();
  for (const { place, source, names } of written) {
    if (typeof source === 'string') continue; // a name may be used anywhere, as often as needed
    const key = JSON.stringify(normaliseCondition(source, names));
    places.set(key, [...(places.get(key) ?? []), place]);
  }
  return {
    bytes: written.reduce((sum, { source }) => sum + Buffer.byteLength(JSON.stringify(source)), 0),
    count: written.length,
    repeated: [...places.values()].filter((list) => list.length > 1),
    longForm: written.filter(({ source }) => isLongForm(source)).map(({ place }) => place),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { bytes, count, repeated, longForm } = conditionStats();
  console.log(`${count} conditions, ${bytes} bytes of JSON`);
  for (const place of longForm) console.log(`long form: ${place}`);
  for (const list of repeated) console.log(`repeated: ${list.join(', ')}`);
}
