/**
 * Reads the product configuration (schemas/, screens/, locales/) from disk.
 * Used by the server, the webpack build and `npm run check:config`; never by the browser bundle.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, type Language } from '../common/languages.js';
import type { FragmentDefinition, NavigationDefinition, ScreenDefinition } from '../common/screens.js';
import { CONDITIONS_FILE, resolveConditions, type NamedConditions } from './conditions.js';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type JsonSchema = Record<string, unknown> & { $defs?: Record<string, unknown> };
export type LocaleTree = { [key: string]: string | LocaleTree };

/** The file of shared definitions; every form schema can reference them as `#/$defs/<name>`. */
export const SHARED_SCHEMA = 'common';

export function readJson<T = unknown>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
}

/**
 * Copies the shared definitions into a form schema, so each form is self-contained for RJSF and ajv. The file's
 * `$schema` (the draft, for editors) is left out: the validators and the OpenAPI document get the schema as before.
 */
export function withSharedDefinitions(schema: JsonSchema, shared: JsonSchema): JsonSchema {
  const { $schema: _draft, ...own } = schema;
  return { ...own, $defs: { ...(shared.$defs ?? {}), ...(schema.$defs ?? {}) } };
}

/** Every form schema by name (file name without .json), with the shared definitions merged in. */
export function loadFormSchemas(root = PROJECT_ROOT): Record<string, JsonSchema> {
  const dir = path.join(root, 'schemas');
  const shared = readJson<JsonSchema>(path.join(dir, `${SHARED_SCHEMA}.json`));
  const schemas: Record<string, JsonSchema> = {};
  for (const file of jsonFiles(dir)) {
    const name = path.basename(file, '.json');
    if (name === SHARED_SCHEMA) continue;
    schemas[name] = withSharedDefinitions(readJson<JsonSchema>(path.join(dir, file)), shared);
  }
  return schemas;
}

/** One resource tree per language; each file is a top-level key (locales/en/registration.json → `registration.*`). */
export function loadLocales(root = PROJECT_ROOT): Record<Language, LocaleTree> {
  const result = {} as Record<Language, LocaleTree>;
  for (const language of LANGUAGES) {
    const dir = path.join(root, 'locales', language);
    const tree: LocaleTree = {};
    for (const file of jsonFiles(dir)) tree[path.basename(file, '.json')] = readJson<LocaleTree>(path.join(dir, file));
    result[language] = tree;
  }
  return result;
}

/** The header menu and the footer links: frame/navigation.json, its conditions in full. */
export function loadNavigation(root = PROJECT_ROOT): NavigationDefinition {
  return resolveConditions(readJson<NavigationDefinition>(path.join(root, 'frame', 'navigation.json')), loadNamedConditions(root));
}

/** The shared named conditions of screens/conditions.json (none without the file), without its `$schema`. */
export function loadNamedConditions(root = PROJECT_ROOT): NamedConditions {
  const file = path.join(root, 'screens', CONDITIONS_FILE);
  if (!existsSync(file)) return {};
  const { $schema: _schema, $comment: _comment, ...names } = readJson<NamedConditions>(file);
  return names;
}

/** The screen files of a screens folder: every .json file but the named conditions. */
export function screenFiles(dir: string): string[] {
  return jsonFiles(dir).filter((name) => name !== CONDITIONS_FILE);
}

/** Every screen, `extends` resolved and its conditions in full (src/configuration/conditions.ts). */
export function loadScreens(root = PROJECT_ROOT): ScreenDefinition[] {
  const dir = path.join(root, 'screens');
  const names = loadNamedConditions(root);
  const files = screenFiles(dir).map((file) => readJson<Record<string, unknown>>(path.join(dir, file)));
  return resolveExtends(files).map((screen) => resolveConditions(screen, names)) as unknown as ScreenDefinition[];
}

type ScreenFile = Record<string, unknown>;

/**
 * A screen file with `"extends": "<screen id>"` is that screen with its own keys laid over it, and its `form`'s keys
 * over the base's form and its named `conditions` over the base's (one level; anything else is replaced whole). Two
 * screens that differ in a few keys — the new and the edit application wizards — so keep their shared form layout,
 * blocks and actions in one file. Throws on an unknown base and on screens that extend each other in a loop. `all`:
 * the screens a base is looked up in (default: those given).
 */
export function resolveExtends(screens: ScreenFile[], all: ScreenFile[] = screens): ScreenFile[] {
  const byId = new Map(all.map((screen) => [screen.id, screen]));
  const resolve = (screen: ScreenFile, seen: unknown[]): ScreenFile => {
    if (screen.extends === undefined) return screen;
    const base = byId.get(screen.extends);
    if (!base) throw new Error(`screen "${String(screen.id)}" extends an unknown screen "${String(screen.extends)}"`);
    const chain = [...seen, screen.id];
    if (chain.includes(screen.extends)) throw new Error(`screens extend each other in a loop: ${[...chain.slice(chain.indexOf(screen.extends)), screen.extends].map(String).join(' → ')}`);
    const resolvedBase = resolve(base, chain);
    const { extends: _base, ...own } = screen;
    const merged: ScreenFile = { ...resolvedBase, ...own };
    for (const key of ['form', 'conditions']) {
      if (isObject(resolvedBase[key]) && isObject(own[key])) merged[key] = { ...resolvedBase[key], ...own[key] };
    }
    return merged;
  };
  return screens.map((screen) => resolve(screen, []));
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The folder of shared blocks (FragmentBlock), inside screens/ but not screens themselves. */
export const FRAGMENTS_DIR = 'fragments';

/** Every fragment by name (file name without .json) from screens/fragments/, its conditions in full. */
export function loadFragments(root = PROJECT_ROOT): Record<string, FragmentDefinition> {
  const dir = path.join(root, 'screens', FRAGMENTS_DIR);
  if (!existsSync(dir)) return {};
  const names = loadNamedConditions(root);
  return Object.fromEntries(jsonFiles(dir).map((file) => [path.basename(file, '.json'), resolveConditions(readJson<FragmentDefinition>(path.join(dir, file)), names)]));
}
