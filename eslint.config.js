// @ts-check
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import checkFile from 'eslint-plugin-check-file';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import reactRefresh from 'eslint-plugin-react-refresh';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// ── layer rules (style guide §B1, docs/architecture.md) ────────────────────────────────────────
// One `no-restricted-imports` config per folder, generated here: flat config replaces a rule's
// options per matching block instead of merging them, so each block must carry the full list.

const TS = '{ts,tsx}';
const TESTS = `**/*.test.${TS}`;

/** Imports banned everywhere. */
const COMMON_PATHS = [
  {
    name: 'react',
    importNames: ['default'],
    message: 'Import named exports from react; the JSX transform needs no React in scope.',
  },
];
/** The participant package's Daml-LF decoder reaches the console through one door (ADR 008, 011). */
const DAML_LF = {
  regex: '^@ledger-console/participant/daml-lf/',
  message:
    'Only src/api/ reaches the Daml-LF decoder (@ledger-console/participant/daml-lf/*); use its package queries.',
};
/** What the console and the sandbox both know lives in the participant package (ADR 011). */
const SANDBOX = {
  regex: '(?:^|/)sandbox/src(?:/|$)',
  message:
    'The console never imports the sandbox: what both know is in @ledger-console/participant (ADR 011); only src/testing/ uses the sandbox, as test infrastructure.',
};
/** The participant package's test fixtures (DARs built by its encoder) are for tests only. */
const PARTICIPANT_TESTING = {
  regex: '^@ledger-console/participant/testing/',
  message: "The participant package's test fixtures are for tests and src/testing/ only.",
};
/** The SPA reads the edge package's browser-safe modules only: the `/__console` paths and types. */
const EDGE_NODE_MODULES = {
  regex: '^@ledger-console/edge/(?!console-api$)',
  message:
    'The SPA imports only @ledger-console/edge/console-api (paths and types); the rest of the edge package is Node code for the servers (ADR 018).',
};
/** The sandbox never imports the SPA or the console server. */
const SANDBOX_STANDS_ALONE = {
  regex: '^(?:@/|(?:\\.\\./)+(?:src|server)(?:/|$))',
  message: 'The sandbox stands alone: it never imports the SPA (src/) or the server.',
};
const OPENAPI_FETCH = {
  name: 'openapi-fetch',
  message: 'Only src/api/client.ts uses openapi-fetch; call the resource modules in src/api/.',
};

/**
 * The sandbox's public modules (docs/architecture.md): `index` (the participant), `testing/index`
 * (test tokens, raw HTTP) and the scenario vocabulary. Outside sandbox/, nothing else of it may be
 * imported, so its inner folders can change freely. What a server needs without a sandbox (the
 * request guard, body limits) is in @ledger-console/edge (ADR 018).
 * @param {string[]} doors
 */
function sandboxInternals(doors) {
  return {
    regex: `(?:^|/)sandbox/src/(?!(?:${doors.join('|')})$)`,
    message:
      'Outside sandbox/, import the sandbox only through sandbox/src/index or scenarios/*, and in tests testing/index.',
  };
}
const SANDBOX_DOORS = ['index', 'scenarios/[\\w-]+'];
const SANDBOX_TEST_DOORS = [...SANDBOX_DOORS, 'testing/index'];

/**
 * @param {object} options
 * @param {string[]} options.allows top-level folders (or root modules) of src/ reachable via `@/`
 * @param {string} options.why the rule in words, shown with the error
 * @param {string} [options.parentImports] regex of the parent-relative imports to ban; default: all
 * @param {boolean} [options.allowOpenapiFetch]
 * @param {boolean} [options.allowDamlLf]
 * @param {boolean} [options.allowParticipantTesting]
 * @param {boolean} [options.allowSandbox]
 * @param {{ regex: string; message: string }[]} [options.extraPatterns]
 */
function restrictImports({
  allows,
  why,
  parentImports = '^\\.\\./',
  allowOpenapiFetch = false,
  allowDamlLf = false,
  allowParticipantTesting = false,
  allowSandbox = false,
  extraPatterns = [],
}) {
  return {
    'no-restricted-imports': [
      'error',
      {
        paths: allowOpenapiFetch ? COMMON_PATHS : [...COMMON_PATHS, OPENAPI_FETCH],
        patterns: [
          {
            regex: `^@/(?!(?:${allows.join('|')})(?:/|$))`,
            message: why,
          },
          ...(allowDamlLf ? [] : [DAML_LF]),
          ...(allowParticipantTesting ? [] : [PARTICIPANT_TESTING]),
          ...(allowSandbox ? [] : [SANDBOX]),
          EDGE_NODE_MODULES,
          {
            regex: parentImports,
            message:
              'Import from outside this folder through the @/ alias, so the layer rules see it.',
          },
          ...extraPatterns,
        ],
      },
    ],
  };
}

