import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestFile } from '../client/documents';
import { buildProgram } from '../client/program';
import type { CliContext } from '../client/commands/context';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createDocumentActivities } from '../activities/documents/ingest';
import type { IngestResult } from '../workflows/ingestion.contract';
import { loadPages, storeDocument } from '../db/repositories/documents';
import {
  getFilingFact,
  getFilingFactSet,
  queryFilingFacts,
  replaceFilingFacts,
} from '../db/repositories/filing-facts';
import { parseInlineXbrl } from '../activities/documents/inline-xbrl';
import { READ_TOOLS } from '../activities/agent-runs/tools/read-tools';
import { FIXTURES, ORG, OTHER_ORG, OUTSIDER, REVIEWER } from './support/fixtures';
import { testConfig } from './support/worker';
import { issueApiKey } from '../db/repositories/credentials';
import { useSeededWorker } from './support/seeded-worker';
import { sharedDataset } from './support/shared-dataset';
import { createExtractMetric } from '../activities/analysis/extract-metric';
import { PageStore } from '../activities/analysis/page-store';
import { FactStore } from '../activities/analysis/facts/fact-store';

/**
 * Ingesting an HTML filing with inline XBRL stores its facts with its pages: queryable by
 * concept, period and dimensions, each located in the stored page text.
 */
const env = useSeededWorker();
const db = () => env.database.db;
const MINI = join(FIXTURES, 'ixbrl', 'mini-10k.html');
const { path: APPLE, present: HAVE_APPLE } = sharedDataset(
  'sec-ixbrl-dev',
  'pdfs',
  'APPLE_2024_10K.html',
);

async function located(
  orgId: string,
  docId: string,
  f: { location: { page: number; start: number; end: number } | null },
) {
  const pages = await loadPages(db(), orgId, docId);
  const { page, start, end } = f.location!;
  return pages.find((p) => p.page === page)!.text.slice(start, end);
}

