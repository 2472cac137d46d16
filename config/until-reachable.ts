/**
 * Start-up steps that need a server (PostgreSQL, Temporal) which may be restarting: retried
 * while the failure says "not reachable yet", up to a budget, so a process started during an
 * outage waits for it instead of crashing; any other failure is thrown at once.
 */
const UNREACHABLE = [
  /ECONNREFUSED/,
  /ECONNRESET/,
  /EPIPE/,
  /Connection terminated/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /\b57P0[1-3]\b/, // admin_shutdown, crash_shutdown, cannot_connect_now
  /\b14 UNAVAILABLE\b/,
  /Failed to connect before the deadline/i,
  /tcp connect error/i,
];

export function isUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const text = `${String(err)} ${typeof code === 'string' ? code : ''}`;
  return UNREACHABLE.some((re) => re.test(text));
}

export async function untilReachable<T>(
  what: string,
  step: () => Promise<T>,
  opts: {
    budgetMs: number;
    log: (message: string) => void;
    /** Pause before the n-th retry (1-based); default doubles from 500 ms up to 10 s. */
    pauseMs?: (n: number) => number;
    sleep?: (ms: number) => Promise<void>;
    now?: () => number;
  },
): Promise<T> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const pause = opts.pauseMs ?? ((n: number) => Math.min(10_000, 500 * 2 ** (n - 1)));
  const started = now();
  for (let n = 1; ; n++) {
    try {
      return await step();
    } catch (err) {
      const waited = now() - started;
      if (!isUnreachable(err) || waited >= opts.budgetMs) throw err;
      const ms = Math.min(pause(n), opts.budgetMs - waited);
      opts.log(
        `${what}: not reachable (${String(err).split('\n')[0]?.slice(0, 120)}); again in ${ms} ms`,
      );
      await sleep(ms);
    }
  }
}
