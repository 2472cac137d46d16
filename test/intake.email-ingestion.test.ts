import type { Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { events } from '../db/schema';
import { issueApiKey } from '../db/repositories/credentials';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiServer } from '../api/server';
import { getDocument, getDocumentBytes, searchChunks } from '../db/repositories/documents';
import { readBillDocument } from '../activities/bills/read-bill';
import { ciiInvoice } from '../scripts/lib/einvoice-builder';
import { parseInboundEmail, type InboundEmail } from '../activities/intake/email';
import { ingestEmailAttachments } from '../client/email-attachments';
import {
  EmailReceivedPayloadSchema,
  emailReceivedPayload,
} from '../activities/intake/event-payloads';
import {
  processMailFolder,
  watchMailFolder,
  type MailFolderOutcome,
} from '../activities/intake/mail-folder';
import { FIXTURES, ORG } from './support/fixtures';
import { useSeededWorker } from './support/seeded-worker';
import { eventually } from './agent-runs.fixtures';

const env = useSeededWorker();
const EMAIL = join(FIXTURES, 'email');

async function parsedFile(name: string): Promise<InboundEmail> {
  const r = await parseInboundEmail(readFileSync(join(EMAIL, name)));
  if (!r.ok) throw new Error(r.error.message);
  return r.email;
}

/** A message with one attachment, built here (the project's corrupt PDF fixture as a PDF). */
function withAttachment(name: string, type: string, bytes: Buffer): Buffer {
  return Buffer.from(
    `From: a@sender.example\r\nTo: b@acme.example\r\nSubject: s\r\nMessage-ID: <${name}@sender.example>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n--b1\r\nContent-Type: ${type}; name="${name}"\r\nContent-Disposition: attachment; filename="${name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${bytes.toString('base64')}\r\n--b1--\r\n`,
  );
}

describe('email attachments kept as documents (real database and ingestion workflow)', () => {
  it('keeps a structured e-invoice XML attachment as a document the bill reader reads exactly', async () => {
    const xml = ciiInvoice({
      number: 'MAIL-7',
      lines: [{ name: 'Wartung', net: '80.00', rate: '19' }],
    });
    const parsed = await parseInboundEmail(
      withAttachment('xrechnung.xml', 'application/xml', Buffer.from(xml, 'utf8')),
    );
    if (!parsed.ok) throw new Error(parsed.error.message);
    const r = await ingestEmailAttachments(env.deps(), { orgId: ORG, email: parsed.email });
    expect(r.skipped).toEqual([]);
    expect(r.documents.map((d) => [d.filename, d.status])).toEqual([['xrechnung.xml', 'ready']]);
    const stored = await getDocument(env.database.db, ORG, r.documents[0]!.documentId);
    expect(stored?.mimeType).toBe('application/xml');
    const bytes = await getDocumentBytes(env.database.db, ORG, r.documents[0]!.documentId);
    const bill = await readBillDocument({
      mimeType: stored!.mimeType,
      bytes: new Uint8Array(bytes!),
      pages: [],
    });
    expect(bill).toMatchObject({
      outcome: 'ready',
      source: 'xml',
      invoiceNumber: 'MAIL-7',
      amount: '95.20',
    });
  });

  it('ingests the PDF and text attachments, skips the image, and is idempotent', async () => {
    const email = await parsedFile('multipart-pdf.eml');
    const first = await ingestEmailAttachments(env.deps(), { orgId: ORG, email });
    expect(first.documents.map((d) => [d.filename, d.status, d.error])).toEqual([
      ['statement-table.pdf', 'ready', null],
      ['remittance.txt', 'ready', null],
    ]);
    expect(first.skipped).toEqual([
      {
        filename: 'logo.png',
        contentType: 'image/png',
        reason: 'type image/png is not a document type (PDF, HTML, text, XML)',
      },
    ]);
    for (const d of first.documents) {
      const stored = await getDocument(env.database.db, ORG, d.documentId);
      expect([stored?.status, stored?.sha256, stored?.docType]).toEqual([
        'ready',
        d.sha256,
        'email-attachment',
      ]);
    }
    expect(
      (await getDocument(env.database.db, ORG, first.documents[0]?.documentId ?? ''))?.title,
    ).toBe('statement-table.pdf');
    const hits = await searchChunks(
      env.database.db,
      ORG,
      [first.documents[1]?.documentId ?? ''],
      'remittance',
      3,
    );
    expect(hits.length).toBeGreaterThan(0);
    const again = await ingestEmailAttachments(env.deps(), { orgId: ORG, email });
    expect(again.documents.map((d) => d.documentId)).toEqual(
      first.documents.map((d) => d.documentId),
    );
  });

  it('records an attachment the ingestion refuses as failed, with the ingestion reason', async () => {
    const r = await parseInboundEmail(
      withAttachment(
        'broken.pdf',
        'application/pdf',
        readFileSync(join(FIXTURES, 'pdf', 'corrupt.pdf')),
      ),
    );
    if (!r.ok) throw new Error(r.error.message);
    const out = await ingestEmailAttachments(env.deps(), { orgId: ORG, email: r.email });
    expect(out.documents).toHaveLength(1);
    expect(out.documents[0]).toMatchObject({ filename: 'broken.pdf', status: 'failed' });
    expect(out.documents[0]?.error).toEqual(expect.any(String));
    expect(
      (await getDocument(env.database.db, ORG, out.documents[0]?.documentId ?? ''))?.status,
    ).toBe('failed');
  });
});

