import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { chunkPage } from '../activities/documents/chunking';
import { tmpdir } from 'node:os';
import { ingestFile } from '../client/documents';
import { ingestionWorkflowId } from '../workflows/ingestion.contract';
import {
  getDocument,
  loadPages,
  searchChunks,
  storeDocument,
  storePages,
} from '../db/repositories/documents';
import { FIXTURES, ORG, SAMPLES } from './support/fixtures';
import { useSeededWorker } from './support/seeded-worker';
import { CsOrg, CsState } from '../workflows/search-attributes';

const env = useSeededWorker();
const deps = () => env.deps();
const db = () => env.database.db;

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause?.cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

describe('document ingestion', () => {
  it('ingests a PDF with 0-based pages, chunks and full-text search with citations', async () => {
    const r = await ingestFile(deps(), {
      orgId: ORG,
      path: join(FIXTURES, 'pdf', 'statement-table.pdf'),
    });
    expect(r.ingestion.status).toBe('ready');
    const pages = await loadPages(db(), ORG, r.document.id);
    expect(pages.map((p) => p.page)).toEqual([...Array(r.ingestion.pageCount).keys()]);
    const hits = await searchChunks(db(), ORG, [r.document.id], 'net revenues', 5);
    expect(hits.length).toBeGreaterThan(0);
    const hit = hits[0]!;
    const page = pages.find((p) => p.page === hit.page)!;
    expect(page.text.slice(hit.charStart, hit.charEnd)).toBe(hit.quote);
  });

  it('shows its state to the Web UI: CsState ready and what was read, on the ingestion run', async () => {
    const r = await ingestFile(deps(), {
      orgId: ORG,
      path: join(FIXTURES, 'pdf', 'statement-table.pdf'),
    });
    const desc = await deps()
      .client.workflow.getHandle(ingestionWorkflowId(ORG, r.document.id))
      .describe();
    expect(desc.typedSearchAttributes.get(CsState)).toBe('ready');
    expect(desc.typedSearchAttributes.get(CsOrg)).toBe(ORG);
  });

  it('is idempotent per content hash: the same bytes again are the same document, not re-ingested', async () => {
    const first = await ingestFile(deps(), {
      orgId: ORG,
      path: join(SAMPLES, 'northwind-2024-10k.txt'),
    });
    const again = await ingestFile(deps(), {
      orgId: ORG,
      path: join(SAMPLES, 'northwind-2024-10k.txt'),
      id: 'another-id',
    });
    expect(again.created).toBe(false);
    expect(again.document.id).toBe(first.document.id);
    expect(again.ingestion).toMatchObject({
      status: 'ready',
      pageCount: first.ingestion.pageCount,
      pagesIngested: 0,
    });
    expect((await loadPages(db(), ORG, first.document.id)).length).toBe(first.ingestion.pageCount);
  });

  it('resumes after the pages an interrupted ingestion already stored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-'));
    const file = join(dir, 'three-pages.txt');
    writeFileSync(file, 'Page one text\fPage two text\fPage three text');
    const { document } = await storeDocument(db(), {
      id: 'resume-doc',
      orgId: ORG,
      title: 'three',
      docType: null,
      mimeType: 'text/plain',
      bytes: readFileSync(file),
    });
    // As if a worker died after storing the first page.
    await storePages(db(), ORG, document.id, [
      { page: 0, text: 'Page one text', chunks: chunkPage('Page one text') },
    ]);
    const r = await ingestFile(deps(), { orgId: ORG, path: file, id: 'resume-doc' });
    expect(r.ingestion).toMatchObject({
      status: 'ready',
      pageCount: 3,
      resumedFrom: 1,
      pagesIngested: 2,
    });
    expect((await loadPages(db(), ORG, 'resume-doc')).map((p) => p.text)).toEqual([
      'Page one text',
      'Page two text',
      'Page three text',
    ]);
  });

  it('ingests the same document id in two orgs, each reading only its own, and refuses a taken id within an org', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-'));
    writeFileSync(join(dir, 'report.txt'), 'Acme report: widgets sold');
    const a = await ingestFile(deps(), { orgId: ORG, path: join(dir, 'report.txt') });
    writeFileSync(join(dir, 'report.txt'), 'Globex report: gadgets sold');
    const b = await ingestFile(deps(), { orgId: 'globex', path: join(dir, 'report.txt') });
    expect([a.document.id, b.document.id]).toEqual(['report', 'report']);
    expect([a.created, b.created]).toEqual([true, true]);
    expect(b.document.orgId).toBe('globex');
    expect((await loadPages(db(), ORG, 'report')).map((p) => p.text)).toEqual([
      'Acme report: widgets sold',
    ]);
    expect((await loadPages(db(), 'globex', 'report')).map((p) => p.text)).toEqual([
      'Globex report: gadgets sold',
    ]);
    expect(await searchChunks(db(), ORG, ['report'], 'gadgets', 5)).toEqual([]);
    expect(await searchChunks(db(), 'globex', ['report'], 'widgets', 5)).toEqual([]);
    expect(await searchChunks(db(), 'globex', ['report'], 'gadgets', 5)).toHaveLength(1);
    writeFileSync(join(dir, 'other.txt'), 'third content');
    await expect(
      ingestFile(deps(), { orgId: 'globex', path: join(dir, 'other.txt'), id: 'report' }),
    ).rejects.toThrow('Document id "report" is already used for different content');
  });

  it('keeps HTML table rows on one line with their cells', async () => {
    const r = await ingestFile(deps(), {
      orgId: ORG,
      path: join(SAMPLES, 'harbor-bank-2024-pillar3.html'),
    });
    const text = (await loadPages(db(), ORG, r.document.id)).map((p) => p.text).join('\n');
    expect(text).toContain('Common equity Tier 1 capital ratio   11.6%   11.2%');
  });

  it.each([
    ['empty.pdf', 'EmptyDocument'],
    ['corrupt.pdf', 'CorruptDocument'],
    ['no-text-layer.pdf', 'NoTextLayer'],
    ['encrypted-password.pdf', 'PasswordProtected'],
  ])('refuses %s with %s and leaves nothing half-ingested', async (file, type) => {
    const failure = await failureOf(
      ingestFile(deps(), { orgId: ORG, path: join(FIXTURES, 'pdf', file), id: `bad-${file}` }),
    );
    expect(failure.type).toBe(type);
    const doc = await getDocument(db(), ORG, `bad-${file}`);
    expect(doc).toMatchObject({ status: 'failed', pagesDone: 0 });
    expect(await loadPages(db(), ORG, `bad-${file}`)).toEqual([]);
  });

  it('opens a PDF encrypted with an empty password', async () => {
    const r = await ingestFile(deps(), {
      orgId: ORG,
      path: join(FIXTURES, 'pdf', 'encrypted-empty-password.pdf'),
    });
    expect(r.ingestion.pageCount).toBeGreaterThan(0);
  });

  it('refuses an unsupported file type before storing anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-'));
    writeFileSync(join(dir, 'x.docx'), 'PK');
    await expect(
      ingestFile(deps(), { orgId: ORG, path: join(dir, 'x.docx') }),
    ).rejects.toMatchObject({ name: 'InvalidRequestError' });
  });
});
