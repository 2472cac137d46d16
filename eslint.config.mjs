// Lint: type-aware rules everywhere (no floating promises), and the workflow sandbox rules:
// workflow code may not import Node built-ins, the database or activity implementations,
// nor read the environment. Only config/env.ts reads process.env.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'fs',
  'path',
  'os',
  'crypto',
  'net',
  'http',
  'https',
  'child_process',
  'util',
  'stream',
  'url',
  'worker_threads',
  'zlib',
  'dns',
  'tls',
  'events',
];

/**
 * The one-way layers (issue 19), from the bottom: workflows/ (pure) and config/, db/, agents/,
 * activities/, client/, then api/, the worker entry points and scripts/. A file may import
 * from its own layer and the ones below, never from one above. `above(...)` names the folders
 * a layer may not reach; a relative import into one of them is refused.
 */
const above = (...folders) => ({
  regex: `^(\\.\\./)+(${folders.join('|')})(/|$)`,
  message: `One-way layers: this folder may not import from ${folders.join(', ')} (a layer above it).`,
});
const layerRule = (...folders) => ['error', { patterns: [above(...folders)] }];
/** The same for a lazy `require('../x/...')` (workflow code loads its modules on first use). */
const requireAbove = (...folders) => ({
  selector: `CallExpression[callee.name='require'][arguments.0.value=/^(\\.\\.\\x2F)+(${folders.join('|')})(\\x2F|$)/]`,
  message: above(...folders).message,
});
/** The top layer: the HTTP API, the worker entry points and the scripts. */
const TOP = ['api', 'scripts', 'domains', 'worker', 'worker-group'];

/** The workflow sandbox's import rules, and the layers above the folder that it may not reach. */
const sandboxImports = (...folders) => [
  'error',
  {
    paths: nodeBuiltins
      .flatMap((m) => [m, `node:${m}`])
      .map((name) => ({
        name,
        message: 'Workflow code is deterministic: no Node built-ins.',
      })),
    patterns: [
      {
        group: ['**/db/**', '**/db', 'pg', 'drizzle-orm*'],
        message: 'Workflow code may not touch the database: call an activity.',
      },
      {
        group: ['**/activities/**', '**/activities'],
        allowTypeImports: true,
        message: 'Import activities with `import type` and call them through proxyActivities.',
      },
      above(...folders),
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.tools/**',
      '.data/**',
      'db/migrations/**',
      'test/histories/**',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration through config/env.ts (loadConfig).',
        },
      ],
    },
  },
  {
    // Agent handlers (agents/<type>/handler.ts) and the bundle's entry run inside the workflow
    // sandbox too.
    files: ['workflows/**/*.ts', 'agents/**/*.ts', 'workflow-bundle.ts'],
    rules: {
      'no-restricted-imports': sandboxImports('client', ...TOP),
      'no-restricted-syntax': ['error', requireAbove('client', ...TOP)],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Workflow code may not read the environment.' },
      ],
    },
  },
  {
    // workflows/ is the ground floor: the agents' handlers reach it through workflow-bundle.ts.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': sandboxImports('agents', 'client', ...TOP),
      'no-restricted-syntax': ['error', requireAbove('agents', 'client', ...TOP)],
    },
  },
  {
    files: ['config/**/*.ts'],
    rules: {
      'no-restricted-imports': layerRule('db', 'agents', 'activities', 'client', ...TOP),
    },
  },
  {
    files: ['db/**/*.ts'],
    rules: {
      'no-restricted-imports': layerRule('agents', 'activities', 'client', ...TOP),
    },
  },
  {
    files: ['activities/**/*.ts'],
    // Cross-domain starts go through the entry points domains/ injects (workflows/*/entry-point.ts).
    rules: {
      'no-restricted-imports': layerRule('client', ...TOP),
    },
  },
  {
    files: ['client/**/*.ts'],
    rules: { 'no-restricted-imports': layerRule(...TOP) },
  },
  {
    // Process entry points and test/dev tooling pass environment to children or read test-only variables.
    files: ['config/env.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
