/**
 * The configuration check behind `npm run check:config` (DESIGN principle 7): every schema, screen and locale file
 * parses and compiles, every locale key exists in every language, every key, form, widget and component a file
 * names exists. Each problem names its file and the JSON pointer inside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import { CLOSED_DAYS_FILE, closedDaysFileSchema, invalidClosedDates, type ClosedDaysRule } from '../common/businessCalendar.js';
import { LANGUAGES } from '../common/languages.js';
import { routeShape, TRANSLATING_ROUTES } from '../common/translatingRoutes.js';
import { COMPONENT_IDS } from '../client/screens/componentIds.js';
import { BUILT_IN_WIDGET_IDS, FIELD_IDS, FIELD_OPTIONS_SCHEMAS, WIDGET_IDS, type FieldId } from '../client/widgets/ids.js';
import { SCREEN_EVENTS } from '../client/engine/events.js';
import { FUNCTION_NAMES } from '../client/engine/forms/functions.js';
import { PAYLOAD_NAMES } from '../client/engine/forms/payloads.js';
import { AJV_OPTIONS } from './ajvOptions.js';
import { CONDITIONS_FILE, ConditionError, mapConditions, normaliseCondition, type ConditionSchema, type NamedConditions } from './conditions.js';
import { FRAGMENTS_DIR, jsonFiles, PROJECT_ROOT, resolveExtends, screenFiles, SHARED_SCHEMA, withSharedDefinitions, type JsonSchema } from './load.js';
import {
  conditionsFileSchema,
  DEFINITION_SCHEMA_DIR,
  DEFINITION_SCHEMAS,
  definitionSchemaText,
  fragmentDefinitionSchema,
  JSON_SCHEMA_DRAFT,
  navigationSchema,
  screenDefinitionSchema,
  type DefinitionKind,
} from './screenSchema.js';

/** An API route as Fastify registered it: `GET /api/v2/organizations/:orgId/affiliations`. */
export interface CheckOptions {
  /** The server's routes; when given, every data, action and submit call must be one of them. */
  routes?: readonly string[];
}

export interface Problem {
  file: string;
  pointer: string;
  message: string;
}

type Json = unknown;
/** A use of a locale key; `tree`: code may ask for a whole subtree (t(key, {returnObjects: true})). */
type Found = { file: string; pointer: string; key: string; tree?: boolean };

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const pointerOf = (parts: Array<string | number>) => parts.map((part) => `/${escapePointer(String(part))}`).join('');

/** Words in schemas whose values are locale keys. */
const SCHEMA_KEY_WORDS = new Set(['title', 'description']);
/** uiSchema options whose values are locale keys. */
const UI_KEY_WORDS = new Set(['ui:title', 'ui:description', 'ui:help', 'ui:placeholder']);
/** Validation keywords whose message is `validation.<keyword>`. */
const MESSAGE_KEYWORDS = ['required', 'minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'type', 'enum', 'oneOf'];

class Checker {
  readonly problems: Problem[] = [];
  readonly keyUses: Found[] = [];
  constructor(readonly root: string) {}

  relative(file: string): string {
    return path.relative(this.root, file);
  }

  report(file: string, pointer: string, message: string): void {
    this.problems.push({ file: this.relative(file), pointer, message });
  }

  parse(file: string): Json | undefined {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      this.report(file, '', `does not parse: ${(error as Error).message}`);
      return undefined;
    }
  }

  useKey(file: string, parts: Array<string | number>, key: unknown): void {
    if (typeof key !== 'string' || key.length === 0) this.report(file, pointerOf(parts), 'must be a locale key');
    else this.keyUses.push({ file: this.relative(file), pointer: pointerOf(parts), key });
  }
}

function walk(value: Json, parts: Array<string | number>, visit: (value: Json, parts: Array<string | number>) => void): void {
  visit(value, parts);
  if (Array.isArray(value)) value.forEach((item, index) => walk(item, [...parts, index], visit));
  else if (value && typeof value === 'object') {
    for (const [name, child] of Object.entries(value)) walk(child, [...parts, name], visit);
  }
}

function flattenLocale(tree: Json, prefix: string, into: Map<string, Array<string | number>>, parts: string[] = []): void {
  if (tree && typeof tree === 'object' && !Array.isArray(tree)) {
    for (const [name, child] of Object.entries(tree)) flattenLocale(child, prefix ? `${prefix}.${name}` : name, into, [...parts, name]);
  } else into.set(prefix, parts);
}

/**
 * The definitions' own schemas (screens, fragments, navigation, field options…): constant objects, each compiled once
 * a process by this ajv, which keeps what it compiled by the schema object.
 */
const definitionAjv = new Ajv({ allErrors: true, strict: false });

/** What compiling a schema of the configuration answered (the error's message, or undefined), by the schema's text. */
type CompileProblems = Map<string, string | undefined>;
const formCompiles: CompileProblems = new Map();
const conditionCompiles: CompileProblems = new Map();

/**
 * Why `schema` does not compile, or undefined: compiled once a process for each text, so a check run again (the
 * configuration's tests run it ~30 times, on copies that differ in a file) compiles only what changed.
 */
function compileProblem(answers: CompileProblems, schema: object, ajv: () => Ajv): string | undefined {
  const text = JSON.stringify(schema);
  if (!answers.has(text)) {
    try {
      ajv().compile(schema);
      answers.set(text, undefined);
    } catch (error) {
      answers.set(text, (error as Error).message);
    }
  }
  return answers.get(text);
}

