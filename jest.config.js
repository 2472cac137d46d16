/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // SWC strips the types and nothing else: the static checks (tsc --noEmit) type-check the
  // whole project once, so each test file need not be compiled by TypeScript again. On a
  // fresh clone (no transform cache) this saves seconds per module graph a jest worker loads.
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  // The fault scenarios (a worker killed mid-write, a parent killed with -9, a database
  // outage held for half a minute) are slow by nature: they run in the fault suite
  // (`npm run test:faults`, jest.faults.config.js), which .ci/run runs after chaos.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/faults/'],
  // Workflow tests run against the real dev server; give them room.
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  maxWorkers: 2,
};
