/**
 * The configuration check behind `npm run check:config` (DESIGN principle 7): every schema, screen and locale file
 * parses and compiles, every locale key exists in every language, every key, form, widget and component a file
 * names exists. Each problem names its file and the JSON pointer inside it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import { LANGUAGES } from '../common/languages.js';
import { COMPONENT_IDS } from '../client/screens/componentIds.js';
import { BUILT_IN_WIDGET_IDS, FIELD_IDS, FIELD_OPTIONS_SCHEMAS, WIDGET_IDS, type FieldId } from '../client/widgets/ids.js';
import { SCREEN_EVENTS } from '../client/engine/events.js';
import { FUNCTION_NAMES } from '../client/engine/forms/functions.js';
import { PAYLOAD_NAMES } from '../client/engine/forms/payloads.js';
import { AJV_OPTIONS } from './ajvOptions.js';
import { collectConditions } from './conditions.js';
import { FRAGMENTS_DIR, jsonFiles, PROJECT_ROOT, resolveExtends, SHARED_SCHEMA, withSharedDefinitions, type JsonSchema } from './load.js';
import { fragmentDefinitionSchema, navigationSchema, screenDefinitionSchema } from './screenSchema.js';

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
  constructor(private readonly root: string) {}

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

function checkSchemas(checker: Checker, root: string): Record<string, JsonSchema> {
  const dir = path.join(root, 'schemas');
  const shared = (checker.parse(path.join(dir, `${SHARED_SCHEMA}.json`)) ?? {}) as JsonSchema;
  const forms: Record<string, JsonSchema> = {};
  for (const name of jsonFiles(dir)) {
    const file = path.join(dir, name);
    const schema = checker.parse(file) as JsonSchema | undefined;
    if (!schema) continue;
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
    try {
      ajvErrors(new Ajv({ ...AJV_OPTIONS })).compile(form);
      forms[path.basename(name, '.json')] = form;
    } catch (error) {
      checker.report(file, '', `does not compile: ${(error as Error).message}`);
    }
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

/** Every condition compiles (the build precompiles them the same way). */
function checkConditions(checker: Checker, file: string, screen: unknown): void {
  const ajv = new Ajv({ ...AJV_OPTIONS });
  for (const { condition, pointer } of collectConditions(screen).values()) {
    try {
      ajv.compile(condition);
    } catch (error) {
      checker.report(file, pointer, `condition does not compile: ${(error as Error).message}`);
    }
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
  return calls;
}

/** `organizations/:orgId/x` and the route `/api/v2/organizations/:id/x` are the same call: placeholders' names do not matter. */
const routeShape = (method: string, path: string) => `${method} ${path.replace(/:[a-zA-Z][a-zA-Z0-9]*/g, ':')}`;

function checkCalls(checker: Checker, calls: CallUse[], routes: readonly string[]): void {
  const known = new Set(routes.map((route) => routeShape(route.split(' ')[0]!, route.slice(route.indexOf(' ') + 1))));
  for (const use of calls) {
    const url = `/api/${use.version ?? 'v2'}/${use.path}`;
    if (!known.has(routeShape(use.method, url))) checker.report(use.file, use.pointer, `no server route ${use.method} ${url}`);
  }
}

/** The fragments a definition names (FragmentBlock), with the pointers of the blocks naming them. */
function fragmentUses(definition: unknown): Array<{ name: string; parts: Array<string | number> }> {
  const uses: Array<{ name: string; parts: Array<string | number> }> = [];
  walk(definition, [], (value, parts) => {
    const node = value as Record<string, unknown> | null;
    if (node && typeof node === 'object' && !Array.isArray(node) && node.type === 'fragment' && typeof node.name === 'string' && parts.at(-2) !== 'when') uses.push({ name: node.name, parts });
  });
  return uses;
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
function checkFragments(checker: Checker, root: string): Map<string, { file: string; fragment: Record<string, any> }> {
  const dir = path.join(root, 'screens', FRAGMENTS_DIR);
  const fragments = new Map<string, { file: string; fragment: Record<string, any> }>();
  if (!existsSync(dir)) return fragments;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(fragmentDefinitionSchema as object);
  for (const name of jsonFiles(dir)) {
    const file = path.join(dir, name);
    const fragment = checker.parse(file) as Record<string, any> | undefined;
    if (!fragment) continue;
    if (!validate(fragment)) {
      for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
      continue;
    }
    fragments.set(path.basename(name, '.json'), { file, fragment });
    checkScreenKeys(checker, file, fragment);
    checkConditions(checker, file, fragment);
  }
  for (const [name, { file, fragment }] of fragments) {
    if (fragmentsShownBy(fragment, fragments).has(name)) checker.report(file, '', `the fragment "${name}" shows itself`);
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

/** Screens named by links and outcomes, and actions named by items and cells, exist; events have a handler. */
function checkReferences(checker: Checker, screens: Array<{ file: string; screen: Record<string, any> }>, fragments: Array<{ file: string; fragment: Record<string, any> }> = []): void {
  const ids = new Set(screens.map(({ screen }) => screen.id));
  const definitions = [...screens.map(({ file, screen }) => ({ file, screen, isFragment: false })), ...fragments.map(({ file, fragment }) => ({ file, screen: fragment, isFragment: true }))];
  for (const { file, screen, isFragment } of definitions) {
    walk(screen, [], (value, parts) => {
      const word = parts.at(-1);
      if (word === 'screen' && typeof value === 'string' && parts.length > 1 && !ids.has(value)) checker.report(file, pointerOf(parts), `unknown screen "${value}"`);
      // a fragment's actions are those of each screen showing it (checkFragmentUses)
      if (!isFragment && word === 'action' && typeof value === 'string' && !(value in (screen.actions ?? {}))) checker.report(file, pointerOf(parts), `unknown action "${value}"`);
      const events = Object.values(SCREEN_EVENTS) as string[];
      if (word === 'event' && typeof value === 'string' && !events.includes(value)) {
        checker.report(file, pointerOf(parts), `no feature handles the event "${value}"; known: ${events.join(', ')}`);
      }
    });
  }
}

/** frame/navigation.json: the menu and footer links, checked like the links of a screen. */
function checkNavigation(checker: Checker, root: string): { file: string; screen: Record<string, any> } | undefined {
  const file = path.join(root, 'frame', 'navigation.json');
  const navigation = checker.parse(file) as Record<string, any> | undefined;
  if (!navigation) return undefined;
  const validate = new Ajv({ allErrors: true, strict: false }).compile(navigationSchema as object);
  if (!validate(navigation)) {
    for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
    return undefined;
  }
  checkScreenKeys(checker, file, navigation);
  checkConditions(checker, file, navigation);
  return { file, screen: navigation };
}

/** Every screen file parsed, with `extends` resolved (load.ts resolveExtends); a bad base is reported on its file. */
function parseScreens(checker: Checker, dir: string): Array<{ file: string; screen: Record<string, any> }> {
  const parsed = jsonFiles(dir).flatMap((name) => {
    const file = path.join(dir, name);
    const screen = checker.parse(file) as Record<string, any> | undefined;
    return screen ? [{ file, screen }] : [];
  });
  const all = parsed.map((entry) => entry.screen);
  return parsed.flatMap(({ file, screen }) => {
    try {
      return [{ file, screen: resolveExtends([screen], all)[0]! }];
    } catch (error) {
      checker.report(file, '/extends', (error as Error).message);
      return [];
    }
  });
}

function checkScreens(checker: Checker, root: string, forms: Record<string, JsonSchema>, options: CheckOptions): void {
  const dir = path.join(root, 'screens');
  const fragments = checkFragments(checker, root);
  const validate = new Ajv({ allErrors: true, strict: false }).compile(screenDefinitionSchema as object);
  const seen = { ids: new Map<string, string>(), paths: new Map<string, string>() };
  const valid: Array<{ file: string; screen: Record<string, any> }> = [];
  for (const { file, screen } of parseScreens(checker, dir)) {
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
    checkConditions(checker, file, screen);
    checkFragmentUses(checker, file, screen, fragments);
    checkDataOrder(checker, file, screen);
    if (screen.form) checkFormUse(checker, file, screen.form, forms);
    for (const [id, action] of Object.entries<any>(screen.actions ?? {})) {
      if (action.form && !forms[action.form.schema]) checker.report(file, pointerOf(['actions', id, 'form', 'schema']), `unknown form "${action.form.schema}"`);
      if ((action.form || action.confirm) && !action.call) checker.report(file, pointerOf(['actions', id]), 'an action with a form or a confirmation needs a call');
    }
  }
  const navigation = checkNavigation(checker, root);
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
  for (const field of Object.keys(form.uiSchema ?? {})) {
    if (!field.startsWith('ui:') && !fields.includes(field)) checker.report(file, pointerOf(['form', 'uiSchema', field]), `unknown field "${field}"`);
  }
}

const fieldOptionsAjv = new Ajv({ allErrors: true, strict: false });

/** A custom field ("ui:field"): a known id, and ui:options its schema accepts, with their locale keys. */
function checkFieldUse(checker: Checker, file: string, node: Record<string, unknown>, parts: Array<string | number>): void {
  const id = node['ui:field'];
  if (typeof id !== 'string' || !(FIELD_IDS as readonly string[]).includes(id)) {
    checker.report(file, pointerOf([...parts, 'ui:field']), `unknown field "${String(id)}"; known: ${FIELD_IDS.join(', ')}`);
    return;
  }
  const schema = FIELD_OPTIONS_SCHEMAS[id as FieldId];
  const options = node['ui:options'] ?? {};
  const validate = fieldOptionsAjv.compile(schema);
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
    const branch = (schema.anyOf as Array<Record<string, any>>).find((candidate) => fieldOptionsAjv.validate(candidate, value));
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
  const forms = checkSchemas(checker, root);
  checkScreens(checker, root, forms, options);
  checkCodeKeys(checker, root);
  checkLocales(checker, root);
  return checker.problems;
}