function checkSchemas(checker: Checker, root: string): Record<string, JsonSchema> {
  const dir = path.join(root, 'schemas');
  const shared = (checker.parse(path.join(dir, `${SHARED_SCHEMA}.json`)) ?? {}) as JsonSchema;
  const forms: Record<string, JsonSchema> = {};
  for (const name of jsonFiles(dir)) {
    const file = path.join(dir, name);
    const schema = checker.parse(file) as JsonSchema | undefined;
    if (!schema) continue;
    if (schema.$schema !== JSON_SCHEMA_DRAFT) checker.report(file, '/$schema', `must be "${JSON_SCHEMA_DRAFT}" (the draft ajv checks the form with), for editors`);
    walk(schema, [], (value, parts) => {
      const word = parts.at(-1);
      const parent = parts.at(-2);
      const inProperties = parent === 'properties' || parent === '$defs';
      if (typeof word === 'string' && SCHEMA_KEY_WORDS.has(word) && !inProperties) checker.useKey(file, parts, value);
      if (parent === 'errorMessage' || (word === 'errorMessage' && typeof value === 'string')) checker.useKey(file, parts, value);
      if (typeof word === 'string' && MESSAGE_KEYWORDS.includes(word) && !inProperties && parent !== 'errorMessage') {
        checker.keyUses.push({ file: checker.relative(file), pointer: pointerOf(parts), key: `validation.${word}` });
      }
    });
    if (name === `${SHARED_SCHEMA}.json`) continue;
    const form = withSharedDefinitions(schema, shared);
    const problem = compileProblem(formCompiles, form, () => ajvErrors(new Ajv({ ...AJV_OPTIONS })));
    if (problem === undefined) forms[path.basename(name, '.json')] = form;
    else checker.report(file, '', `does not compile: ${problem}`);
  }
  return forms;
}

/** Words of a screen definition whose values are locale keys (a value starting with $ is a value of the context). */
const SCREEN_KEY_WORDS = new Set(['title', 'lead', 'label', 'alt', 'ariaLabel', 'submitLabel', 'warning', 'text', 'body', 'caption', 'message', 'confirmLabel', 'cancelLabel', 'empty', 'heading', 'note', 'flash', 'fileName']);
/** Parts of a screen definition that hold other things than locale keys. */
const NOT_KEYS = new Set(['uiSchema', 'when', 'values', 'params', 'state', 'query', 'body', 'stepLabels', 'breadcrumb', 'set']);

/** Locale keys anywhere in the screen's blocks, actions, data and outcomes. */
function checkScreenKeys(checker: Checker, file: string, screen: Record<string, any>): void {
  walk(screen, [], (value, parts) => {
    if (parts.some((part) => NOT_KEYS.has(String(part)))) return;
    const word = String(parts.at(-1));
    const isKey = SCREEN_KEY_WORDS.has(word) || (word === 'href' && typeof value === 'string' && value.startsWith('links.'));
    if (isKey && typeof value === 'string' && !value.startsWith('$')) checker.useKey(file, parts, value);
  });
}

/**
 * The conditions' own ajv: as the build's, but an unknown keyword is an error (a misspelt keyword inside a schema
 * would otherwise be ignored and the condition always hold).
 */
const conditionAjv = new Ajv({ ...AJV_OPTIONS, strictSchema: true });

/** Names a condition uses (at its own level and in its not/allOf/… conditions), to find unused named ones. */
function namesIn(source: unknown, into: Set<string>): void {
  if (typeof source === 'string') into.add(source);
  else if (Array.isArray(source)) source.forEach((item) => namesIn(item, into));
  else if (source && typeof source === 'object') {
    for (const [key, value] of Object.entries(source)) if (['not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf'].includes(key)) namesIn(value, into);
  }
}

/** A condition names known conditions and compiles (the build precompiles it the same way, after normaliseCondition). */
function checkCondition(checker: Checker, file: string, pointer: string, source: unknown, names: NamedConditions): void {
  let schema;
  try {
    schema = normaliseCondition(source, names);
  } catch (error) {
    if (!(error instanceof ConditionError)) throw error;
    checker.report(file, pointer, error.message);
    return;
  }
  const problem = compileProblem(conditionCompiles, schema, () => conditionAjv);
  if (problem !== undefined) checker.report(file, pointer, `condition does not compile: ${problem}`);
}

/**
 * Every condition of a definition and its own named conditions (`conditions`, laid over the shared `names`) compiles;
 * returns the names it uses. A named condition of its own that nothing uses is reported.
 */
function checkConditions(checker: Checker, file: string, definition: Record<string, any>, names: NamedConditions): Set<string> {
  const own: NamedConditions = definition.conditions ?? {};
  const all = { ...names, ...own };
  const used = new Set<string>();
  for (const [name, source] of Object.entries(own)) {
    checkCondition(checker, file, pointerOf(['conditions', name]), source, all);
    namesIn(source, used);
  }
  mapConditions({ ...definition, conditions: undefined }, (source, pointer) => {
    checkCondition(checker, file, pointer, source, all);
    namesIn(source, used);
    return source;
  });
  for (const name of Object.keys(own)) if (!used.has(name)) checker.report(file, pointerOf(['conditions', name]), `the condition "${name}" is never used`);
  return used;
}

/** screens/conditions.json: valid, each named condition compiles; returns the names. */
function checkNamedConditions(checker: Checker, root: string): { file: string; names: NamedConditions } {
  const file = path.join(root, 'screens', CONDITIONS_FILE);
  if (!existsSync(file)) return { file, names: {} };
  const json = checker.parse(file) as Record<string, unknown> | undefined;
  if (!json) return { file, names: {} };
  checkSchemaReference(checker, file, json, 'conditions');
  const validate = definitionAjv.compile(conditionsFileSchema as object);
  if (!validate(json)) {
    for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
    return { file, names: {} };
  }
  const { $schema: _schema, $comment: _comment, ...names } = json;
  for (const [name, source] of Object.entries(names)) checkCondition(checker, file, pointerOf([name]), source, names as NamedConditions);
  return { file, names: names as NamedConditions };
}

