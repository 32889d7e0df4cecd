// Lint for the whole repository (ESLint 9 flat config). Besides the recommended rule sets, this file
// holds the layering as import rules, so a layer reaching into another fails CI instead of review:
//   contract/shapes ← engine ← host ← app, server, cli
//   contract (main/contract) calls, events, shapes, client and transports: imports no other layer;
//   engine   (main/engine)   plain Node: the contract's shapes only, no electron, no hosts, no benchmarks, no UI;
//   bench    (main/bench)     benchmarks over the engine: never imported by it; the CLI loads them on use;
//   host     (main/host)     the contract's calls over the engine's services, shared by every process;
//   app, server, cli         the processes: each composes the host, none imports another's modules
//                            (the CLI's `serve` starts browser mode);
//   renderer and preload     talk to the engine only through the contract;
//   electron                 only in the Electron shell (main/app) and its preload bridge.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** Relative import specifiers that climb out of the current folder into `main/<layer>/…`. */
const layer = (...names) => `^(\\.\\./)+(main/)?(${names.join('|')})(/|$)`;

const noElectron = { name: 'electron', message: 'Only the Electron shell (main/app) and preload may import electron.' };

export default tseslint.config(
  {
    // The bundles of the sources the CLI and the index worker build on first use (gitignored) are generated
    // code, not ours to lint: left in, `npm run lint` failed on a checkout that had run `npx loci` once.
    ignores: ['node_modules/**', 'out/**', 'dist/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '**/*.d.ts', 'resources/**', '**/.dev-bundle/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed names are deliberately unused (callback positions, destructured-away fields).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Empty catch blocks are how best-effort cleanup reads here; other empty blocks stay errors.
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['e2e/**/*.{ts,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },

  // ---- Layering ----
  {
    files: ['main/engine/**/*.{ts,mjs,js}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { regex: layer('app', 'host', 'server', 'cli'), message: 'The engine is plain Node: it must not import the hosts (app, host, server, cli).' },
            { regex: '^(\\.\\./)+(main/)?contract/(?!shapes/)', message: 'The engine imports only the contract\'s shapes (main/contract/shapes), never its calls or transports.' },
            { regex: layer('bench'), message: 'The product engine must not import the benchmarks (main/bench); they import the engine.' },
            { regex: '^(\\.\\./)+renderer(/|$)', message: 'The engine must not import the UI.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/contract/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { regex: layer('engine'), message: 'The contract reaches the renderer and the engine depends on it: it imports no engine module (shapes live in main/contract/shapes).' },
            { regex: layer('app', 'host', 'server', 'cli'), message: 'The contract must not import the hosts.' },
          ],
        },
      ],
    },
  },
  {
    // The zod shapes both the engine and the contract (hence the renderer) import: pure declarations.
    files: ['main/contract/shapes/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!zod$|\\./)', message: 'Shapes are pure: zod and sibling shapes only (they reach the renderer).' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { regex: '^(\\.\\./)+main/(?!contract/)', message: 'The UI reaches the engine only through main/contract.' },
            { regex: '^(\\.\\./)+preload(/|$)', message: 'The UI talks to preload through window.loci, not imports.' },
          ],
        },
      ],
    },
  },
  {
    // Preload is the one other place electron may appear (contextBridge/ipcRenderer); otherwise contract only.
    files: ['preload/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\.\\./)+main/(?!contract/)', message: 'Preload reaches the engine only through main/contract.' },
          ],
        },
      ],
    },
  },
  {
    files: ['main/host/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [{ regex: layer('app', 'server', 'cli'), message: 'The host is shared by every process: it imports the engine and the contract, not a process (app, server, cli).' }] },
      ],
    },
  },
  {
    files: ['main/app/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ regex: layer('server', 'cli'), message: 'The Electron shell composes the host (main/host/compose.ts); it does not import browser mode or the CLI.' }] },
      ],
    },
  },
  {
    files: ['main/server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [{ regex: layer('app', 'cli'), message: 'Browser mode composes the host (main/host/compose.ts); it does not import the Electron shell or the CLI.' }] },
      ],
    },
  },
  {
    files: ['main/bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { regex: layer('app', 'host', 'server', 'cli'), message: 'The benchmarks measure the engine: they must not import the hosts.' },
            { regex: '^(\\.\\./)+(main/)?contract/(?!shapes/)', message: 'The benchmarks import only the contract\'s shapes, as the engine does.' },
            { regex: '^(\\.\\./)+renderer(/|$)', message: 'The benchmarks must not import the UI.' },
          ],
        },
      ],
    },
  },
  {
    // Every `loci` command loads the CLI's static imports: the bench code (and its devDependencies) comes
    // in through `await import()` in the bench commands' actions; only the option lists are static.
    files: ['main/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            { regex: layer('app'), message: 'The CLI does not import the Electron shell.' },
            {
              regex: '^(\\.\\./)+bench/(?!names\\.js$)',
              allowTypeImports: true,
              message: 'Load bench code with await import() in the bench command\'s action, so `loci ask` never loads it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bin/**', 'scripts/**', 'test/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { paths: [noElectron] }] },
  },
);
