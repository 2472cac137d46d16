/**
 * The fault suite's jest scenarios (`npm run test:faults`; .ci/run runs it after `npm run
 * chaos -- --short`): the same transform, global setup and timeouts as the main suite, over
 * test/faults/ only. They assert what the chaos scenarios assert at scale, one case at a time.
 * @type {import('jest').Config}
 */
const base = require('./jest.config.js');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/faults/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
};