/** The `$schema` a definition file names: its kind's schema in screens/schema/, relative to the file. */
function checkSchemaReference(checker: Checker, file: string, json: Record<string, unknown>, kind: DefinitionKind): void {
  const target = path.join(checker.root, DEFINITION_SCHEMA_DIR, `${kind}.schema.json`);
  const relative = path.relative(path.dirname(file), target);
  const expected = relative.startsWith('.') ? relative : `./${relative}`;
  if (json.$schema !== expected) checker.report(file, '/$schema', `must be "${expected}" (the schema editors check this file against)`);
}

/** screens/schema/: each file is what src/configuration/screenSchema.ts defines (it cannot drift). */
function checkDefinitionSchemas(checker: Checker, root: string): void {
  for (const kind of Object.keys(DEFINITION_SCHEMAS) as DefinitionKind[]) {
    const file = path.join(root, DEFINITION_SCHEMA_DIR, `${kind}.schema.json`);
    const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    if (text !== definitionSchemaText(kind)) checker.report(file, '', 'is not the schema src/configuration/screenSchema.ts defines: run npm run schemas');
  }
  for (const name of jsonFiles(path.join(root, DEFINITION_SCHEMA_DIR))) {
    if (!(name.replace('.schema.json', '') in DEFINITION_SCHEMAS)) checker.report(path.join(root, DEFINITION_SCHEMA_DIR, name), '', 'is no definition schema');
  }
}

interface CallUse {
  file: string;
  pointer: string;
  method: string;
  path: string;
  version?: string;
}

/** The calls a screen makes: data, actions and the form's submit. */
function callsOf(file: string, screen: Record<string, any>): CallUse[] {
  const calls: CallUse[] = [];
  for (const [key, data] of Object.entries<any>(screen.data ?? {})) calls.push({ file, pointer: pointerOf(['data', key]), method: data.method ?? 'GET', path: data.path, version: data.version });
  for (const [key, action] of Object.entries<any>(screen.actions ?? {})) {
    if (!action.call) continue; // an action that only applies its outcome
    calls.push({ file, pointer: pointerOf(['actions', key, 'call']), method: action.call.method, path: action.call.path, version: action.call.version });
  }
  if (screen.form) calls.push({ file, pointer: '/form/submit', method: screen.form.submit.method, path: screen.form.submit.path });
  if (screen.form?.check) calls.push({ file, pointer: '/form/check', method: screen.form.check.method, path: screen.form.check.path });
  // each alternative endpoint of a call (CallDefinition.instead) must exist too
  for (const use of [...calls]) {
    const definition = valueAtPointer(screen, use.pointer);
    (definition?.instead ?? []).forEach((alternative: any, index: number) =>
      calls.push({ file, pointer: `${use.pointer}/instead/${index}`, method: alternative.method ?? use.method, path: alternative.path, version: use.version }),
    );
  }
  return calls;
}

/** The value at a JSON pointer of the screen ('/actions/save/call'). */
function valueAtPointer(value: any, pointer: string): any {
  return pointer
    .split('/')
    .slice(1)
    .reduce((node, key) => node?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], value);
}

/**
 * Every call is a server route (`organizations/:orgId/x` and the route `/api/v2/organizations/:id/x` are one: the
 * placeholders' names do not matter), and so is every route the engine gives the page's language.
 */
function checkCalls(checker: Checker, calls: CallUse[], routes: readonly string[]): void {
  const known = new Set(routes.map((route) => routeShape(route.split(' ')[0]!, route.slice(route.indexOf(' ') + 1))));
  for (const use of calls) {
    const url = `/api/${use.version ?? 'v2'}/${use.path}`;
    if (!known.has(routeShape(use.method, url))) checker.report(use.file, use.pointer, `no server route ${use.method} ${url}`);
  }
  for (const route of TRANSLATING_ROUTES) {
    const [method, routePath] = route.split(' ') as [string, string];
    if (!known.has(routeShape(method, `/api/v2/${routePath}`))) checker.problems.push({ file: 'src/common/translatingRoutes.ts', pointer: '', message: `no server route ${route}` });
  }
}

/** The fragments a definition names (FragmentBlock), with the pointers of the blocks naming them. */
function fragmentUses(definition: unknown): Array<{ name: string; parts: Array<string | number>; values: Record<string, unknown> }> {
  const uses: Array<{ name: string; parts: Array<string | number>; values: Record<string, unknown> }> = [];
  walk(definition, [], (value, parts) => {
    const node = value as Record<string, unknown> | null;
    if (node && typeof node === 'object' && !Array.isArray(node) && node.type === 'fragment' && typeof node.name === 'string' && parts.at(-2) !== 'when') {
      uses.push({ name: node.name, parts, values: (node.values as Record<string, unknown> | undefined) ?? {} });
    }
  });
  return uses;
}

/** A fragment block gives exactly the values the fragment takes (its `values`); null says there is none. */
function checkFragmentValues(checker: Checker, file: string, definition: unknown, fragments: Map<string, { file: string; fragment: Record<string, any> }>): void {
  for (const { name, parts, values } of fragmentUses(definition)) {
    const fragment = fragments.get(name);
    if (!fragment) continue;
    const takes = Object.keys(fragment.fragment.values ?? {});
    for (const given of Object.keys(values)) {
      if (!takes.includes(given)) checker.report(file, pointerOf([...parts, 'values', given]), `the fragment "${name}" takes no value "${given}"; it takes: ${takes.join(', ') || 'none'}`);
    }
    for (const needed of takes) {
      if (!(needed in values)) checker.report(file, pointerOf(parts), `the fragment "${name}" needs the value "${needed}" (give null when there is none)`);
    }
  }
}

