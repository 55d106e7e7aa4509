/**
 * The configuration check behind `npm run check:config` (DESIGN principle 7): every schema, screen and locale file
 * parses and compiles, every locale key exists in every language, every key, form, widget and component a file
 * names exists. Each problem names its file and the JSON pointer inside it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import { LANGUAGES } from '../common/languages.js';
import { COMPONENT_IDS } from '../client/screens/componentIds.js';
import { BUILT_IN_WIDGET_IDS, WIDGET_IDS } from '../client/widgets/ids.js';
import { AJV_OPTIONS } from './ajvOptions.js';
import { jsonFiles, PROJECT_ROOT, SHARED_SCHEMA, withSharedDefinitions, type JsonSchema } from './load.js';
import { screenDefinitionSchema } from './screenSchema.js';

export interface Problem {
  file: string;
  pointer: string;
  message: string;
}

type Json = unknown;
type Found = { file: string; pointer: string; key: string };

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

function checkScreens(checker: Checker, root: string, forms: Record<string, JsonSchema>): void {
  const dir = path.join(root, 'screens');
  const validate = new Ajv({ allErrors: true, strict: false }).compile(screenDefinitionSchema as object);
  const seen = { ids: new Map<string, string>(), paths: new Map<string, string>() };
  for (const name of jsonFiles(dir)) {
    const file = path.join(dir, name);
    const screen = checker.parse(file) as Record<string, any> | undefined;
    if (!screen) continue;
    if (!validate(screen)) {
      for (const error of validate.errors ?? []) checker.report(file, error.instancePath, error.message ?? 'invalid');
      continue;
    }
    for (const [kind, value] of [['ids', screen.id], ['paths', screen.path]] as const) {
      const other = seen[kind].get(value);
      if (other) checker.report(file, kind === 'ids' ? '/id' : '/path', `${value} is also used by ${other}`);
      seen[kind].set(value, checker.relative(file));
    }
    for (const keyPath of [['title'], ['lead'], ['done', 'title'], ['done', 'message'], ['form', 'confirmLabel'], ['form', 'submit', 'label'], ['form', 'onSuccess', 'flash']]) {
      const value = keyPath.reduce<any>((node, part) => node?.[part], screen);
      if (value !== undefined) checker.useKey(file, keyPath, value);
    }
    screen.breadcrumb.forEach((item: { label: string }, index: number) => checker.useKey(file, ['breadcrumb', index, 'label'], item.label));
    for (const [step, key] of Object.entries(screen.stepLabels ?? {})) checker.useKey(file, ['stepLabels', step], key);
    if (screen.component !== undefined && !(COMPONENT_IDS as readonly string[]).includes(screen.component)) {
      checker.report(file, '/component', `unknown component "${screen.component}"; known: ${COMPONENT_IDS.join(', ') || 'none'}`);
    }
    if (screen.form) checkFormUse(checker, file, screen.form, forms);
  }
}

function checkFormUse(checker: Checker, file: string, form: Record<string, any>, forms: Record<string, JsonSchema>): void {
  const schema = forms[form.schema];
  if (!schema) {
    checker.report(file, '/form/schema', `unknown form "${form.schema}"; known: ${Object.keys(forms).join(', ')}`);
    return;
  }
  const fields = Object.keys((schema.properties as object | undefined) ?? {});
  const widgetIds = [...WIDGET_IDS, ...BUILT_IN_WIDGET_IDS] as readonly string[];
  walk(form.uiSchema ?? {}, ['form', 'uiSchema'], (value, parts) => {
    const word = parts.at(-1);
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
  (form.errors ?? []).forEach((mapping: { field: string; message: string }, index: number) => {
    checker.useKey(file, ['form', 'errors', index, 'message'], mapping.message);
    if (!fields.includes(mapping.field)) checker.report(file, pointerOf(['form', 'errors', index, 'field']), `unknown field "${mapping.field}"`);
  });
  for (const field of Object.keys(form.uiSchema ?? {})) {
    if (!field.startsWith('ui:') && !fields.includes(field)) checker.report(file, pointerOf(['form', 'uiSchema', field]), `unknown field "${field}"`);
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
  for (const use of checker.keyUses) {
    for (const language of LANGUAGES) {
      if (!keysByLanguage.get(language)!.has(use.key)) {
        checker.problems.push({ file: use.file, pointer: use.pointer, message: `locale key "${use.key}" is missing in ${language}` });
      }
    }
  }
}

export function checkConfiguration(root = PROJECT_ROOT): Problem[] {
  const checker = new Checker(root);
  const forms = checkSchemas(checker, root);
  checkScreens(checker, root, forms);
  checkLocales(checker, root);
  return checker.problems;
}
