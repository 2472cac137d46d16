/**
 * Polls `read` every 100 ms until `pred` holds, for tests that watch a running workflow or a
 * counter the worker moves; throws with the last value seen when `ms` passes.
 */
export async function waitFor<T>(
  read: () => Promise<T>,
  pred: (v: T) => boolean,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (pred(v)) return v;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