/** Every fragment a definition shows, through the fragments it shows too (a fragment that shows itself is reported). */
function fragmentsShownBy(definition: unknown, fragments: Map<string, { file: string; fragment: Record<string, any> }>): Set<string> {
  const shown = new Set<string>();
  const visit = (node: unknown) => {
    for (const { name } of fragmentUses(node)) {
      if (shown.has(name) || !fragments.has(name)) continue;
      shown.add(name);
      visit(fragments.get(name)!.fragment);
    }
  };
  visit(definition);
  return shown;
}

/**
 * screens/fragments/*.json: each valid, its words and conditions checked like a screen's; every fragment a screen or
 * fragment names exists and none shows itself; the actions a fragment names exist in every screen that shows it.
 */
function checkFragments(checker: Checker, root: string, names: NamedConditions, used: Set<string>): Map<string, { file: string; fragment: Record<string, any> }> {
  const dir = path.join(root, 'screens', FRAGMENTS_DIR);
  const fragments = new Map<string, { file: string; fragment: Record<string, any> }>();
  if (!existsSync(dir)) return fragments;
  const validate = definitionAjv.compile(fragmentDefinitionSchema as object);
  for (const name of jsonFiles(dir)) {
    const file = path.join(dir, name);
    const fragment = checker.parse(file) as Record<string, any> | undefined;
    if (!fragment) continue;
    checkSchemaReference(checker, file, fragment, 'fragment');
    if (!validate(fragment)) {
      for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
      continue;
    }
    fragments.set(path.basename(name, '.json'), { file, fragment });
    checkScreenKeys(checker, file, fragment);
    for (const name of checkConditions(checker, file, fragment, names)) used.add(name);
    checkFragmentReads(checker, file, fragment, names);
  }
  for (const [name, { file, fragment }] of fragments) {
    if (fragmentsShownBy(fragment, fragments).has(name)) checker.report(file, '', `the fragment "${name}" shows itself`);
    checkFragmentValues(checker, file, fragment, fragments);
    for (const use of fragmentUses(fragment)) {
      if (!fragments.has(use.name)) checker.report(file, pointerOf([...use.parts, 'name']), `unknown fragment "${use.name}"`);
    }
  }
  return fragments;
}

/** The fragments a screen names exist; the actions they name are the screen's. */
function checkFragmentUses(checker: Checker, file: string, screen: Record<string, any>, fragments: Map<string, { file: string; fragment: Record<string, any> }>): void {
  for (const { name, parts } of fragmentUses(screen)) {
    if (!fragments.has(name)) checker.report(file, pointerOf([...parts, 'name']), `unknown fragment "${name}"; known: ${[...fragments.keys()].join(', ') || 'none'}`);
  }
  for (const name of fragmentsShownBy(screen, fragments)) {
    const fragment = fragments.get(name)!;
    walk(fragment.fragment, [], (value, parts) => {
      if (parts.at(-1) === 'action' && typeof value === 'string' && !(value in (screen.actions ?? {}))) {
        checker.report(fragment.file, pointerOf(parts), `unknown action "${value}" of the screen ${screen.id} (${checker.relative(file)}) that shows it`);
      }
    });
  }
}

const isObject = (value: unknown): value is Record<string, any> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A read of the screen context that must have a source: `$data.group…` in a value, or `data.group…` in a condition. */
interface Read {
  context: 'data' | 'local' | 'values';
  key: string;
  pointer: string;
}
const READ_CONTEXTS = ['data', 'local', 'values'] as const;

/** The keys a JSON Schema node asks of an object (`properties`, `required`, through allOf/anyOf/oneOf). */
function keysOf(node: unknown, into: Set<string>): void {
  if (!isObject(node)) return;
  for (const key of Object.keys(node.properties ?? {})) into.add(key);
  if (Array.isArray(node.required)) for (const key of node.required) if (typeof key === 'string') into.add(key);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(node[keyword])) for (const item of node[keyword]) keysOf(item, into);
}

/** The keys a condition (in full) reads under one key of the context, through its not/if/allOf/… */
function conditionReads(schema: unknown, context: string, into: Set<string>): void {
  if (!isObject(schema)) return;
  keysOf(schema.properties?.[context], into);
  for (const keyword of ['not', 'if', 'then', 'else']) conditionReads(schema[keyword], context, into);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(schema[keyword])) for (const item of schema[keyword]) conditionReads(item, context, into);
}

/** Every read of data, local and values in a definition: its values (`$data.x…`) and its conditions' paths. */
function contextReads(definition: Record<string, any>, names: NamedConditions): Read[] {
  const reads: Read[] = [];
  walk({ ...definition, conditions: undefined, $comment: undefined }, [], (value, parts) => {
    const match = typeof value === 'string' ? /^\$(data|local|values)\.([^.]+)/.exec(value) : null;
    if (match) reads.push({ context: match[1] as Read['context'], key: match[2]!, pointer: pointerOf(parts) });
  });
  const all = { ...names, ...(definition.conditions ?? {}) };
  mapConditions({ ...definition, conditions: undefined }, (source, pointer) => {
    let schema: ConditionSchema;
    try {
      schema = normaliseCondition(source, all);
    } catch {
      return source; // reported by checkConditions
    }
    for (const context of READ_CONTEXTS) {
      const keys = new Set<string>();
      conditionReads(schema, context, keys);
      for (const key of keys) reads.push({ context, key, pointer });
    }
    return source;
  });
  return reads;
}

/** The keys of the screen's own state that its outcomes set (`"set": {"answer": "$body"}`). */
function localKeysSet(screen: Record<string, any>): Set<string> {
  const keys = new Set<string>();
  walk(screen, [], (value, parts) => {
    if (parts.at(-1) === 'set' && isObject(value)) for (const key of Object.keys(value)) keys.add(key);
  });
  return keys;
}

