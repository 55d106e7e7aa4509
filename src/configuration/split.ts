/**
 * How the configuration is split for the browser's first load (issue 20): the frame gets each screen's route entry
 * (what the router, the title and the breadcrumb read) and the words the frame and the code name; a screen's own
 * chunk gets its full definition, its conditions and the words only its definition names. One source still: every
 * part is computed here from screens/, locales/ and schemas/.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallDefinition, DataDefinition, FragmentDefinition, NavigationDefinition, RoutePreload, ScreenDefinition } from '../common/screens.js';
import { translates } from '../common/translatingRoutes.js';
import type { JsonSchema, LocaleTree } from './load.js';

/** The keys of a screen the frame reads: route, access, title, lead, breadcrumb, step titles. */
const ROUTE_KEYS = ['id', 'path', 'access', 'width', 'title', 'lead', 'breadcrumb', 'query', 'flag', 'component', 'reauthentication', 'stepTitles'] as const;

/** A value the route alone gives: a literal, a route parameter, the URL's query or the page's language. */
const fromRoute = (value: unknown) => typeof value !== 'string' || !value.startsWith('$') || /^\$(params|query)\.[^.]+$|^\$language$/.test(value);

/** A data entry the first load can call on matching the route: a GET that waits for nothing but the route. */
function preloadable(definition: DataDefinition): boolean {
  const { method = 'GET', after, when, body, bearer, instead, multipart, params = {}, query = {} } = definition;
  return method === 'GET' && !after && when === undefined && !body && !bearer && !instead && !multipart && [...Object.values(params), ...Object.values(query)].every(fromRoute);
}

/** The query, with the page's language where the answer is translated: as calls.ts adds it, known here at build time. */
function withLanguage(path: string, version: CallDefinition['version'], query: CallDefinition['query']): Pick<CallDefinition, 'query'> {
  if (!translates('GET', path, version) || query?.lang !== undefined) return query ? { query } : {};
  return { query: { ...query, lang: '$language' } };
}

/**
 * Whether a screen shows its form as soon as it shows: a screen of its form alone, or a form among its blocks. A form
 * further in (a table row's expansion, a panel's) waits for the admin: its engine comes after the screen's content
 * (issue 47: /users paid for RJSF before its rows), not beside the screen's code.
 */
const showsFormAtOnce = (screen: ScreenDefinition) => !screen.component && screen.form !== undefined && (screen.blocks ?? [{ type: 'form' }]).some((block) => block.type === 'form');

/** Whether a uiSchema names the DateInput widget (the browser's date field) anywhere. */
const namesDateInput = (uiSchema: unknown): boolean =>
  typeof uiSchema === 'object' && uiSchema !== null && Object.entries(uiSchema).some(([key, value]) => (key === 'ui:widget' ? value === 'DateInput' : namesDateInput(value)));

/** Whether a screen shows a browser date field as soon as it shows: a date filter among its blocks, or one in the form it shows at once. */
const showsDateFieldAtOnce = (screen: ScreenDefinition) =>
  !screen.component && ((screen.blocks ?? []).some((block) => block.type === 'date') || (showsFormAtOnce(screen) && namesDateInput(screen.form!.uiSchema)));

/** Whether a screen shows a virtualised table (a table block with `virtual`, wherever it stands among its blocks). */
const showsVirtualTable = (screen: ScreenDefinition): boolean => !screen.component && hasVirtualTable(screen.blocks);
const hasVirtualTable = (value: unknown): boolean => {
  if (Array.isArray(value)) return value.some(hasVirtualTable);
  if (value === null || typeof value !== 'object') return false;
  const block = value as { type?: unknown; virtual?: unknown };
  return (block.type === 'table' && block.virtual !== undefined) || Object.values(value).some(hasVirtualTable);
};

/** What the first load starts beside the screen's code when its route is matched (RoutePreload). */
function routePreload(screen: ScreenDefinition): RoutePreload | undefined {
  const data = Object.entries(screen.data ?? {})
    .filter(([, definition]) => preloadable(definition))
    .map(([key, { path, version, params, query }]): [string, CallDefinition] => [key, { path, ...(version && { version }), ...(params && { params }), ...withLanguage(path, version, query) }]);
  const preload: RoutePreload = {
    ...(data.length > 0 && { data: Object.fromEntries(data) }),
    ...(showsFormAtOnce(screen) && { form: screen.form!.schema }),
    ...(showsDateFieldAtOnce(screen) && { dateField: true as const }),
    ...(showsVirtualTable(screen) && { virtualTable: true as const }),
  };
  return Object.keys(preload).length > 0 ? preload : undefined;
}

/**
 * A screen's entry in the route table: its frame keys, of its form only the steps (a step is a route segment), and
 * what to start loading when the route is matched.
 */
export function routeEntry(screen: ScreenDefinition): ScreenDefinition {
  const entry = Object.fromEntries(ROUTE_KEYS.filter((key) => screen[key] !== undefined).map((key) => [key, screen[key]])) as unknown as ScreenDefinition;
  const preload = routePreload(screen);
  return { ...entry, ...(screen.form?.steps && { form: { steps: screen.form.steps } as ScreenDefinition['form'] }), ...(preload && { preload }) };
}

