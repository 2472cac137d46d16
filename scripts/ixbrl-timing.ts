/**
 * Timing figures for inline XBRL ingestion (issue 22 targets: a 4 MB iXBRL 10-K ingested with
 * its facts in ≤ 3 s on 2 cores; fact queries ≤ 5 ms), and the bounds on bad input at scale.
 * Not a timed test: it prints figures. Runs the real ingestion activity (extraction thread,
 * pages, chunks, facts) against a throw-away embedded PostgreSQL.
 *
 *   npx tsx scripts/ixbrl-timing.ts [filing.html]   (default: the largest dev filing)
 *
 * CS_IXBRL_PG_PORT picks the embedded database's port (default 19510).
 */
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from '../db/schema';
import type { Db } from '../db/connection';
import { startEmbeddedPostgres } from '../db/embedded-postgres';
import { runMigrations } from '../db/migrate';
import { storeDocument } from '../db/repositories/documents';
import { getFilingFactSet, queryFilingFacts } from '../db/repositories/filing-facts';
import { ensureOrganization } from '../db/repositories/organizations';
import {
  createDocumentActivities,
  DEFAULT_EXTRACTION_LIMITS,
} from '../activities/documents/ingest';
import { extractPagesIsolated } from '../activities/documents/isolated-extraction';
import type { IngestResult } from '../workflows/ingestion.contract';

const DEV_DIR = resolve(__dirname, '../../shared/datasets/sec-ixbrl-dev/pdfs');
const ORG = 'timing';