/**
 * What a read lacks on a screen: the data it never loads, the state nothing sets; undefined when it has it. Screens
 * that extend each other share their definitions, so data any of them loads counts (where it is not loaded, a
 * condition reading it is simply false: the edit wizards' grid locks, laid down in the new wizard).
 */
function missingSource(read: Read, loaded: readonly string[], setKeys: Set<string>): string | undefined {
  if (read.context === 'data' && !loaded.includes(read.key)) return `the screen loads no data "${read.key}"; loaded: ${loaded.join(', ') || 'nothing'}`;
  if (read.context === 'local' && !setKeys.has(read.key)) return `nothing on the screen sets "local.${read.key}" (an outcome's "set")`;
  return undefined;
}

/**
 * What a screen reads is there: the data entries it loads, the state its outcomes set; and so for the fragments it
 * shows (reported on the fragment's file, naming the screen).
 */
function checkReads(
  checker: Checker,
  file: string,
  screen: Record<string, any>,
  loaded: readonly string[],
  names: NamedConditions,
  fragments: Map<string, { file: string; fragment: Record<string, any> }>,
): void {
  const setKeys = localKeysSet(screen);
  for (const read of contextReads(screen, names)) {
    const missing = missingSource(read, loaded, setKeys);
    if (missing) checker.report(file, read.pointer, missing);
  }
  for (const name of fragmentsShownBy(screen, fragments)) {
    const { file: fragmentFile, fragment } = fragments.get(name)!;
    for (const read of contextReads(fragment, names)) {
      const missing = missingSource(read, loaded, setKeys);
      if (missing) checker.report(fragmentFile, read.pointer, `${missing} (the screen ${screen.id}, ${checker.relative(file)}, shows this fragment)`);
    }
  }
}

/** A fragment reads only the values it takes (its `values`). */
function checkFragmentReads(checker: Checker, file: string, fragment: Record<string, any>, names: NamedConditions): void {
  const takes = Object.keys(fragment.values ?? {});
  for (const read of contextReads(fragment, names)) {
    if (read.context === 'values' && !takes.includes(read.key)) checker.report(file, read.pointer, `the fragment takes no value "${read.key}"; it takes: ${takes.join(', ') || 'none'}`);
  }
}

/**
 * Step names: the steps a screen labels and titles, and the steps its blocks, check and outcomes lead to, are steps of
 * its form (`form.steps`; a form without them has the one step input).
 */
function checkSteps(checker: Checker, file: string, screen: Record<string, any>): void {
  const steps: string[] = screen.form ? (screen.form.steps ?? ['input']) : [];
  const known = `its form's steps: ${steps.join(', ') || 'none (no form)'}`;
  for (const key of ['stepLabels', 'stepTitles']) {
    for (const step of Object.keys(screen[key] ?? {})) if (!steps.includes(step)) checker.report(file, pointerOf([key, step]), `no step "${step}"; ${known}`);
  }
  const needs: Array<[string, string]> = [
    ['confirmBlocks', 'confirm'],
    ['check', 'confirm'],
    ['doneBlocks', 'done'],
  ];
  for (const [key, step] of needs) if (screen.form?.[key] !== undefined && !steps.includes(step)) checker.report(file, pointerOf(['form', key]), `needs the step "${step}"; ${known}`);
  walk(screen, [], (value, parts) => {
    if (parts.at(-1) === 'navigate' && value === 'done' && !steps.includes('done')) checker.report(file, pointerOf(parts), `no step "done"; ${known}`);
  });
}

/** A screen that extends another lays its keys over the other's: each of its keys (and of its form's) is one the other has. */
function checkOverrides(checker: Checker, file: string, own: Record<string, any>, base: Record<string, any>): void {
  // a screen's own: its names and, above the form it takes over, blocks of its own (a class's header)
  const ownKeys = ['$schema', '$comment', 'extends', 'id', 'path', 'conditions', 'blocks'];
  for (const key of Object.keys(own)) {
    if (ownKeys.includes(key)) continue;
    if (!(key in base)) checker.report(file, pointerOf([key]), `the screen "${base.id}" it extends has no "${key}" to override`);
  }
  if (!isObject(own.form) || !isObject(base.form)) return;
  for (const key of Object.keys(own.form)) {
    if (!(key in base.form)) checker.report(file, pointerOf(['form', key]), `the form of the screen "${base.id}" it extends has no "${key}" to override`);
  }
}

/** A data entry waits only for entries of the same screen (`after`), and never, through others, for itself. */
function checkDataOrder(checker: Checker, file: string, screen: Record<string, any>): void {
  const data: Record<string, { after?: string[] }> = screen.data ?? {};
  for (const [key, entry] of Object.entries(data)) {
    (entry.after ?? []).forEach((other, index) => {
      if (!(other in data)) checker.report(file, pointerOf(['data', key, 'after', index]), `unknown data entry "${other}"`);
    });
    const seen = new Set<string>();
    const queue = [...(entry.after ?? [])];
    while (queue.length > 0) {
      const next = queue.shift()!;
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(...(data[next]?.after ?? []));
    }
    if (seen.has(key)) checker.report(file, pointerOf(['data', key, 'after']), `the data entry "${key}" waits for itself`);
  }
}

/** A table's `loadsMore` names a paged data entry of its screen (`pages`), and only a virtual table scrolls to load it. */
function checkLoadsMore(checker: Checker, file: string, screen: Record<string, any>): void {
  walk(screen, [], (value, parts) => {
    if (parts.at(-1) !== 'loadsMore' || typeof value !== 'string') return;
    const table = parts.slice(0, -1).reduce<any>((node, part) => node?.[part], screen);
    if (!screen.data?.[value]?.pages) checker.report(file, pointerOf(parts), `"${value}" is no paged data entry of this screen (data.${value}.pages)`);
    if (!table?.virtual) checker.report(file, pointerOf(parts), 'only a virtual table loads more as it scrolls');
  });
}