/** Every string anywhere in a value. */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* strings(item);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) yield* strings(item);
}

/** The namespaces (locale files) whose keys a value names: a string '<namespace>.<key>'. */
export function namespacesIn(value: unknown, namespaces: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const text of strings(value)) {
    const namespace = /^([a-zA-Z]+)\./.exec(text)?.[1];
    if (namespace && namespaces.has(namespace)) found.add(namespace);
  }
  return found;
}

/** The fragments a value shows, and those they show in turn. */
export function fragmentsOf(value: unknown, fragments: Record<string, FragmentDefinition>, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) fragmentsOf(item, fragments, found);
  else if (value !== null && typeof value === 'object') {
    const block = value as { type?: unknown; name?: unknown };
    if (block.type === 'fragment' && typeof block.name === 'string' && !found.has(block.name) && fragments[block.name]) {
      found.add(block.name);
      fragmentsOf(fragments[block.name], fragments, found);
    }
    for (const item of Object.values(value)) fragmentsOf(item, fragments, found);
  }
  return found;
}

/** The form schemas a screen shows: its form's and its actions' dialog forms. */
function formsOf(screen: ScreenDefinition): string[] {
  const dialogs = Object.values(screen.actions ?? {}).map((action) => action.form?.schema);
  return [screen.form?.schema, ...dialogs].filter((name): name is string => typeof name === 'string');
}

/** What a screen's chunk holds beside its definition: the fragments it shows and the namespaces it names. */
export function screenParts(screen: ScreenDefinition, fragments: Record<string, FragmentDefinition>, schemas: Record<string, JsonSchema>, namespaces: ReadonlySet<string>) {
  const shown = [...fragmentsOf(screen, fragments)].map((name) => [name, fragments[name]!] as const);
  const forms = formsOf(screen).map((name) => schemas[name]);
  return { fragments: Object.fromEntries(shown), namespaces: namespacesIn([screen, shown, forms], namespaces) };
}

/**
 * The namespaces a source file names in a string literal that starts a key ('users.…', `errors.${code}`). A bare
 * 'signin' (a class name, a step's name) names no key: the IdP's server-rendered words stay out of the first load.
 */
