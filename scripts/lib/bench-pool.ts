/**
 * Runs `fn` over `items` with at most `size` calls in flight (each worker takes the next item
 * when its call ends), in item order of start; the index is the item's. A call that throws
 * rejects the pool after the calls in flight end their current item.
 */
export async function runPool<T>(
  items: readonly T[],
  size: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(size, items.length)) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i] as T, i);
      }
    }),
  );
}