/** Objects whose keys are names of the caller's choosing (query parameters, values, params, bodies, state), never references. */
const VALUE_MAPS = new Set(['query', 'values', 'params', 'body', 'set', 'state']);

/** Screens named by links and outcomes, and actions named by items and cells, exist; events have a handler. */
function checkReferences(checker: Checker, screens: Array<{ file: string; screen: Record<string, any> }>, fragments: Array<{ file: string; fragment: Record<string, any> }> = []): void {
  const ids = new Set(screens.map(({ screen }) => screen.id));
  const definitions = [...screens.map(({ file, screen }) => ({ file, screen, isFragment: false })), ...fragments.map(({ file, fragment }) => ({ file, screen: fragment, isFragment: true }))];
  for (const { file, screen, isFragment } of definitions) {
    walk(screen, [], (value, parts) => {
      const word = parts.at(-1);
      if (word === 'screen' && typeof value === 'string' && parts.length > 1 && !ids.has(value)) checker.report(file, pointerOf(parts), `unknown screen "${value}"`);
      // a fragment's actions are those of each screen showing it (checkFragmentUses)
      // a key of a value map (a query parameter named action, say) names data, not an action
      const inValueMap = VALUE_MAPS.has(String(parts.at(-2)));
      if (!isFragment && !inValueMap && word === 'action' && typeof value === 'string' && !(value in (screen.actions ?? {}))) checker.report(file, pointerOf(parts), `unknown action "${value}"`);
      const events = Object.values(SCREEN_EVENTS) as string[];
      if (word === 'event' && typeof value === 'string' && !events.includes(value)) {
        checker.report(file, pointerOf(parts), `no feature handles the event "${value}"; known: ${events.join(', ')}`);
      }
    });
  }
}

/** frame/navigation.json: the menu and footer links, checked like the links of a screen. */
function checkNavigation(checker: Checker, root: string, names: NamedConditions, used: Set<string>): { file: string; screen: Record<string, any> } | undefined {
  const file = path.join(root, 'frame', 'navigation.json');
  const navigation = checker.parse(file) as Record<string, any> | undefined;
  if (!navigation) return undefined;
  checkSchemaReference(checker, file, navigation, 'navigation');
  const validate = definitionAjv.compile(navigationSchema as object);
  if (!validate(navigation)) {
    for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
    return undefined;
  }
  checkScreenKeys(checker, file, navigation);
  for (const name of checkConditions(checker, file, navigation, names)) used.add(name);
  return { file, screen: navigation };
}

/** calendar/closedDays.json: the provider's closed days (issue 30), real month-days and dates. */
function checkClosedDays(checker: Checker, root: string): void {
  const file = path.join(root, CLOSED_DAYS_FILE);
  const rule = checker.parse(file);
  if (rule === undefined) return;
  const validate = definitionAjv.compile(closedDaysFileSchema);
  if (!validate(rule)) {
    for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
    return;
  }
  for (const date of invalidClosedDates(rule as ClosedDaysRule)) checker.report(file, `/dates/${(rule as ClosedDaysRule).dates.indexOf(date)}`, `"${date}" is no calendar date`);
}

/** Every screen file parsed, with `extends` resolved (load.ts resolveExtends); a bad base is reported on its file. */
function parseScreens(checker: Checker, dir: string): Array<{ file: string; screen: Record<string, any>; familyData: string[] }> {
  const parsed = screenFiles(dir).flatMap((name) => {
    const file = path.join(dir, name);
    const screen = checker.parse(file) as Record<string, any> | undefined;
    if (screen) checkSchemaReference(checker, file, screen, 'screen');
    return screen ? [{ file, screen }] : [];
  });
  const all = parsed.map((entry) => entry.screen);
  const resolvedScreens = parsed.flatMap(({ file, screen }) => {
    try {
      const resolved = resolveExtends([screen], all)[0]!;
      const base = all.find((other) => screen.extends !== undefined && other.id === screen.extends);
      if (base) checkOverrides(checker, file, screen, resolveExtends([base], all)[0]!);
      return [{ file, screen: resolved, family: familyOf(screen, all), familyData: [] as string[] }];
    } catch (error) {
      checker.report(file, '/extends', (error as Error).message);
      return [];
    }
  });
  // the data each family of screens loads (a screen and those extending it, at any depth)
  for (const entry of resolvedScreens) {
    const relatives = resolvedScreens.filter((other) => other.family === entry.family);
    entry.familyData = [...new Set(relatives.flatMap((other) => Object.keys(other.screen.data ?? {})))];
  }
  return resolvedScreens;
}

/** The id of the screen at the top of the screens a screen extends. */
function familyOf(screen: Record<string, any>, all: Array<Record<string, any>>): unknown {
  let top = screen;
  for (let depth = 0; top.extends !== undefined && depth < all.length; depth += 1) top = all.find((other) => other.id === top.extends) ?? top;
  return top.id;
}

