import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { sql } from 'drizzle-orm';
import { htmlToPages } from '../activities/documents/html-text';
import { textToPages } from '../activities/documents/text-pages';
import { ingestFile } from '../client/documents';
import { getDocument, loadPages } from '../db/repositories/documents';
import { ORG } from './support/fixtures';
import { nestedFormsPdf } from './support/hostile-pdf';
import { useSeededWorker } from './support/seeded-worker';

const TIME_LIMIT_MS = 3000;
const env = useSeededWorker({ DOCUMENT_EXTRACT_TIME_LIMIT_MS: String(TIME_LIMIT_MS) });

describe('uploaded documents: bounded, off-thread extraction', () => {
  it('refuses a PDF whose nested forms explode past the time limit, keeps the thread free and stores nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-hostile-'));
    // 10^7 text operations from a ~4 KB file: unbounded it would parse for hours.
    const path = join(dir, 'forms-bomb.pdf');
    writeFileSync(path, nestedFormsPdf({ depth: 7, fanout: 10 }));

    // The activity runs in this process: if the parse held the event loop, ticks would stall.
    let last = Date.now();
    let worstGapMs = 0;
    const ticker = setInterval(() => {
      const now = Date.now();
      worstGapMs = Math.max(worstGapMs, now - last);
      last = now;
    }, 50);
    const started = Date.now();
    const err = await ingestFile(env.deps(), { orgId: ORG, path, id: 'forms-bomb' }).catch(
      (e: unknown) => e,
    );
    const elapsedMs = Date.now() - started;
    clearInterval(ticker);

    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause?.cause as ApplicationFailure;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause.type).toBe('ExtractionLimitExceeded');
    expect(cause.message).toContain(`did not finish within ${TIME_LIMIT_MS} ms`);
    // Refused once (not retried four times), soon after the limit.
    expect(elapsedMs).toBeLessThan(TIME_LIMIT_MS + 8000);
    expect(worstGapMs).toBeLessThan(1000);
    console.log(`hostile PDF refused after ${elapsedMs} ms; worst event-loop gap ${worstGapMs} ms`);

    const db = env.database.db;
    expect(await getDocument(db, ORG, 'forms-bomb')).toMatchObject({
      status: 'failed',
      pagesDone: 0,
      error: expect.stringContaining('did not finish within') as unknown,
    });
    expect(await loadPages(db, ORG, 'forms-bomb')).toEqual([]);
    const chunks = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from chunks where org_id = ${ORG} and document_id = 'forms-bomb'`,
    );
    expect(chunks.rows[0]?.n).toBe(0);

    // The same worker goes on ingesting ordinary files.
    writeFileSync(join(dir, 'fine.txt'), 'Revenue 1,000\fNet income 200');
    const ok = await ingestFile(env.deps(), { orgId: ORG, path: join(dir, 'fine.txt') });
    expect(ok.ingestion).toMatchObject({ status: 'ready', pageCount: 2 });
  });

  it('reads pathological text and HTML in linear time', () => {
    const timed = (f: () => unknown) => {
      const t = performance.now();
      f();
      return performance.now() - t;
    };
    // Both were quadratic before (a `[ \t]+$` trim; an `<hr[^>]*…>` rewrite): minutes at this size.
    const spaces = 'a' + ' '.repeat(2_000_000) + 'b';
    expect(textToPages(spaces)).toEqual([spaces]);
    expect(timed(() => textToPages(spaces))).toBeLessThan(1000);
    const hrs = '<hr '.repeat(500_000);
    expect(timed(() => htmlToPages(hrs))).toBeLessThan(3000);
    expect(htmlToPages('<p>one</p><hr style="page-break-after: always"><p>two</p>')).toEqual([
      'one',
      'two',
    ]);
  });
});