describe('the watched mail folder', () => {
  const handle = async (email: InboundEmail) => {
    const { documents, skipped } = await ingestEmailAttachments(env.deps(), { orgId: ORG, email });
    return emailReceivedPayload({ channel: 'folder', email, documents, skipped });
  };

  it('moves readable messages to processed/ with their payloads, bad ones to failed/ with a reason file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-mail-'));
    for (const f of ['plain.eml', 'multipart-pdf.eml', 'html-only.eml', 'malformed.eml'])
      copyFileSync(join(EMAIL, f), join(dir, f));
    writeFileSync(join(dir, 'notes.txt'), 'not an email');
    const outcomes = await processMailFolder({ dir, handle });
    expect(outcomes.map((o) => [o.file, o.status])).toEqual([
      ['html-only.eml', 'processed'],
      ['malformed.eml', 'failed'],
      ['multipart-pdf.eml', 'processed'],
      ['plain.eml', 'processed'],
    ]);
    const multipart = outcomes.find((o) => o.file === 'multipart-pdf.eml') as Extract<
      MailFolderOutcome,
      { status: 'processed' }
    >;
    const payload = EmailReceivedPayloadSchema.parse(multipart.result);
    expect(payload.documents.map((d) => d.filename)).toEqual([
      'statement-table.pdf',
      'remittance.txt',
    ]);
    expect(readdirSync(join(dir, 'processed')).sort()).toEqual([
      'html-only.eml',
      'multipart-pdf.eml',
      'plain.eml',
    ]);
    expect(readdirSync(join(dir, 'failed')).sort()).toEqual([
      'malformed.eml',
      'malformed.eml.reason.txt',
    ]);
    expect(readFileSync(join(dir, 'failed', 'malformed.eml.reason.txt'), 'utf8')).toBe(
      'Malformed: line 1 is not a header field ("this is not an email header"): not an RFC 5322 message\n',
    );
    expect(readdirSync(dir).sort()).toEqual(['failed', 'notes.txt', 'processed', 'processing']);
    expect(readdirSync(join(dir, 'processing'))).toEqual([]);
  });

  it('puts a message back for the next pass when the handler fails, and a watcher picks up new files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-mail-'));
    copyFileSync(join(EMAIL, 'plain.eml'), join(dir, 'plain.eml'));
    const failing = await processMailFolder({
      dir,
      handle: () => Promise.reject(new Error('database unavailable')),
    });
    expect(failing).toEqual([
      { file: 'plain.eml', status: 'retry', reason: 'database unavailable' },
    ]);
    expect(existsSync(join(dir, 'plain.eml'))).toBe(true);

    const seen: MailFolderOutcome[] = [];
    const watcher = watchMailFolder({
      dir,
      handle,
      intervalMs: 200,
      onOutcomes: (o) => seen.push(...o),
    });
    copyFileSync(join(EMAIL, 'html-only.eml'), join(dir, 'html-only.eml'));
    const deadline = Date.now() + 30_000;
    while (seen.filter((o) => o.status === 'processed').length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    await watcher.stop();
    expect(seen.map((o) => [o.file, o.status]).sort()).toEqual([
      ['html-only.eml', 'processed'],
      ['plain.eml', 'processed'],
    ]);
  });
});