function checkScreens(checker: Checker, root: string, forms: Record<string, JsonSchema>, options: CheckOptions): void {
  const dir = path.join(root, 'screens');
  const shared = checkNamedConditions(checker, root);
  const used = new Set<string>();
  const fragments = checkFragments(checker, root, shared.names, used);
  const validate = definitionAjv.compile(screenDefinitionSchema as object);
  const seen = { ids: new Map<string, string>(), paths: new Map<string, string>() };
  const valid: Array<{ file: string; screen: Record<string, any> }> = [];
  for (const { file, screen, familyData } of parseScreens(checker, dir)) {
    if (!validate(screen)) {
      for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
      continue;
    }
    valid.push({ file, screen });
    for (const [kind, value] of [['ids', screen.id], ['paths', screen.path]] as const) {
      const other = seen[kind].get(value);
      if (other) checker.report(file, kind === 'ids' ? '/id' : '/path', `${value} is also used by ${other}`);
      seen[kind].set(value, checker.relative(file));
    }
    checkScreenKeys(checker, file, screen);
    screen.breadcrumb.forEach((item: { label: string }, index: number) => {
      if (!item.label.startsWith('$')) checker.useKey(file, ['breadcrumb', index, 'label'], item.label);
    });
    for (const [step, key] of Object.entries(screen.stepLabels ?? {})) checker.useKey(file, ['stepLabels', step], key);
    if (screen.component !== undefined && !(COMPONENT_IDS as readonly string[]).includes(screen.component)) {
      checker.report(file, '/component', `unknown component "${screen.component}"; known: ${COMPONENT_IDS.join(', ') || 'none'}`);
    }
    for (const name of checkConditions(checker, file, screen, shared.names)) used.add(name);
    checkFragmentUses(checker, file, screen, fragments);
    checkFragmentValues(checker, file, screen, fragments);
    checkReads(checker, file, screen, familyData, shared.names, fragments);
    checkSteps(checker, file, screen);
    checkDataOrder(checker, file, screen);
    checkLoadsMore(checker, file, screen);
    if (screen.form) checkFormUse(checker, file, screen.form, forms);
    for (const [id, action] of Object.entries<any>(screen.actions ?? {})) {
      if (action.form && !forms[action.form.schema]) checker.report(file, pointerOf(['actions', id, 'form', 'schema']), `unknown form "${action.form.schema}"`);
      if ((action.form || action.confirm) && !action.call) checker.report(file, pointerOf(['actions', id]), 'an action with a form or a confirmation needs a call');
    }
  }
  const navigation = checkNavigation(checker, root, shared.names, used);
  for (const name of Object.keys(shared.names)) if (!used.has(name)) checker.report(shared.file, pointerOf([name]), `the condition "${name}" is never used`);
  checkReferences(checker, navigation ? [...valid, navigation] : valid, [...fragments.values()]);
  if (options.routes) checkCalls(checker, valid.flatMap(({ file, screen }) => callsOf(file, screen)), options.routes);
}

/**
 * A form's `ui:bind` (engine/forms/bindings.ts): its texts and links' `links.*` are locale keys, its functions and the
 * form's payload rule are the engine's.
 */
function checkBindings(checker: Checker, file: string, form: Record<string, any>): void {
  if (form.transform && !PAYLOAD_NAMES.includes(form.transform.name)) {
    checker.report(file, '/form/transform/name', `unknown payload rule "${form.transform.name}"; known: ${PAYLOAD_NAMES.join(', ')}`);
  }
  walk(form.uiSchema ?? {}, ['form', 'uiSchema'], (value, parts) => {
    const bindAt = parts.indexOf('ui:bind');
    if (bindAt < 0) return;
    const word = parts.at(-1);
    const parent = parts.at(-2);
    if (word === 'text' && typeof value === 'string') checker.useKey(file, parts, value);
    if (word === 'href' && typeof value === 'string' && value.startsWith('links.')) checker.useKey(file, parts, value);
    if (word === 'fn' && (typeof value !== 'string' || !FUNCTION_NAMES.includes(value))) {
      checker.report(file, pointerOf(parts), `unknown function "${String(value)}"; known: ${FUNCTION_NAMES.join(', ')}`);
    }
    if (parent === 'ui:bind' && typeof word === 'string' && !BINDING_WORDS.includes(word)) checker.report(file, pointerOf(parts), `unknown binding "${word}"; known: ${BINDING_WORDS.join(', ')}`);
  });
}

/** What a field's `ui:bind` may say (FieldBinding). */
const BINDING_WORDS = ['show', 'disable', 'clear', 'title', 'notes', 'options'];

function checkFormUse(checker: Checker, file: string, form: Record<string, any>, forms: Record<string, JsonSchema>): void {
  checkBindings(checker, file, form);
  const schema = forms[form.schema];
  if (!schema) {
    checker.report(file, '/form/schema', `unknown form "${form.schema}"; known: ${Object.keys(forms).join(', ')}`);
    return;
  }
  const fields = Object.keys((schema.properties as object | undefined) ?? {});
  const widgetIds = [...WIDGET_IDS, ...BUILT_IN_WIDGET_IDS] as readonly string[];
  walk(form.uiSchema ?? {}, ['form', 'uiSchema'], (value, parts) => {
    const word = parts.at(-1);
    if (value && typeof value === 'object' && 'ui:field' in value) checkFieldUse(checker, file, value as Record<string, unknown>, parts);
    if (word === 'ui:widget' && (typeof value !== 'string' || !widgetIds.includes(value))) {
      checker.report(file, pointerOf(parts), `unknown widget "${String(value)}"`);
    }
    if (typeof word === 'string' && UI_KEY_WORDS.has(word)) checker.useKey(file, parts, value);
    if (word === 'ui:order' && Array.isArray(value)) {
      value.forEach((field, index) => {
        if (field !== '*' && !fields.includes(field)) checker.report(file, pointerOf([...parts, index]), `unknown field "${field}"`);
      });
    }
  });
  (form.outcomes ?? []).forEach((outcome: { field?: string }, index: number) => {
    if (outcome.field !== undefined && !fields.includes(outcome.field)) checker.report(file, pointerOf(['form', 'outcomes', index, 'field']), `unknown field "${outcome.field}"`);
  });
  // a conflict compares and names the form's own fields
  for (const [at, outcomes] of [[['form', 'outcomes'], form.outcomes], [['form', 'check', 'outcomes'], form.check?.outcomes]] as const) {
    (outcomes ?? []).forEach((outcome: { conflict?: { fields?: object; labels?: object } }, index: number) => {
      for (const part of ['fields', 'labels'] as const) {
        for (const field of Object.keys(outcome.conflict?.[part] ?? {})) {
          if (!fields.includes(field)) checker.report(file, pointerOf([...at, index, 'conflict', part, field]), `unknown field "${field}"`);
        }
      }
    });
  }
  for (const field of Object.keys(form.uiSchema ?? {})) {
    if (!field.startsWith('ui:') && !fields.includes(field)) checker.report(file, pointerOf(['form', 'uiSchema', field]), `unknown field "${field}"`);
  }
}