const SERVER_NO_SPA = {
  regex: '^(?:@/|(?:\\.\\./)+src(?:/|$))',
  message: 'The server serves the built SPA; it never imports its source.',
};
const SERVER_NO_SANDBOX = {
  regex: '(?:^|/)sandbox/src(?:/|$)',
  message:
    'The server never loads sandbox/ when it proxies to a real participant: import @ledger-console/edge (ADR 018); only server/src/main.ts starts the embedded sandbox.',
};
/**
 * `no-restricted-imports` does not see `import()`; esquery regexes cannot hold `/`, hence `\x2F`.
 * @param {string} sourceRegex
 */
function serverDynamicSandbox(sourceRegex) {
  return {
    selector: `ImportExpression[source.value=/${sourceRegex}/]`,
    message: SERVER_NO_SANDBOX.message,
  };
}

const ROOT_MODULES = ['env', 'theme'];
const SHARED = ['lib', 'api', 'components', 'hooks', 'pickers', 'blocks'];

/** The rooms of src/lib/ and the rooms each may import; the lowest rooms import none. */
const LIB_ROOMS = {
  text: [],
  values: [],
  forms: [],
  signing: [],
  storage: [],
  access: ['text'],
  fleet: [],
  scheduling: [],
  activity: ['storage', 'values'],
  errors: ['access', 'values'],
  navigation: ['text'],
  onboarding: ['access', 'forms', 'signing'],
  'transaction-tree': ['errors', 'text', 'values'],
};

/** LIB_ROOMS, checked against the folders: a new room must say what it builds on. */
function libRooms() {
  const folders = listFolders(new URL('src/lib/', import.meta.url));
  const undeclared = folders.filter((folder) => !(folder in LIB_ROOMS));
  if (undeclared.length > 0) {
    throw new Error(
      `eslint.config.js: declare the lib/ room(s) ${undeclared.join(', ')} in LIB_ROOMS with the rooms they import.`,
    );
  }
  return LIB_ROOMS;
}

/** @type {{ files: string[]; allows: string[]; testAllows?: string[]; why: string; allowDamlLf?: boolean }[]} */
const LAYERS = [
  {
    files: [`src/*.${TS}`],
    allows: ['app', 'lib', ...ROOT_MODULES],
    why: 'src/ root modules only start the app.',
  },
  {
    files: [`src/lib/**/*.${TS}`],
    allows: ['lib'],
    why: 'lib/ is framework-free and imports nothing else of ours.',
  },
  // Each room of lib/ names the rooms it builds on, so the rooms stay a short, acyclic map
  // (docs/architecture.md); a room's tests may read any room.
  ...Object.entries(libRooms()).map(([room, uses]) => ({
    files: [`src/lib/${room}/**/*.${TS}`],
    allows: [`lib/${room}`, ...uses.map((used) => `lib/${used}`)],
    testAllows: ['lib'],
    why:
      uses.length > 0
        ? `lib/${room}/ may import only lib/${uses.join('/, lib/')}/ of the other rooms (LIB_ROOMS in eslint.config.js).`
        : `lib/${room}/ imports no other room of lib/ (LIB_ROOMS in eslint.config.js).`,
  })),
  {
    files: [`src/api/**/*.${TS}`],
    allows: ['lib', 'api', 'env'],
    why: 'api/ may import only lib/.',
    allowDamlLf: true,
  },
  {
    files: [`src/components/**/*.${TS}`],
    allows: ['lib', 'components'],
    why: 'components/ knows nothing of the API: only lib/.',
  },
  {
    files: [`src/hooks/**/*.${TS}`],
    allows: ['lib', 'api', 'hooks'],
    why: 'hooks/ composes queries of api/ with lib/: no components, no markup.',
  },
  {
    files: [`src/pickers/**/*.${TS}`],
    allows: ['lib', 'api', 'components', 'hooks', 'pickers'],
    why: 'pickers/ (selects of ledger things) may import api/, hooks/, components/ and lib/ only.',
  },
  {
    files: [`src/blocks/**/*.${TS}`],
    allows: ['lib', 'api', 'components', 'hooks', 'pickers', 'blocks'],
    why: 'blocks/ (API-aware pieces several features show) may import pickers/, hooks/, api/, components/ and lib/.',
  },
  {
    files: [`src/app/**/*.${TS}`],
    allows: [...SHARED, 'features', 'app', ...ROOT_MODULES],
    why: 'app/ composes everything but the test helpers.',
  },
  // Every feature folder gets its own block, so it may import itself but no other feature.
  ...listFolders(new URL('src/features/', import.meta.url)).map((feature) => ({
    files: [`src/features/${feature}/**/*.${TS}`],
    allows: [...SHARED, `features/${feature}`],
    why: 'A feature imports api/, hooks/, pickers/, blocks/, components/ and lib/, never another feature or app/.',
  })),
];

