import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layering of the process boundaries (VS Code's rule): shared is plain TypeScript that runs
// anywhere; main (Node) and renderer (browser) may use shared but never each other.
const NODE_BUILTINS = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'http',
  'https',
  'net',
  'url',
  'util',
  'stream',
  'zlib',
  'events',
  'buffer',
];

const restrict = (patterns) => ['error', { patterns }];

// The desktop shell (src/main/desktop/): the only part of src/main that may import electron, and
// it reaches the core through src/main/core.ts alone.
const DESKTOP_SHELL = ['src/main/desktop/**'];
const MAIN_STAYS_MAIN = {
  group: ['**/renderer/**', '**/preload/**', '**/cli/**'],
  message: 'src/main may use src/shared only.',
};
// The HTTP assembly: the app that registers every feature's routes, and the doors the shell and
// the CLI use.
const ASSEMBLY = ['src/main/server/**', 'src/main/core.ts', 'src/main/cli-core.ts'];
const CORE_RULES = [
  { group: ['electron', 'electron/*'], message: 'Only src/main/desktop imports electron; the core is plain Node.' },
  { group: ['**/desktop/**'], message: 'The core never imports the desktop shell.' },
  MAIN_STAYS_MAIN,
];

// Features write Kysely; what differs per dialect (connections, bulk inserts, raw reads, error
// codes, transactions that retry lost races) lives behind src/main/db.
const DB_DRIVERS = {
  group: ['better-sqlite3', 'pg', 'pg-*'],
  message: 'Only src/main/db imports the database drivers; features write Kysely.',
};
// db/ has one front door: src/main/db/index.ts. What lies behind it (the engines' modules, the
// speed tools' internals) is mapped in src/main/db/README.md and changes without asking features.
const DB_FRONT_DOOR = {
  group: ['**/db/*', '**/db/**/*', '!**/db/index'],
  message: 'Import src/main/db through its front door, src/main/db/index.ts (see src/main/db/README.md).',
};
const SERVER_IS_ASSEMBLY = {
  group: ['**/server/*'],
  message: 'Features use the HTTP toolkit (src/main/http); only the assembly names features.',
};
const TESTS_NEVER_BENCH = {
  group: ['**/bench/**'],
  message: 'Tests never import bench/: what both need lives in test/fixtures.',
};
// The assembly's generic plugins (src/main/server/README.md) speak HTTP, not features: only app.ts
// and the authentication plugin name feature modules. `../../x` is src/main/x; http/ and the
// domain error are allowed.
const GENERIC_PLUGINS = [
  'src/main/server/request-guards/**',
  'src/main/server/method-not-allowed/**',
  'src/main/server/viewer/**',
];
const PLUGINS_NAME_NO_FEATURE = {
  regex: '^\\.\\./\\.\\./(?!http/|domain-error$)[^.]',
  message:
    'A generic server plugin uses src/main/http, src/main/domain-error and src/main/server only; features are named in app.ts.',
};
const TRANSACTIONS_THROUGH_DB = [
  'error',
  {
    selector: 'CallExpression[callee.property.name=/^(transaction|startTransaction)$/][arguments.length=0]',
    message: 'Start transactions with inTransaction (src/main/db/transaction.ts): it retries lost races on PostgreSQL.',
  },
];

// One clock: every time the viewer shows is written by lib/format.ts, in the zone Settings picks.
// A component that formats dates itself shows the browser's zone and locale instead.
const CLOCK_SYNTAX = [
  {
    selector: 'CallExpression[callee.property.name=/^toLocale(Date|Time)?String$/]',
    message: 'Format with src/renderer/src/lib/format.ts (formatCount, useClock): one form and one zone everywhere.',
  },
  {
    selector: 'CallExpression[callee.property.name=/^get(FullYear|Month|Date|Day|Hours|Minutes|Seconds)$/]',
    message: "The browser's own zone is not the viewer's: read times through useClock (src/renderer/src/lib).",
  },
  {
    selector: "MemberExpression[object.name='Intl'][property.name='DateTimeFormat']",
    message: 'Dates are formatted in src/renderer/src/lib/format.ts only.',
  },
];

