import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { join } from 'node:path';

type StdioSlot = 'ignore' | 'pipe' | 'inherit' | number;

/**
 * Spawns a long-running service (the Temporal dev server, PostgreSQL) through a small node
 * guardian that holds an IPC channel to this process: when this process dies — Ctrl-C,
 * SIGTERM, or SIGKILL at any moment, start-up included — the guardian ends the service, so
 * nothing is left behind. Signals sent to the returned process reach the service.
 */
export function guardedSpawn(
  cmd: string,
  args: string[],
  opts: {
    /** stdin, stdout, stderr of the service ('pipe' reaches the returned process's streams). */
    stdio: [StdioSlot, StdioSlot, StdioSlot];
    uid?: number;
    gid?: number;
    cwd?: string;
    env?: NodeJS.ProcessEnv;
  },
): ChildProcess {
  const guardianOpts = {
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  };
  const child = spawn(
    process.execPath,
    [join(__dirname, 'guardian.js'), JSON.stringify(guardianOpts), cmd, ...args],
    {
      stdio: [...opts.stdio, 'ipc'] as StdioOptions,
      ...(opts.env ? { env: opts.env } : {}),
    },
  );
  // The channel must not keep this process alive: the owner stops the service explicitly.
  child.channel?.unref();
  return child;
}
