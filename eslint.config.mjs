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
    // Agent handlers (agents/<type>/handler.ts) run inside the workflow sandbox too.
    files: ['workflows/**/*.ts', 'agents/**/*.ts'],
    rules: {
      'no-restricted-imports': [
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
              message:
                'Import activities with `import type` and call them through proxyActivities.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'Workflow code may not read the environment.' },
      ],
    },
  },
  {
    // Process entry points and test/dev tooling pass environment to children or read test-only variables.
    files: ['config/env.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
