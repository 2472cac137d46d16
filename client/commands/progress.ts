import { SingleBar } from 'cli-progress';

/** A progress display for long work: a bar on stderr, or nothing (JSON output, one item). */
export interface Progress {
  tick(name: string): void;
  /** Sets the count of items done (for callers that report absolute progress). */
  update(done: number, name: string): void;
  stop(): void;
}

export function progressBar(opts: { enabled: boolean; total: number; label: string }): Progress {
  if (!opts.enabled || opts.total <= 1)
    return { tick: () => undefined, update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    stream: process.stderr,
    format: `${opts.label} [{bar}] {value}/{total} {name}`,
    hideCursor: true,
  });
  bar.start(opts.total, 0, { name: '' });
  return {
    tick: (name) => bar.increment({ name: name.slice(0, 50) }),
    update: (done, name) => bar.update(done, { name: name.slice(0, 50) }),
    stop: () => bar.stop(),
  };
}