// One data layer: each resource's query keys come from the key factory of its *-api.ts module, so
// that one answer is cached once and a change to it (a rename) shows in every view.
const DATA_LAYER_SYNTAX = [
  {
    selector: "Property[key.name='queryKey'] > ArrayExpression",
    message: "Use the resource's key factory (orgKeys, scanKeys, … in its *-api.ts module), not a literal key.",
  },
  {
    selector: "VariableDeclarator[id.name='SEVERITIES']",
    message: "SEVERITIES comes from src/shared/api/scans: the severities are the contract's.",
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'test-results/', 'playwright-report/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['src/shared/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': restrict([
        { group: NODE_BUILTINS, message: 'src/shared runs everywhere: no Node built-ins.' },
        { group: ['electron', 'electron/*'], message: 'src/shared runs everywhere: no Electron.' },
        {
          group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**'],
          message: 'src/shared imports only src/shared.',
        },
      ]),
      'no-restricted-globals': [
        'error',
        'window',
        'document',
        'navigator',
        'localStorage',
        'sessionStorage',
        'process',
        'Buffer',
        'require',
        '__dirname',
      ],
    },
  },
  {
    files: ['src/main/**'],
    ignores: [...DESKTOP_SHELL, ...ASSEMBLY, 'src/main/db/**'],
    rules: {
      'no-restricted-imports': restrict([...CORE_RULES, DB_DRIVERS, DB_FRONT_DOOR, SERVER_IS_ASSEMBLY]),
      'no-restricted-syntax': TRANSACTIONS_THROUGH_DB,
    },
  },
  {
    files: ['src/main/db/**'],
    rules: { 'no-restricted-imports': restrict([...CORE_RULES, SERVER_IS_ASSEMBLY]) },
  },
  {
    files: ASSEMBLY,
    rules: {
      'no-restricted-imports': restrict([...CORE_RULES, DB_DRIVERS, DB_FRONT_DOOR]),
      'no-restricted-syntax': TRANSACTIONS_THROUGH_DB,
    },
  },
  {
    // The CLI's door re-exports db's light modules (location parsing, password files) by path: the
    // index loads the drivers, which a client command such as `scans list` must not wait for.
    files: ['src/main/cli-core.ts'],
    rules: { 'no-restricted-imports': restrict([...CORE_RULES, DB_DRIVERS]) },
  },
  {
    files: GENERIC_PLUGINS,
    rules: { 'no-restricted-imports': restrict([...CORE_RULES, DB_DRIVERS, PLUGINS_NAME_NO_FEATURE]) },
  },
  {
    files: DESKTOP_SHELL,
    rules: {
      'no-restricted-imports': restrict([
        MAIN_STAYS_MAIN,
        DB_DRIVERS,
        {
          // `../x` is src/main/x; `../core` is the one allowed, `../../shared/…` is not matched.
          regex: '^\\.\\./(?!core$)[^.]',
          message: 'src/main/desktop reaches the core only through src/main/core.ts.',
        },
      ]),
    },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict([
        { group: NODE_BUILTINS, message: 'The renderer is a web page: no Node built-ins.' },
        { group: ['electron', 'electron/*'], message: 'The renderer reaches the desktop only through window.desktop.' },
        { group: ['**/main/**', '**/preload/**', '**/cli/**'], message: 'src/renderer may use src/shared only.' },
      ]),
    },
  },
  {
    files: ['src/renderer/**'],
    ignores: ['src/renderer/src/lib/format.ts', 'src/renderer/src/lib/time-zone.ts'],
    rules: { 'no-restricted-syntax': ['error', ...CLOCK_SYNTAX, ...DATA_LAYER_SYNTAX] },
  },
  {
    // The key factories themselves.
    files: ['src/renderer/**/*-api.ts'],
    rules: { 'no-restricted-syntax': ['error', ...CLOCK_SYNTAX] },
  },
  {
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['**/main/**', '**/renderer/**', '**/cli/**'], message: 'The preload may use src/shared only.' },
      ]),
    },
  },
  {
    files: ['src/cli/**'],
    rules: {
      'no-restricted-imports': restrict([
        { group: ['electron', 'electron/*'], message: 'The CLI is plain Node.' },
        DB_DRIVERS,
        { group: ['**/renderer/**', '**/preload/**'], message: 'The CLI may use src/main/cli-core.ts and src/shared.' },
        {
          // `../main/x` or `../../main/x`; `cli-core` is the one allowed.
          regex: '^(\\.\\./)+main/(?!cli-core$)',
          message: 'src/cli reaches the core only through src/main/cli-core.ts.',
        },
      ]),
    },
  },
  {
    // What the CLI prints may hold the server's text, which must not drive the terminal.
    files: ['src/cli/**'],
    ignores: ['src/cli/output.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.object.name='process'][object.property.name=/^(stdout|stderr)$/][property.name='write']",
          message: 'Print with writeOut/writeErr/printJson (src/cli/output.ts): they escape control characters.',
        },
      ],
    },
  },
  {
    // Fixtures shared by the tests and the benchmarks live in test/fixtures/; test/helpers/ is the
    // tests' own, and no test depends on bench/ (bench-smoke runs it and reads its output).
    files: ['bench/**'],
    rules: {
      'no-restricted-imports': restrict([
        {
          regex: '^(\\.\\./)+test/(?!fixtures/)',
          message: "Of test/, bench/ may use test/fixtures only (test/helpers is the tests' own).",
        },
      ]),
    },
  },
  {
    files: ['test/**'],
    rules: { 'no-restricted-imports': restrict([TESTS_NEVER_BENCH]) },
  },
  {
    files: ['test/fixtures/**'],
    rules: {
      'no-restricted-imports': restrict([
        TESTS_NEVER_BENCH,
        { group: ['**/helpers/**'], message: 'test/fixtures is shared with bench/: it may not use test/helpers.' },
      ]),
    },
  },
);
