import { findBinary, TEMPORAL_CLI, TEMPORAL_TEST_SERVER } from './lib/temporal-binaries';

/** Resolves (installing when needed) the binaries the platform and its tests use. */
const want = process.argv.includes('--with-test-server')
  ? [TEMPORAL_CLI, TEMPORAL_TEST_SERVER]
  : [TEMPORAL_CLI];
for (const spec of want) {
  const path = findBinary(spec, { install: true });
  console.log(`[bootstrap] ${spec.name}: ${path}`);
}