describe('inline XBRL ingestion', () => {
  it('stores the facts of the mini 10-K with its pages: company totals by default, segments on request', async () => {
    const r = await ingestFile(env.deps(), { orgId: ORG, path: MINI, id: 'mini-10k' });
    expect(r.ingestion.status).toBe('ready');
    const set = await getFilingFactSet(db(), ORG, 'mini-10k');
    expect(set).toMatchObject({
      status: 'facts',
      reason: null,
      refusedCount: 0,
      dei: {
        registrantName: 'Mini Corp',
        cik: '0000999999',
        fiscalYearFocus: '2024',
        fiscalPeriodFocus: 'FY',
        periodEndDate: '2024-12-31',
        documentType: '10-K',
      },
    });
    const revenues = await queryFilingFacts(db(), ORG, 'mini-10k', { concept: 'us-gaap:Revenues' });
    expect(revenues.map((f) => [f.factId, f.value, f.period.end])).toEqual([
      ['f11', '1100000000', '2023-12-31'],
      ['f10', '1234500000', '2024-12-31'],
    ]);
    expect(revenues[1]?.duplicateIds).toEqual(['f16']);
    expect(await located(ORG, 'mini-10k', revenues[1]!)).toBe('1,234.5');

    const cloud = await queryFilingFacts(db(), ORG, 'mini-10k', {
      concept: 'Revenues',
      period: '2024-01-01..2024-12-31',
      dimensions: [
        { dimension: 'us-gaap:StatementBusinessSegmentsAxis', member: 'mini:CloudMember' },
      ],
    });
    expect(cloud.map((f) => [f.factId, f.value])).toEqual([['f12', '400000000']]);

    const loss = await queryFilingFacts(db(), ORG, 'mini-10k', {
      concept: 'NetIncomeLoss',
      period: '2024',
    });
    expect(loss.map((f) => f.value)).toEqual(['-56700000']);
    expect(await located(ORG, 'mini-10k', loss[0]!)).toBe('56.7');
    // A folded duplicate's id still finds its fact; another org sees nothing.
    expect((await getFilingFact(db(), ORG, 'mini-10k', 'f16'))?.factId).toBe('f10');
    expect(await queryFilingFacts(db(), OTHER_ORG, 'mini-10k')).toEqual([]);
  });

  it('replaces the set on a retried write instead of adding to it', async () => {
    const parsed = parseInlineXbrl(readFileSync(MINI, 'utf8'));
    if (parsed.status !== 'facts') throw new Error('mini fixture has facts');
    const set = { ...parsed, reason: null };
    await replaceFilingFacts(db(), ORG, 'mini-10k', set);
    await replaceFilingFacts(db(), ORG, 'mini-10k', set);
    const all = await queryFilingFacts(db(), ORG, 'mini-10k', { dimensions: 'any' });
    expect(all).toHaveLength(parsed.facts.length);
    expect((await getFilingFactSet(db(), ORG, 'mini-10k'))?.factCount).toBe(parsed.facts.length);
  });

  it('ingests a filing with more facts than the limit as text only, the reason on its fact set', async () => {
    await storeDocument(db(), {
      id: 'mini-text-only',
      idIsExplicit: true,
      orgId: OTHER_ORG,
      title: 'mini',
      docType: null,
      mimeType: 'text/html',
      bytes: readFileSync(MINI),
    });
    const activities = createDocumentActivities(db(), {
      timeLimitMs: 60_000,
      maxMemoryMb: 1024,
      maxFacts: 3,
    });
    const r = (await new MockActivityEnvironment().run(activities.ingestDocument, {
      orgId: OTHER_ORG,
      documentId: 'mini-text-only',
    })) as IngestResult;
    expect(r).toMatchObject({ status: 'ready', pageCount: 2 });
    expect(await getFilingFactSet(db(), OTHER_ORG, 'mini-text-only')).toMatchObject({
      status: 'text-only',
      factCount: 0,
      factElements: 15,
      reason: expect.stringContaining('at most 3 are read') as unknown,
    });
    expect(
      await queryFilingFacts(db(), OTHER_ORG, 'mini-text-only', { dimensions: 'any' }),
    ).toEqual([]);
    expect((await loadPages(db(), OTHER_ORG, 'mini-text-only')).length).toBe(2);
  });

  it('removes facts an earlier attempt wrote when the document is refused for good', async () => {
    const html =
      '<html xmlns:ix="http://www.xbrl.org/2013/inlineXBRL"><body><p> </p></body></html>';
    await storeDocument(db(), {
      id: 'refused-filing',
      idIsExplicit: true,
      orgId: ORG,
      title: 'refused',
      docType: null,
      mimeType: 'text/html',
      bytes: new TextEncoder().encode(html),
    });
    const parsed = parseInlineXbrl(readFileSync(MINI, 'utf8'));
    if (parsed.status !== 'facts') throw new Error('mini fixture has facts');
    await replaceFilingFacts(db(), ORG, 'refused-filing', { ...parsed, reason: null });
    const activities = createDocumentActivities(db(), { timeLimitMs: 60_000, maxMemoryMb: 1024 });
    const err = await new MockActivityEnvironment()
      .run(activities.ingestDocument, { orgId: ORG, documentId: 'refused-filing' })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'EmptyDocument', nonRetryable: true });
    expect(await getFilingFactSet(db(), ORG, 'refused-filing')).toBeUndefined();
    expect(await queryFilingFacts(db(), ORG, 'refused-filing', { dimensions: 'any' })).toEqual([]);
  });

  it('answers a segment from its stored member facts and the total from the totals, through the fact store', async () => {
    // Mini Corp tags one segment, Cloud, whose revenue (400) is not the company's (1,234.5).
    // The same file ingested earlier in this suite is the same document: its id is the one to ask.
    const { document } = await ingestFile(env.deps(), {
      orgId: ORG,
      path: MINI,
      id: 'mini-10k-parts',
    });
    const extract = createExtractMetric(new PageStore(db()), null, new FactStore(db()));
    const ask = (question: string) =>
      extract({ orgId: ORG, docId: document.id, question, allowLlm: false, contextPages: [] });
    expect(
      await ask("What were Mini Corp's Cloud revenues in fiscal 2024, in USD millions?"),
    ).toMatchObject({
      status: 'structured',
      answer: '$400 million',
      readings: { used: 'facts', agreed: true, operands: [{ fact: { factId: 'f12' } }] },
    });
    expect(
      await ask("What were Mini Corp's total revenues in fiscal 2024, in USD millions?"),
    ).toMatchObject({ status: 'structured', answer: '$1,234.5 million' });
  });

  it('answers the filing_facts read tool with located facts, and says when a document has none', async () => {
    await ingestFile(env.deps(), { orgId: ORG, path: MINI, id: 'mini-10k' });
    const out = await READ_TOOLS.filing_facts(db(), ORG, {
      documentId: 'mini-10k',
      concept: 'Revenues',
      period: '2024',
      dimensions: 'none',
      limit: 50,
    });
    expect(out).toMatchObject({
      status: 'facts',
      reason: null,
      dei: { registrantName: 'Mini Corp', fiscalYearFocus: '2024' },
      facts: [{ factId: 'f10', concept: 'us-gaap:Revenues', value: '1234500000' }],
    });
    expect(await located(ORG, 'mini-10k', out.facts[0]!)).toBe('1,234.5');
    await expect(
      READ_TOOLS.filing_facts(db(), ORG, {
        documentId: 'mini-10k',
        period: 'last year',
        dimensions: 'none',
        limit: 50,
      }),
    ).rejects.toThrow(/period last year/);
    await expect(
      READ_TOOLS.filing_facts(db(), OTHER_ORG, {
        documentId: 'mini-10k',
        dimensions: 'none',
        limit: 5,
      }),
    ).rejects.toThrow(/unknown document mini-10k in org globex/);
  });

  it('prints facts from the CLI: npm run cli -- facts --org ORG --doc DOC --concept C --period P', async () => {
    let stdout = '';
    // A member's key for the org (a reviewer reads); another org's key, or none, is refused.
    const keyOf = async (u: { userId: string; orgId: string }) =>
      (
        await issueApiKey(
          db(),
          { kind: 'user', userId: u.userId },
          { issuedBy: 'test', orgId: u.orgId },
        )
      ).key;
    let apiKey: Record<string, string> = {};
    const context = (json: boolean): CliContext => ({
      config: () => testConfig(env.database, apiKey),
      db: () => Promise.resolve(db()),
      temporal: () => Promise.reject(new Error('not needed')),
      namespace: () => 'default',
      out: {
        json,
        print: (v) => (stdout += JSON.stringify(v)),
        write: (t) => (stdout += t),
        note: () => undefined,
      },
      close: () => Promise.resolve(),
    });
    const facts = (...rest: string[]) =>
      buildProgram(context).parseAsync(['node', 'countersign', '--json', 'facts', ...rest]);
    await expect(facts('--org', ORG, '--doc', 'mini-10k')).rejects.toMatchObject({
      name: 'AuthenticationError',
    });
    apiKey = { CS_API_KEY: await keyOf(OUTSIDER) };
    await expect(facts('--org', ORG, '--doc', 'mini-10k')).rejects.toThrow(/issued for org globex/);
    expect(stdout).toBe('');
    apiKey = { CS_API_KEY: await keyOf(REVIEWER) };
    await buildProgram(context).parseAsync([
      'node',
      'countersign',
      '--json',
      'facts',
      '--org',
      ORG,
      '--doc',
      'mini-10k',
      '--concept',
      'EarningsPerShareBasic',
      '--period',
      '2024-12-31',
    ]);
    expect(JSON.parse(stdout)).toMatchObject({
      document: 'mini-10k',
      dei: { registrantName: 'Mini Corp' },
      facts: [
        {
          factId: 'f15',
          concept: 'us-gaap:EarningsPerShareBasic',
          value: '-0.46',
          unit: 'iso4217:USD/xbrli:shares',
          period: '2024-01-01..2024-12-31',
          displayed: '0.46',
        },
      ],
    });
  });

  const devIt = HAVE_APPLE ? it : it.skip;
  if (!existsSync(APPLE))
    console.log(
      `SKIP the real-filing ingestion test: ${APPLE} is absent (the shared dev data set)`,
    );

  devIt(
    'stores every fact of a real 10-K (Apple 2024), each number located where it is printed',
    async () => {
      const r = await ingestFile(env.deps(), { orgId: ORG, path: APPLE, id: 'aapl-2024' });
      expect(r.ingestion.status).toBe('ready');
      const set = await getFilingFactSet(db(), ORG, 'aapl-2024');
      expect(set).toMatchObject({ status: 'facts', factElements: 1127, refusedCount: 0 });
      expect(set?.dei).toMatchObject({
        cik: '0000320193',
        fiscalYearFocus: '2024',
        periodEndDate: '2024-09-28',
      });
      const [ocf] = await queryFilingFacts(db(), ORG, 'aapl-2024', {
        concept: 'us-gaap:NetCashProvidedByUsedInOperatingActivities',
        period: '2023-10-01..2024-09-28',
      });
      expect(ocf).toMatchObject({ value: '118254000000', unit: 'iso4217:USD', decimals: '-6' });
      expect(await located(ORG, 'aapl-2024', ocf!)).toBe('118,254');
      const all = await queryFilingFacts(db(), ORG, 'aapl-2024', {
        dimensions: 'any',
        limit: 10_000,
      });
      const pages = new Map((await loadPages(db(), ORG, 'aapl-2024')).map((p) => [p.page, p.text]));
      const numeric = all.filter((f) => f.numeric && f.location);
      expect(numeric.length).toBeGreaterThan(800);
      for (const f of numeric)
        expect(pages.get(f.location!.page)!.slice(f.location!.start, f.location!.end)).toBe(
          f.displayedText,
        );
    },
  );
});
