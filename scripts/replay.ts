import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';

/**
 * Replays exported histories (`temporal workflow show --output json`) against the current
 * workflow code: the operator's check before a deploy, and CI's determinism guard.
 * usage: npm run replay -- [--bundle FILE] HISTORY.json ...   → prints one JSON line per file.
 */
async function main(argv: string[]): Promise<void> {
  // stdout carries one JSON line per history; the replay worker's own logs stay quiet.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const bundleAt = argv.indexOf('--bundle');
  const bundlePath = bundleAt >= 0 ? argv[bundleAt + 1] : undefined;
  const files = argv.filter((_, i) => bundleAt < 0 || (i !== bundleAt && i !== bundleAt + 1));
  const source: { workflowBundle: { code: string } } | { workflowsPath: string } = bundlePath
    ? { workflowBundle: { code: readFileSync(bundlePath, 'utf8') } }
    : { workflowsPath: require.resolve('../workflows') };
  let failed = 0;
  for (const file of files) {
    const history = JSON.parse(readFileSync(file, 'utf8'));
    try {
      await Worker.runReplayHistory(source, history, basename(file));
      console.log(JSON.stringify({ file: basename(file), ok: true }));
    } catch (err) {
      failed++;
      const kind =
        err instanceof DeterminismViolationError
          ? 'DeterminismViolationError'
          : err instanceof Error
            ? err.name
            : 'Error';
      console.log(
        JSON.stringify({
          file: basename(file),
          ok: false,
          error: kind,
          message: err instanceof Error ? err.message : String(err),
        }),
      );
    }
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
