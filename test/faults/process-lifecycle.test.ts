import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * Issue 13, process lifecycle: whatever `npm start` started — PostgreSQL, the Temporal dev
 * server, the worker — must not outlive it, whenever it dies (SIGKILL gives it no chance to
 * clean up), start-up included. A stand-in parent (test/fixtures/lifecycle/parent.ts) uses the
 * same helpers; we kill it at each stage and watch its whole process tree.
 */
function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** Every live descendant of a pid, from /proc (Linux). */
function descendants(root: number): number[] {
  const parentOf = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(join('/proc', entry, 'stat'), 'utf8');
      // pid (comm) state ppid …  — comm may contain spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(entry), ppid);
    } catch {
      // exited while we looked
    }
  }
  const out: number[] = [];
  const frontier = [root];
  while (frontier.length) {
    const p = frontier.pop() as number;
    for (const [child, ppid] of parentOf)
      if (ppid === p) {
        out.push(child);
        frontier.push(child);
      }
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is dead for our purposes (its parent has not reaped it yet).
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntil(pred: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (pred()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return pred();
}

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('process lifecycle: nothing outlives its parent', () => {
  let parent: ChildProcess | undefined;
  let dataDir: string | undefined;
  afterEach(() => {
    if (parent?.pid && alive(parent.pid)) parent.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  for (const stage of ['postgres', 'temporal', 'worker'] as const) {
    it(`a parent killed with SIGKILL right after starting ${stage} leaves no process behind`, async () => {
      const [temporalPort, pgPort] = [await freePort(), await freePort()];
      const p = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(__dirname, '..', 'fixtures', 'lifecycle', 'parent.ts'),
          String(temporalPort),
          String(pgPort),
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      parent = p;
      await new Promise<void>((resolve, reject) => {
        p.stdout?.on('data', (b: Buffer) => {
          dataDir ??= /^dir (\S+)$/m.exec(b.toString())?.[1];
          if (b.toString().includes(`stage ${stage}`)) resolve();
        });
        p.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
      });
      const tree = descendants(p.pid as number);
      expect(tree.length).toBeGreaterThan(0);
      p.kill('SIGKILL');
      const gone = await waitUntil(() => tree.every((pid) => !alive(pid)), 30_000);
      const left = tree.filter(alive).map((pid) => {
        try {
          return `${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 120)}`;
        } catch {
          return String(pid);
        }
      });
      expect({ gone, left }).toEqual({ gone: true, left: [] });
    });
  }
});
