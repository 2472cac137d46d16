import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { PROJECT_ROOT } from '../../scripts/lib/temporal-binaries';

/** The time-skipping test server `npm test` installs (TEMPORAL_TEST_SERVER overrides it). */
function testServerPath(): string {
  const path =
    process.env.TEMPORAL_TEST_SERVER || join(PROJECT_ROOT, '.tools', 'bin', 'temporal-test-server');
  if (!existsSync(path))
    throw new Error(`temporal-test-server not found at ${path}: run the tests with \`npm test\``);
  return path;
}

/**
 * A time-skipping Temporal environment with the keyword search attributes the workflows under
 * test set (an unregistered attribute fails their workflow tasks).
 */
export async function startTimeSkippingEnv(
  attributes: readonly { name: string }[],
): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
  await env.connection.operatorService.addSearchAttributes({
    namespace: env.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      attributes.map((k) => [
        k.name,
        temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      ]),
    ),
  });
  return env;
}
