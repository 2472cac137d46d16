import {
  MAX_IDLE_THREADS,
  extractPagesIsolated,
  idleThreads,
} from '../activities/documents/isolated-extraction';
import { ciiInvoice } from '../scripts/lib/einvoice-builder';

/**
 * The extraction threads' warm pool: a burst of documents side by side leaves up to
 * MAX_IDLE_THREADS threads warm for the next burst (before, two: most documents of a batch
 * paid a thread start), never more.
 */
const xml = new TextEncoder().encode(
  ciiInvoice({ number: 'POOL-1', lines: [{ name: 'a', net: '10.00', rate: '19' }] }),
);
const extract = () =>
  extractPagesIsolated(
    { mimeType: 'application/xml', bytes: xml, fromPage: 0 },
    { timeLimitMs: 60_000, maxMemoryMb: 256 },
  );

it('keeps a burst’s threads warm, up to its bound, and reuses them', async () => {
  expect(idleThreads()).toBe(0);
  const first = await Promise.all(Array.from({ length: 6 }, extract));
  expect(first.every((r) => r.pageCount === 1)).toBe(true);
  expect(idleThreads()).toBe(6);
  await Promise.all(Array.from({ length: MAX_IDLE_THREADS + 3 }, extract));
  expect(idleThreads()).toBe(MAX_IDLE_THREADS);
  // A warm burst starts no thread: every job takes one from the pool and gives it back.
  await Promise.all(Array.from({ length: 4 }, extract));
  expect(idleThreads()).toBe(MAX_IDLE_THREADS);
});