/** A custom field ("ui:field"): a known id, and ui:options its schema accepts, with their locale keys. */
function checkFieldUse(checker: Checker, file: string, node: Record<string, unknown>, parts: Array<string | number>): void {
  const id = node['ui:field'];
  if (typeof id !== 'string' || !(FIELD_IDS as readonly string[]).includes(id)) {
    checker.report(file, pointerOf([...parts, 'ui:field']), `unknown field "${String(id)}"; known: ${FIELD_IDS.join(', ')}`);
    return;
  }
  const schema = FIELD_OPTIONS_SCHEMAS[id as FieldId];
  const options = node['ui:options'] ?? {};
  const validate = definitionAjv.compile(schema);
  if (!validate(options)) {
    for (const error of validate.errors ?? []) checker.report(file, `${pointerOf([...parts, 'ui:options'])}${error.instancePath}`, `${id}: ${error.message ?? 'invalid'}`);
    return;
  }
  useOptionKeys(checker, file, options, schema, [...parts, 'ui:options']);
}

/** Every value an options schema marks `x-localeKey` (a '$' value comes from the screen, not locales/). */
function useOptionKeys(checker: Checker, file: string, value: Json, schema: Record<string, any>, parts: Array<string | number>): void {
  if (schema['x-localeKey'] && typeof value === 'string') {
    if (!value.startsWith('$')) checker.useKey(file, parts, value);
    return;
  }
  if (Array.isArray(schema.anyOf)) {
    const branch = (schema.anyOf as Array<Record<string, any>>).find((candidate) => definitionAjv.validate(candidate, value));
    if (branch) useOptionKeys(checker, file, value, branch, parts);
    return;
  }
  if (Array.isArray(value) && schema.items) value.forEach((item, index) => useOptionKeys(checker, file, item, schema.items, [...parts, index]));
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[name] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (childSchema) useOptionKeys(checker, file, child, childSchema, [...parts, name]);
    }
  }
}

function checkLocales(checker: Checker, root: string): void {
  const keysByLanguage = new Map<string, Map<string, { file: string; parts: Array<string | number> }>>();
  for (const language of LANGUAGES) {
    const dir = path.join(root, 'locales', language);
    const keys = new Map<string, { file: string; parts: Array<string | number> }>();
    for (const name of jsonFiles(dir)) {
      const file = path.join(dir, name);
      const tree = checker.parse(file);
      if (tree === undefined) continue;
      const flat = new Map<string, Array<string | number>>();
      flattenLocale(tree, path.basename(name, '.json'), flat);
      for (const [key, parts] of flat) {
        const value = (parts as string[]).reduce<any>((node, part) => node?.[part], tree);
        if (typeof value !== 'string') checker.report(file, pointerOf(parts), 'must be a string');
        keys.set(key, { file, parts });
      }
    }
    keysByLanguage.set(language, keys);
  }
  for (const language of LANGUAGES) {
    for (const other of LANGUAGES) {
      if (other === language) continue;
      for (const [key, { parts }] of keysByLanguage.get(other)!) {
        if (keysByLanguage.get(language)!.has(key)) continue;
        const [fileName] = key.split('.');
        checker.report(path.join(root, 'locales', language, `${fileName}.json`), pointerOf(parts), `missing in ${language} (present in ${other})`);
      }
    }
  }
  const hasKey = (keys: Map<string, unknown>, use: Found) => keys.has(use.key) || (use.tree === true && [...keys.keys()].some((key) => key.startsWith(`${use.key}.`)));
  for (const use of checker.keyUses) {
    for (const language of LANGUAGES) {
      if (!hasKey(keysByLanguage.get(language)!, use)) {
        checker.problems.push({ file: use.file, pointer: use.pointer, message: `locale key "${use.key}" is missing in ${language}` });
      }
    }
  }
}

/** Files of a directory tree with one of the endings. */
function sourceFiles(dir: string, endings: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full, endings);
    return endings.test(entry.name) ? [full] : [];
  });
}

/** Locale keys written as literals in the browser code: t('…'), i18nKey="…" and messageKey: '…'. */
const CODE_KEY = /\bt\(\s*'([a-zA-Z][\w]*(?:\.[\w]+)+)'|i18nKey="([a-zA-Z][\w]*(?:\.[\w]+)+)"|messageKey: '([a-zA-Z][\w]*(?:\.[\w]+)+)'/g;

function checkCodeKeys(checker: Checker, root: string): void {
  for (const file of sourceFiles(path.join(root, 'src', 'client'), /\.tsx?$/)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(CODE_KEY)) {
      const line = source.slice(0, match.index).split('\n').length;
      checker.keyUses.push({ file: checker.relative(file), pointer: `line ${line}`, key: (match[1] ?? match[2] ?? match[3])!, tree: true });
    }
  }
}

export function checkConfiguration(root = PROJECT_ROOT, options: CheckOptions = {}): Problem[] {
  const checker = new Checker(root);
  checkDefinitionSchemas(checker, root);
  const forms = checkSchemas(checker, root);
  checkScreens(checker, root, forms, options);
  checkCodeKeys(checker, root);
  checkLocales(checker, root);
  checkClosedDays(checker, root);
  return checker.problems;
}
