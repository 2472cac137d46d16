import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from './temporal-binaries';

/**
 * Starts worker.ts as its own process, like in production: node with tsx's loader (no CLI
 * wrapper in between, so signals reach the worker itself) and an IPC channel, through which
 * the worker notices when this process dies — even by SIGKILL, even during its start-up —
 * and drains and exits (worker.ts).
 */
export function spawnWorkerProcess(opts: {
  env: NodeJS.ProcessEnv;
  stdout?: 'inherit' | 'ignore' | 'pipe';
  stderr?: 'inherit' | 'ignore' | 'pipe';
}): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'worker.ts')], {
    stdio: ['ignore', opts.stdout ?? 'inherit', opts.stderr ?? 'inherit', 'ipc'],
    cwd: PROJECT_ROOT,
    // Tells the worker it has a parent to watch: one that died while the worker was still
    // loading (before it could listen for the channel's end) is noticed at its first line.
    env: { ...opts.env, CS_WATCH_PARENT: '1' },
  });
  // The channel is for the worker to watch us; it must not keep this process alive.
  child.channel?.unref();
  return child;
}