function largestDevFiling(): string | undefined {
  try {
    return readdirSync(DEV_DIR)
      .filter((f) => f.endsWith('.html'))
      .map((f) => join(DEV_DIR, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
  } catch {
    return undefined;
  }
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

/** A synthetic iXBRL filing of about `bytes` bytes: one table row per fact. */
function syntheticFiling(
  bytes: number,
  opts: { padding?: number; maxFacts?: number } = {},
): { html: string; facts: number } {
  const head = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12" xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:us-gaap="http://fasb.org/us-gaap/2024"><body><div style="display:none"><ix:header><ix:resources><xbrli:context id="D"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">1</xbrli:identifier></xbrli:entity><xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-12-31</xbrli:endDate></xbrli:period></xbrli:context><xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit></ix:resources></ix:header></div><table>`;
  const rows: string[] = [];
  let size = head.length;
  let i = 0;
  const pad = 'x'.repeat(opts.padding ?? 0);
  while (size < bytes && i < (opts.maxFacts ?? Infinity)) {
    const brk =
      i > 0 && i % 500 === 0 ? '</table><hr style="page-break-after:always"/><table>' : '';
    const row = `${brk}<tr><td>Line ${i} ${pad}</td><td><ix:nonFraction name="us-gaap:Revenues${i}" contextRef="D" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal" id="f${i}">${(i % 9000) + 1},${String(i % 1000).padStart(3, '0')}</ix:nonFraction></td></tr>`;
    rows.push(row);
    size += row.length;
    i++;
  }
  return { html: `${head}${rows.join('')}</table></body></html>`, facts: i };
}

async function main() {
  const file = process.argv[2] ?? largestDevFiling();
  if (!file) {
    console.log(`SKIP: no filing given and no dev filings at ${DEV_DIR}`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'cs-ixbrl-timing-'));
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    port: Number(process.env.CS_IXBRL_PG_PORT ?? 19510),
    durability: 'fast',
  });
  const pool = new Pool({ connectionString: pg.url, max: 4 });
  pool.on('error', () => undefined); // the cluster stops under an idle pool at the end
  try {
    await runMigrations({ url: pg.url, ownerUrl: pg.url });
    const db = drizzle(pool, { schema }) as unknown as Db;
    await ensureOrganization(db, { id: ORG, name: 'Timing' });
    const activities = createDocumentActivities(db);
    const bytes = readFileSync(file);
    console.log(`filing: ${file} (${(bytes.byteLength / 1e6).toFixed(2)} MB)`);

    // Cold: the first ingestion also starts the extraction thread. Warm: the thread is reused,
    // as on a running worker. Each run is a new document (a trailing comment changes the hash).
    for (const run of ['cold', 'warm', 'warm']) {
      const id = `filing-${run}-${Math.random().toString(36).slice(2, 8)}`;
      await storeDocument(db, {
        id,
        idIsExplicit: true,
        orgId: ORG,
        title: id,
        docType: null,
        mimeType: 'text/html',
        bytes: Buffer.concat([bytes, Buffer.from(`<!-- ${id} -->`)]),
      });
      const t = performance.now();
      const r = (await new MockActivityEnvironment().run(activities.ingestDocument, {
        orgId: ORG,
        documentId: id,
      })) as IngestResult;
      const ms = performance.now() - t;
      const set = await getFilingFactSet(db, ORG, id);
      console.log(
        `ingestion (${run}): ${(ms / 1000).toFixed(2)} s — ${r.pageCount} pages, ${set?.factCount} facts stored (${set?.factElements} fact elements, ${set?.refusedCount} refused)`,
      );
      if (run === 'warm') {
        const queries: [string, Parameters<typeof queryFilingFacts>[3]][] = [
          ['concept', { concept: 'us-gaap:Revenues' }],
          ['concept + period', { concept: 'Revenues', period: '2024' }],
          ['concept, any dimensions', { concept: 'us-gaap:Revenues', dimensions: 'any' }],
        ];
        for (const [name, q] of queries) {
          const times: number[] = [];
          let n = 0;
          for (let i = 0; i < 200; i++) {
            const s = performance.now();
            n = (await queryFilingFacts(db, ORG, id, q)).length;
            times.push(performance.now() - s);
          }
          console.log(
            `fact query (${name}, ${n} rows): median ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms over 200`,
          );
        }
      }
    }

    // Bad input at scale: a ~49 MB filing of one fact per row (more facts than the limit) is
    // read as text only, with the reason, inside the extraction thread's time and memory.
    const big = syntheticFiling(49 * 1024 * 1024);
    const t = performance.now();
    const out = await extractPagesIsolated(
      { mimeType: 'text/html', bytes: new TextEncoder().encode(big.html), fromPage: 0 },
      DEFAULT_EXTRACTION_LIMITS,
    );
    console.log(
      `synthetic ${(big.html.length / 1e6).toFixed(1)} MB filing with ${big.facts} facts: extracted in ${((performance.now() - t) / 1000).toFixed(1)} s (limit ${DEFAULT_EXTRACTION_LIMITS.timeLimitMs / 1000} s, ${DEFAULT_EXTRACTION_LIMITS.maxMemoryMb} MB) → ${out.inlineXbrl?.status}${out.inlineXbrl?.status === 'text-only' ? `: ${out.inlineXbrl.reason}` : ''}`,
    );
    // At the limit: a ~45 MB filing with 45,000 facts is ingested with all of them.
    const atLimit = syntheticFiling(49 * 1024 * 1024, { padding: 850, maxFacts: 45_000 });
    await storeDocument(db, {
      id: 'synthetic-at-limit',
      idIsExplicit: true,
      orgId: ORG,
      title: 'synthetic',
      docType: null,
      mimeType: 'text/html',
      bytes: new TextEncoder().encode(atLimit.html),
    });
    const t2 = performance.now();
    const r2 = (await new MockActivityEnvironment().run(activities.ingestDocument, {
      orgId: ORG,
      documentId: 'synthetic-at-limit',
    })) as IngestResult;
    const set2 = await getFilingFactSet(db, ORG, 'synthetic-at-limit');
    console.log(
      `synthetic ${(atLimit.html.length / 1e6).toFixed(1)} MB filing with ${atLimit.facts} facts: ingested in ${((performance.now() - t2) / 1000).toFixed(1)} s — ${r2.pageCount} pages, ${set2?.factCount} facts stored (${set2?.status}${set2?.reason ? `: ${set2.reason}` : ''})`,
    );
  } finally {
    await pool.end();
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