describe('POST /v1/orgs/:org/inbound-email', () => {
  let server: Server;
  let base: string;
  let ritaKey: string;
  beforeAll(async () => {
    // Callers authenticate with a key the platform issued (a salted hash is stored).
    ritaKey = (
      await issueApiKey(
        env.deps().db,
        { kind: 'user', userId: 'rita' },
        { issuedBy: 'test', orgId: ORG },
      )
    ).key;
    server = createApiServer(env.deps());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  const postRaw = async (body: Buffer, auth = `Bearer ${ritaKey}`) => {
    const res = await fetch(`${base}/v1/orgs/${ORG}/inbound-email`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'message/rfc822' },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('accepts raw MIME, ingests its document attachments and answers with the email.received payload', async () => {
    const r = await postRaw(readFileSync(join(EMAIL, 'multipart-pdf.eml')));
    expect(r.status).toBe(202);
    const payload = EmailReceivedPayloadSchema.parse(r.body);
    expect(payload.channel).toBe('api');
    expect(payload.email.messageId).toBe('invoice-2024-118@supplier.example');
    expect(payload.documents.map((d) => [d.filename, d.status])).toEqual([
      ['statement-table.pdf', 'ready'],
      ['remittance.txt', 'ready'],
    ]);
  });

  it('refuses a malformed message with 422 and the parser reason, and an unauthenticated caller', async () => {
    const bad = await postRaw(readFileSync(join(EMAIL, 'malformed.eml')));
    expect(bad.status).toBe(422);
    // problem+json: `code` is the kind, `type` its stable URI.
    expect(bad.body).toMatchObject({
      code: 'Malformed',
      type: 'https://countersign.dev/problems/malformed',
    });
    const anon = await postRaw(readFileSync(join(EMAIL, 'plain.eml')), 'Bearer csk_0000_not-a-key');
    expect(anon.status).toBe(401);
  });
});

describe('POST /v1/orgs/:org/statements', () => {
  let server: Server;
  let base: string;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    for (const userId of ['arnold', 'rita'])
      keys[userId] = (
        await issueApiKey(env.deps().db, { kind: 'user', userId }, { issuedBy: 'test', orgId: ORG })
      ).key;
    server = createApiServer(env.deps());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const addr = server.address();
    base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });
  const post = async (body: Buffer, file: string, userId = 'arnold', connector = 'bank-a') => {
    const res = await fetch(
      `${base}/v1/orgs/${ORG}/statements?connector=${connector}&file=${encodeURIComponent(file)}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${keys[userId]}`,
          'content-type': 'application/octet-stream',
        },
        body,
      },
    );
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const statementEvents = async () =>
    (await env.deps().db.select().from(events).where(eq(events.orgId, ORG))).filter(
      (e) => e.type === 'connector.statement_imported',
    );

  it('imports a statement file as one connector.statement_imported event per statement', async () => {
    const file = join(FIXTURES, 'statements', 'mt940', 'two-statements.sta');
    const r = await post(readFileSync(file), 'two-statements.sta');
    expect([r.status, r.body.detail]).toEqual([202, undefined]);
    expect(r.body).toMatchObject({ format: 'mt940', lines: expect.any(Number) });
    const accepted = r.body.events as { eventId: string; status: string }[];
    expect(accepted.map((e) => e.status)).toEqual(['accepted', 'accepted']);
    // Each event's row is its workflow's first step: read back once written.
    const stored = await eventually(async () => {
      const rows = await statementEvents();
      return rows.length >= 2 ? rows : undefined;
    });
    expect(stored.map((e) => e.id).sort()).toEqual(accepted.map((e) => e.eventId).sort());
  });

  it('refuses a bad file whole (nothing imported), a bad connector id, and a reviewer', async () => {
    const before = (await statementEvents()).length;
    const bad = readFileSync(join(FIXTURES, 'statements', 'camt', 'unbalanced.wrong.xml'));
    const r = await post(bad, 'unbalanced.wrong.xml');
    expect(r.status).toBe(422);
    expect(r.body.type).toBe('https://countersign.dev/problems/balance-mismatch');
    expect(String(r.body.detail)).toMatch(/^unbalanced\.wrong\.xml/);
    expect((await post(bad, 'x.xml', 'arnold', 'bad id!')).status).toBe(400);
    expect((await post(bad, 'x.xml', 'rita')).status).toBe(403);
    expect((await statementEvents()).length).toBe(before);
  });
});
