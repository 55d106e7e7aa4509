// @ts-check
/**
 * `npm run lint`: TypeScript through typescript-eslint, and the one-way dependencies of the README's architecture as
 * import rules: app → screens → features → engine → api → state → common in the browser, api → domain → db on the
 * server, each feature entered only through its index. An import is matched by its specifier (relative paths).
 */
import tseslint from 'typescript-eslint';

/** `../x/`, `../../x/` …: a folder above the importing file. */
const up = (folders) => `^(\\.\\./)+(${folders.join('|')})/`;

/** A rule entry that forbids imports of these folders, saying why. */
function forbid(folders, why) {
  return { regex: up(folders), message: why };
}

/**
 * A feature's public entries: index.js (state, sagas), components.js (what screens render, loaded lazily) and lazy.js
 * (sagas that come with a page's chunk, not in the first load).
 */
const FEATURE_INTERNALS = { regex: '(^|/)features/[^/]+/(?!(index|components|lazy)\\.js$)[^/]+$', message: 'Enter a feature through its index.js, components.js or lazy.js.' };
const OTHER_FEATURE_INTERNALS = {
  regex: '^\\.\\./(?!\\.\\.)[^/]+/(?!(index|components|lazy)\\.js$)[^/]+$',
  message: 'A feature never reaches into another feature: use its index.js, components.js or lazy.js.',
};

/** Per folder, what it may not import. */
const LAYERS = [
  { files: ['src/common/**'], patterns: [forbid(['client', 'server', 'configuration'], 'common is shared by browser and server and depends on neither.')] },
  { files: ['src/client/state/**'], patterns: [forbid(['api', 'engine', 'features', 'screens', 'app', 'widgets'], 'state is the bottom layer of the browser.')] },
  { files: ['src/client/api/**'], patterns: [forbid(['engine', 'features', 'screens', 'app', 'widgets'], 'api sits below the engine.')] },
  { files: ['src/client/engine/**'], patterns: [forbid(['features', 'screens', 'app'], 'the engine knows no feature, screen or app code.')] },
  { files: ['src/client/widgets/**'], patterns: [forbid(['features', 'screens', 'app'], 'widgets belong to the engine layer.')] },
  { files: ['src/client/features/**'], patterns: [forbid(['screens', 'app'], 'features sit below screens and app.'), OTHER_FEATURE_INTERNALS] },
  { files: ['src/client/screens/**'], patterns: [forbid(['app'], 'screens sit below the app.'), FEATURE_INTERNALS] },
  { files: ['src/client/app/**'], patterns: [FEATURE_INTERNALS] },
  { files: ['src/client/**'], patterns: [forbid(['server', 'configuration'], 'the browser never imports server code.')] },
  { files: ['src/server/**'], patterns: [forbid(['client'], 'the server never imports browser code.')] },
  { files: ['src/server/domain/**'], patterns: [forbid(['api'], 'the domain knows nothing of HTTP.')] },
  // (the demo seed in db/seed composes the domain, e.g. to hash the demo passwords)
  { files: ['src/server/db/migrations/**'], patterns: [forbid(['api', 'domain'], 'migrations sit below the domain.')] },
];

export default tseslint.config(
  { ignores: ['build/**', 'dist/**', 'node_modules/**', 'data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // the codebase types JSON walks and test doubles with any where a type would say nothing
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    files: ['test/**'],
    // chai's property assertions (expect(x).to.exist) are expressions
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  // flat config: a later entry for the same rule replaces an earlier one, so each file gets all its layers' patterns
  ...filesWithPatterns(),
);

/** One config entry per distinct set of files, with every pattern of the layers that apply to them. */
function filesWithPatterns() {
  // general folders first: the most specific entry matching a file comes last and wins
  const ordered = [...LAYERS].sort((a, b) => a.files[0].length - b.files[0].length);
  return ordered.map(({ files }) => {
    const [glob] = files;
    const applying = LAYERS.filter((layer) => covers(layer.files[0], glob));
    return { files, rules: { 'no-restricted-imports': ['error', { patterns: applying.flatMap((layer) => layer.patterns) }] } };
  });
}

/** Whether the folder glob `outer` contains the folder glob `inner` ('src/client/**' contains 'src/client/api/**'). */
function covers(outer, inner) {
  return inner.startsWith(outer.replace(/\*\*$/, ''));
}