export function namespacesOfCode(source: string, namespaces: ReadonlySet<string>): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...code.matchAll(/['"`]([a-zA-Z]+)\./g)].map((match) => match[1]!).filter((name) => namespaces.has(name));
}

/**
 * The keys a source file names, each the static start of a literal that starts a key: 'common.menu.label' itself,
 * `errors.field.${code}` → errors.field (the subtree), `errors.${code}` → errors (the whole namespace).
 */
export function keysOfCode(source: string, namespaces: ReadonlySet<string>): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  return [...code.matchAll(/['"`]([a-zA-Z]+\.[\w.-]*)/g)].map((match) => match[1]!.replace(/\.+$/, '')).filter((key) => namespaces.has(key.split('.')[0]!));
}

/** The project files a module imports with `import('./…')`: the code-component screens of screens/registry.ts. */
export function dynamicImports(file: string): string[] {
  const specifiers = [...readFileSync(file, 'utf8').matchAll(/\bimport\((?:\s*\/\*[^*]*\*\/)?\s*['"](\.[^'"]+)['"]\s*\)/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => path.resolve(path.dirname(file), specifier)).flatMap(sourceFile);
}

/** The project files a module imports statically (not `import type`, not `import()`): what lands in its chunk. */
function staticImports(file: string, source: string): string[] {
  const specifiers = [...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm)].map((match) => match[1]!);
  return specifiers
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .flatMap(sourceFile);
}

/** The TypeScript source of an imported './x.js'. */
function sourceFile(resolved: string): string[] {
  return [resolved.replace(/\.js$/, '.ts'), resolved.replace(/\.js$/, '.tsx')].filter((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

/** Every project file `entry` imports statically, itself included. */
function staticallyReached(entry: string, seen = new Set<string>()): Set<string> {
  if (seen.has(entry)) return seen;
  seen.add(entry);
  staticImports(entry, readFileSync(entry, 'utf8')).forEach((file) => staticallyReached(file, seen));
  return seen;
}

export interface CodeWords {
  /** The namespaces the first load's code names. */
  initial: Set<string>;
  /** The other namespaces the browser code names (widgets, the engines). */
  lazy: Set<string>;
  /** The keys (or subtrees) of `initial` the first load's code and the code-component screens name: the frame's words. */
  keys: Set<string>;
}

/**
 * The words the browser code names, by where the code runs: `initial`, code the entry imports statically (the
 * first load), `lazy`, every other file of `dirs` (widgets, the engines: their words load with any screen made of
 * blocks); `keys`, what the first load's code and the code-component screens (`components`, shown without the
 * engines' words, with the code they import; `alone`, a file whose imports show their words otherwise) name: the
 * frame's words.
 */
export function codeNamespaces(entry: string, dirs: string[], namespaces: ReadonlySet<string>, components: string[] = [], alone: string[] = []): CodeWords {
  const initial = new Set<string>();
  const seen = staticallyReached(entry);
  for (const file of seen) namespacesOfCode(readFileSync(file, 'utf8'), namespaces).forEach((name) => initial.add(name));
  const shown = new Set(seen);
  components.forEach((file) => staticallyReached(file, shown));
  alone.forEach((file) => shown.add(file));
  // of the first load's namespaces only: a code component sees no other words than the frame's (as before issue 47)
  const keys = new Set([...shown].flatMap((file) => keysOfCode(readFileSync(file, 'utf8'), initial)));
  const lazy = new Set<string>();
  const scan = (dir: string) => {
    for (const item of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, item.name);
      if (item.isDirectory()) scan(file);
      else if (/\.tsx?$/.test(item.name) && !seen.has(file)) namespacesOfCode(readFileSync(file, 'utf8'), namespaces).forEach((name) => initial.has(name) || lazy.add(name));
    }
  };
  dirs.forEach(scan);
  return { initial, lazy, keys };
}

/** The value at a dotted key of a locale tree, if any. */
function wordAt(tree: LocaleTree, key: string): string | LocaleTree | undefined {
  return key.split('.').reduce<string | LocaleTree | undefined>((node, step) => (node && typeof node === 'object' ? node[step] : undefined), tree);
}

/** `target` with the words at `keys` of `tree` laid in, each with its plural forms (key_one, key_other…). */
function withWords(target: LocaleTree, tree: LocaleTree, keys: Iterable<string>): LocaleTree {
  for (const key of keys) {
    const steps = key.split('.');
    const last = steps.at(-1)!;
    const parent = steps.length > 1 ? wordAt(tree, steps.slice(0, -1).join('.')) : tree;
    const forms = parent && typeof parent === 'object' ? Object.entries(parent).filter(([name]) => name === last || name.startsWith(`${last}_`)) : [];
    if (forms.length === 0) continue;
    let node = target;
    for (const step of steps.slice(0, -1)) node = (node[step] = typeof node[step] === 'object' ? { ...node[step] } : {}) as LocaleTree;
    for (const [name, word] of forms) node[name] = word;
  }
  return target;
}

/** The words of `tree` that `taken` does not hold. */
function without(tree: LocaleTree, taken: LocaleTree): LocaleTree {
  const rest: LocaleTree = {};
  for (const [key, word] of Object.entries(tree)) {
    const other = taken[key];
    if (other === undefined) rest[key] = word;
    else if (typeof word === 'object' && typeof other === 'object') {
      const inner = without(word, other);
      if (Object.keys(inner).length > 0) rest[key] = inner;
    }
  }
  return rest;
}

export interface WordsSplit {
  /** The language chunk: the words the first load's code and the code-component screens name, and the screens' titles and breadcrumbs. */
  frame: LocaleTree;
  /** The namespaces the lazily loaded code names (widgets, form engine) and the rest of the first load's: loaded with the first screen. */
  engine: LocaleTree;
  /** By screen id: the namespaces only screen definitions name, those this screen names. */
  screens: Record<string, LocaleTree>;
}

/**
 * The words of one language split between the frame, the engine and the screens. A namespace no code names goes with
 * the screens that name it (whole: a screen may build a key of it from data); the frame keeps the words the first
 * load's code and the code-component screens name (a key, a subtree, or a namespace whole where a key is built from
 * its start alone) and those it shows itself (titles, leads, breadcrumbs, the menu); the rest of the first load's
 * namespaces and the namespaces of lazily loaded code come with the first screen made of blocks (issue 47: a word
 * only a form shows stays out of the first load). A namespace nothing in the browser names (the mails') is not sent.
 */
export function splitWords(tree: LocaleTree, screens: Record<string, Set<string>>, code: CodeWords, frameKeys: Iterable<string>): WordsSplit {
  const namespaces = (names: Iterable<string>) => Object.fromEntries([...names].filter((name) => tree[name]).map((name) => [name, tree[name]!])) as LocaleTree;
  const frame = withWords({}, tree, [...code.keys, ...frameKeys]);
  const own = (names: Set<string>) => namespaces([...names].filter((name) => !code.initial.has(name) && !code.lazy.has(name)));
  const engine = { ...without(namespaces(code.initial), frame), ...namespaces(code.lazy) };
  return { frame, engine, screens: Object.fromEntries(Object.entries(screens).map(([id, names]) => [id, own(names)])) };
}

/** The keys the frame shows itself: the menu's labels and every screen's title, lead, step titles and breadcrumb. */
export function frameKeys(routes: ScreenDefinition[], navigation: NavigationDefinition): Set<string> {
  return new Set([...strings(navigation), ...routes.flatMap((route) => [...strings({ ...route, id: undefined, path: undefined, query: undefined, preload: undefined })])].filter((text) => /^[a-zA-Z]+\./.test(text)));
}
