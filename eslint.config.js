// Lint for every workspace. Import boundaries (STYLE.md): packages/* import no app; web features do not
// import each other; imports flow app -> features -> shared; no cycles.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

const webFeatures = [
  'session',
  'shell',
  'devices',
  'device-table',
  'accounts',
  'dash',
  'scenes',
  'alarms',
  'ota',
  'public-pages',
  'variants',
  'plants',
  'settings',
  'brew',
  'spray',
  'inventory',
  'reports',
  'demo',
];

// Code outside the server that drives or measures it reaches it through one public testing entry
// (`@fieldlink/server/testing`, `…/testing/services` for the test runner's start-up check, and
// `…/testing/ports` for e2e files, which would otherwise load the whole server to pick a port, and
// `…/testing/node-options` for the processes that start a server as `npm start` does), never through
// the server's internal modules by relative path.
const serverThroughTestingEntry = {
  target: ['./bench', './scripts', './e2e'],
  from: './apps/server',
  except: ['./testing/public.ts', './testing/services.ts', './testing/ports.ts', './testing/node-options.ts'],
  message: 'Reach the server through @fieldlink/server/testing (apps/server/testing/public.ts), not its internals.',
};

const importSettings = {
  // Without these the import rules parse no .ts/.tsx file they follow, so no-cycle never fired.
  'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
  'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
  'import-x/resolver-next': [
    createTypeScriptImportResolver({
      noWarnOnMultipleProjects: true,
      project: ['packages/*/tsconfig.json', 'apps/*/tsconfig.json', 'e2e/tsconfig.json', 'bench/tsconfig.json'],
    }),
  ],
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'apps/web/public/**',
      '**/.scratch/**',
      '.vitest/**',
      '.tsbuild/**',
    ],
  },
  js.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // The shared packages never reach into an app.
            { target: './packages', from: './apps', message: 'packages/* must not import apps.' },
            // The domain is pure: it imports no other workspace.
            {
              target: './packages/domain',
              from: './packages',
              except: ['./domain'],
              message: 'domain imports nothing.',
            },
            // The plant models are pure too: they use the domain and nothing else.
            {
              target: './packages/simulation',
              from: './packages',
              except: ['./simulation', './domain'],
              message: 'simulation imports only the domain.',
            },
            // A call's logic shared by the server and the browser demo: the domain's rules and the API's shapes.
            {
              target: './packages/services',
              from: './packages',
              except: ['./services', './domain', './api'],
              message: 'services import only the domain and the api.',
            },
            // Apps stay apart: they share code only through packages/*.
            { target: './apps/web', from: ['./apps/server', './apps/simulator'] },
            { target: './apps/simulator', from: ['./apps/server', './apps/web'] },
            { target: './apps/server', from: ['./apps/web'] },
            // The server's product code imports no other app; its composition root (main.ts) makes the
            // one documented exception, the demo fleet it runs in the same process. Whole-app tests in
            // apps/server/testing may drive the simulator against the server.
            {
              target: ['./apps/server/src/*/**', './apps/server/src/!(main).ts'],
              from: ['./apps/simulator', './apps/web'],
              message: 'The server imports no app; only main.ts (the composition root) starts the demo fleet.',
            },
            serverThroughTestingEntry,
            // Web: shared code (components, lib) never imports features or app.
            { target: './apps/web/src/components', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/lib', from: ['./apps/web/src/features', './apps/web/src/app'] },
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            // Web features do not import each other.
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
              message: 'Features do not import each other: move shared code to components/ or lib/.',
            })),
          ],
        },
      ],
    },
  },
  {
    // The test runner and other scripts are JavaScript: the same entry rule holds for them.
    files: ['scripts/**/*.{js,mjs}', 'bench/**/*.{js,mjs}'],
    plugins: { 'import-x': importX },
    settings: importSettings,
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [serverThroughTestingEntry] }] },
  },
  {
    files: ['packages/domain/**/*.ts', 'packages/simulation/**/*.ts', 'packages/services/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'react', 'react-dom'],
              message: 'domain, simulation and services are pure: no I/O, no React.',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests wait for a condition, never for a fixed time (STYLE.md): `until` in apps/server/testing/until.ts,
    // Playwright's auto-waiting or `expect.poll`, vitest's fake timers or an injected clock. A timer a test
    // keeps on purpose (a fake world that is slow, a deadline that fails the test) says why in a disable
    // comment; docs/decisions.md lists them (issue 37, item 7).
    // Test files; the helpers they wait with (until, TestSocket.waitFor, the harness's start-up poll)
    // hold the one sanctioned poll interval or deadline each.
    files: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // Called, passed (promisify(setTimeout)) or reached through globalThis: not a fake timer's own key.
          selector: "Identifier[name='setTimeout']:not(Property > Identifier.key, MethodDefinition > Identifier.key)",
          message: 'No fixed sleep in a test: wait for the condition (until, expect.poll) or inject the clock.',
        },
        {
          selector: "CallExpression[callee.type='Identifier'][callee.name=/^(sleep|delay)$/]",
          message: 'No fixed sleep in a test: wait for the condition (until, expect.poll) or inject the clock.',
        },
        {
          selector: "CallExpression[callee.property.name='waitForTimeout']",
          message: 'No fixed wait in a browser test: wait for what a person would see (auto-waiting, expect.poll).',
        },
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?timers.promises$/]',
          message: 'No fixed sleep in a test: wait for the condition (until, expect.poll) or inject the clock.',
        },
        {
          // performance.now() in a test only ever times something.
          selector: "MemberExpression[object.name='performance'][property.name='now']",
          message: 'No wall-clock assertion in a test: count what happened, or pass the code a clock the test moves.',
        },
        {
          // Date.now() - started: time elapsed since a moment the test took (Date.now() - 60_000 or
          // Date.now() - DAY_MS is a time in the past, not a measurement).
          selector:
            "BinaryExpression[operator='-'][left.callee.object.name='Date'][left.callee.property.name='now']:matches([right.type='Identifier'][right.name=/^[a-z]/], [right.type='MemberExpression'])",
          message: 'No wall-clock assertion in a test: count what happened, or pass the code a clock the test moves.',
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
);