/** @param {URL} dir */
function listFolders(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const layerBlocks = LAYERS.flatMap(
  ({ files, allows, testAllows = allows, why, allowDamlLf = false }) => [
    { files, rules: restrictImports({ allows, why, allowDamlLf }) },
    // A layer's tests may also use the test helpers.
    {
      files: files.map((glob) => glob.replace(`*.${TS}`, `*.test.${TS}`)),
      rules: restrictImports({
        allows: [...testAllows, 'testing'],
        why,
        allowDamlLf,
        allowParticipantTesting: true,
      }),
    },
  ],
);

// ── the config ────────────────────────────────────────────────────────────────────────────────

export default defineConfig(
  globalIgnores([
    'dist/',
    'coverage/',
    'test-results/',
    'playwright-report/',
    'bench/results/',
    '.sandbox-data/',
  ]),

  js.configs.recommended,
  tseslint.configs.strictTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Style guide §B4: `type` over `interface` (React Flow node data must be a `type`).
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      // Numbers in template literals are clear enough; objects and nullish values stay banned.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
    },
  },
  {
    // Config files written in JS belong to no tsconfig, so they get the untyped rules only.
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },

  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { 'check-file': checkFile },
    rules: {
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx,js}': 'KEBAB_CASE' },
        // `.test`, `.spec`, `.config` and `.d` are suffixes, not part of the name.
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': [
        'error',
        { '{src,server,sandbox,packages,bench,e2e,docs}/**/': 'KEBAB_CASE' },
      ],
    },
  },

  // ── the SPA ──
  {
    files: [`src/**/*.${TS}`],
    extends: [
      reactHooks.configs.flat['recommended-latest'],
      jsxA11y.flatConfigs.recommended,
      pluginQuery.configs['flat/recommended'],
    ],
    plugins: { 'react-refresh': reactRefresh },
    languageOptions: { globals: globals.browser },
    rules: {
      'react-refresh/only-export-components': ['error', { allowConstantExport: true }],
      // Key and queryFn travel together as queryOptions (style guide §B5).
      '@tanstack/query/prefer-query-options': 'error',
    },
  },
  {
    // Screens read errors through the error model (ADR 005): describeError and its classifiers
    // (isApiError, isNotFound, isMaskedRefusal, isSigningInputError…), never with `instanceof`.
    files: [`src/{features,app,blocks,pickers,hooks,components}/**/*.${TS}`],
    ignores: [TESTS],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression[operator='instanceof'][right.name=/Error$/]",
          message:
            'Screens classify errors with the error model (describeError, isApiError, isNotFound, isMaskedRefusal… in @/lib/errors/api-error), not instanceof (ADR 005).',
        },
      ],
    },
  },
  {
    // Route modules pair a loader factory with their page by design (§B5); a loader edit reloads.
    files: ['src/app/pages/*-page.tsx'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  {
    // Test files and helpers are not hot-reloaded.
    files: [TESTS, 'src/testing/**'],
    rules: { 'react-refresh/only-export-components': 'off' },
  },
  ...layerBlocks,
  {
    files: ['src/api/client.ts'],
    rules: restrictImports({
      allows: ['lib', 'api', 'env'],
      why: 'api/ may import only lib/.',
      allowOpenapiFetch: true,
      allowDamlLf: true,
    }),
  },
  {
    // Test helpers may reach the sandbox, the one fake (§B9), by relative path; nothing else may.
    files: [`src/testing/**/*.${TS}`],
    rules: restrictImports({
      allows: [...SHARED, 'features', 'app', 'testing', ...ROOT_MODULES],
      why: 'Test helpers may import any layer.',
      allowDamlLf: true,
      allowParticipantTesting: true,
      allowSandbox: true,
      // The console server too, for tests of its own endpoints (audit log) with the app.
      parentImports: '^\\.\\./(?!\\.\\./(?:sandbox|server)/src/)',
      extraPatterns: [sandboxInternals(SANDBOX_TEST_DOORS)],
    }),
  },

  // ── the workspace packages: participant runs in the browser (the console) and in Node (the
  // sandbox); edge in Node (the console server and the sandbox), its console-api in the browser ──
  {
    files: [`packages/*/src/**/*.${TS}`],
    languageOptions: { globals: globals['shared-node-browser'] },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [
            {
              // Three levels up leaves the package from any of its folders.
              regex: '^(?:@/|(?:\\.\\./){3,}|@ledger-console/)',
              message:
                'A workspace package stands alone: it imports neither the console, the server nor the sandbox, nor another package, and itself only by relative path.',
            },
            {
              // Named too, so no path spelling (absolute, via node_modules) reaches them.
              regex: '(?:^|/)(?:sandbox|server)/',
              message:
                'The edge package serves the console server and the sandbox; it imports neither (ADR 018).',
            },
          ],
        },
      ],
    },
  },
  {
    files: [`packages/edge/src/**/*.${TS}`],
    languageOptions: { globals: globals.node },
  },
  {
    files: [`packages/*/src/**/*.test.${TS}`, `packages/*/src/testing/**/*.${TS}`],
    languageOptions: { globals: globals.node },
  },

  // ── Node code: server, sandbox, bench, e2e, configs ──
  {
    files: [`{server,sandbox,bench,e2e}/**/*.${TS}`, '*.config.ts'],
    languageOptions: { globals: globals.node },
  },
  {
    files: [`sandbox/**/*.${TS}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [SANDBOX_STANDS_ALONE],
        },
      ],
    },
  },
  {
    // The sandbox's layers (docs/architecture.md): HTTP decodes, authenticates and renders errors;
    // the ledger and its stores take typed requests and know nothing of HTTP.
    files: [`sandbox/src/{ledger,store}/**/*.${TS}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [
            SANDBOX_STANDS_ALONE,
            {
              regex:
                '^(?:(?:\\.\\./)+(?:routes|http|create-sandbox|start-sandbox)(?:/|$)|hono(?:/|$))',
              message:
                'The ledger and stores take typed requests: no Hono, routes/ or http/; decode in the routes.',
            },
          ],
        },
      ],
    },
  },
  {
    // Route tests read response JSON untyped on purpose: the test client validates every body
    // against the real OpenAPI schema before a test looks at it.
    files: [
      `sandbox/**/*.test.${TS}`,
      `sandbox/src/testing/*.${TS}`,
      `packages/*/src/**/*.test.${TS}`,
      `packages/*/src/testing/*.${TS}`,
    ],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // A deployment against a real participant neither ships nor loads sandbox/ (ADR 018): the
    // server imports what it shares with the sandbox from @ledger-console/edge, and the embedded
    // sandbox is started through one dynamic import in main.ts (the override below).
    files: [`server/**/*.${TS}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [SERVER_NO_SPA, SERVER_NO_SANDBOX],
        },
      ],
      'no-restricted-syntax': [
        'error',
        serverDynamicSandbox('(?:^|\\x2F)sandbox\\x2Fsrc(?:\\x2F|$)'),
      ],
    },
  },
  {
    // Where `npm start` without --ledger starts the embedded sandbox: its front door, loaded only then.
    files: ['server/src/main.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        serverDynamicSandbox('(?:^|\\x2F)sandbox\\x2Fsrc(?:\\x2F(?!index$)|$)'),
      ],
    },
  },
  {
    // The server's tests run it in front of a sandbox participant, through its doors.
    files: [`server/**/*.test.${TS}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [SERVER_NO_SPA, sandboxInternals(['index', 'testing/index'])],
        },
      ],
    },
  },
  {
    // The bare pages benchmarks measure against run in the browser (bench/bare/vite.config.ts).
    files: [`bench/bare/**/*.tsx`],
    languageOptions: { globals: globals.browser },
  },
  {
    files: [`{bench,e2e}/**/*.${TS}`, '*.config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...COMMON_PATHS, OPENAPI_FETCH],
          patterns: [sandboxInternals(SANDBOX_TEST_DOORS)],
        },
      ],
    },
  },
);
