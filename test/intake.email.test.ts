import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { emailMetadata, parseInboundEmail, type InboundEmail } from '../activities/intake/email';
import {
  EmailReceivedPayloadSchema,
  INTAKE_EVENT_TYPES,
  StatementImportedPayloadSchema,
  emailReceivedPayload,
  statementImportedPayloads,
} from '../activities/intake/event-payloads';
import { importStatementFile } from '../activities/intake/import-statement';

const EMAIL = join(__dirname, 'fixtures', 'email');
const PDF = join(__dirname, 'fixtures', 'pdf');
const eml = (name: string) => readFileSync(join(EMAIL, name));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function parsed(raw: Uint8Array, limits = {}): Promise<InboundEmail> {
  const r = await parseInboundEmail(raw, limits);
  if (!r.ok) throw new Error(`expected an email, got ${JSON.stringify(r.error)}`);
  return r.email;
}

/** A message with the given attachments, built here so sizes can be chosen. */
function messageWith(attachments: { name: string; type: string; bytes: Buffer }[]): Buffer {
  const parts = attachments.map(
    (a) =>
      `--b1\r\nContent-Type: ${a.type}; name="${a.name}"\r\nContent-Disposition: attachment; filename="${a.name}"\r\nContent-Transfer-Encoding: base64\r\n\r\n${a.bytes.toString('base64').replace(/.{76}/g, '$&\r\n')}\r\n`,
  );
  return Buffer.from(
    `From: a@sender.example\r\nTo: b@acme.example\r\nSubject: s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b1"\r\n\r\n--b1\r\nContent-Type: text/plain\r\n\r\nbody\r\n${parts.join('')}--b1--\r\n`,
  );
}

describe('inbound email parsing', () => {
  it('parses a plain quoted-printable message with its sender, recipients, date and id', async () => {
    const e = await parsed(eml('plain.eml'));
    expect(emailMetadata(e)).toEqual({
      messageId: 'reminder-2024-118@supplier.example',
      sha256: sha(eml('plain.eml')),
      from: { address: 'ap@supplier.example', name: 'Accounts Payable' },
      to: [{ address: 'inbox@acme.example', name: '' }],
      cc: [],
      subject: 'Payment reminder for invoice 2024-118',
      date: '2024-03-05T08:30:00.000Z',
      text: 'Dear customer,\n\nour invoice 2024-118 over EUR 1.250,00 is due on 15 March. Grüße,\nthe accounts team',
      html: null,
      htmlText: null,
      attachments: [],
    });
  });

  it('parses a multipart message: alternative bodies, a PDF, a text and an image attachment with sizes and hashes', async () => {
    const e = await parsed(eml('multipart-pdf.eml'));
    const pdf = readFileSync(join(PDF, 'statement-table.pdf'));
    expect(e.subject).toBe('Invoice 2024-118 – statement');
    expect(e.to.map((a) => a.address)).toEqual(['inbox@acme.example', 'ap@acme.example']);
    expect(e.cc).toEqual([{ address: 'controller@acme.example', name: '' }]);
    expect(e.text).toBe('Please find our statement attached.');
    expect(e.htmlText).toBe('Please find our statement attached.');
    expect(e.attachments.map(({ bytes: _b, ...m }) => m)).toEqual([
      {
        filename: 'statement-table.pdf',
        contentType: 'application/pdf',
        size: pdf.length,
        sha256: sha(pdf),
        isDocument: true,
      },
      {
        filename: 'remittance.txt',
        contentType: 'text/plain',
        size: 56,
        sha256: sha(Buffer.from('Remittance advice\nInvoice 2024-118\nAmount: 1,250.00 EUR\n')),
        isDocument: true,
      },
      {
        filename: 'logo.png',
        contentType: 'image/png',
        size: 22,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        isDocument: false,
      },
    ]);
    expect(Buffer.from(e.attachments[0]?.bytes ?? []).equals(pdf)).toBe(true);
  });

  it('turns an HTML-only message into text with the ingestion rules (no style, table cells apart)', async () => {
    const e = await parsed(eml('html-only.eml'));
    expect(e.html).toContain('<h1>Account summary</h1>');
    expect(e.text).toBe(e.htmlText);
    expect(e.htmlText).toContain('Closing balance: EUR 4,210.55');
    expect(e.htmlText).not.toContain('color:red');
    expect(e.htmlText).toMatch(/Opening\s+3,900\.00/);
  });

  it('refuses a malformed message, naming why', async () => {
    expect(await parseInboundEmail(eml('malformed.eml'))).toEqual({
      ok: false,
      error: {
        code: 'Malformed',
        message:
          'line 1 is not a header field ("this is not an email header"): not an RFC 5322 message',
      },
    });
  });

  it('refuses a message without a sender, or whose From is no mailbox (a NUL byte in place of the @)', async () => {
    for (const raw of [
      Buffer.from('To: b@acme.example\r\nSubject: anonymous\r\n\r\nhello\r\n'),
      Buffer.from('From: "A P" <ap\0supplier.example>\r\nTo: b@acme.example\r\n\r\nhello\r\n'),
    ]) {
      expect(await parseInboundEmail(raw)).toEqual({
        ok: false,
        error: { code: 'MissingField', message: 'the message has no From address' },
      });
    }
  });

  it('refuses over-size messages and attachments, and too many attachments', async () => {
    const raw = eml('multipart-pdf.eml');
    expect(await parseInboundEmail(raw, { maxMessageBytes: 1000 })).toEqual({
      ok: false,
      error: { code: 'TooLarge', message: `the message is ${raw.length} bytes, the limit is 1000` },
    });
    expect(await parseInboundEmail(raw, { maxAttachmentBytes: 1000 })).toEqual({
      ok: false,
      error: {
        code: 'AttachmentTooLarge',
        message: 'attachment "statement-table.pdf" is 3709 bytes, the limit is 1000',
      },
    });
    expect(await parseInboundEmail(raw, { maxAttachments: 2 })).toEqual({
      ok: false,
      error: {
        code: 'TooManyAttachments',
        message: 'the message has 3 attachments, the limit is 2',
      },
    });
    const big = messageWith([
      { name: 'big.pdf', type: 'application/pdf', bytes: Buffer.alloc(3 * 1024 * 1024, 7) },
    ]);
    const r = await parseInboundEmail(big, { maxAttachmentBytes: 2 * 1024 * 1024 });
    expect(r.ok ? null : r.error.code).toBe('AttachmentTooLarge');
  });

  it('refuses a multipart message cut anywhere before its closing boundary: never a partial attachment', async () => {
    const raw = eml('multipart-pdf.eml');
    const closing = raw.toString('latin1').lastIndexOf('--=_outer_7f3a--');
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: closing + '--=_outer_7f3a-'.length }),
        async (cut) => {
          const r = await parseInboundEmail(raw.subarray(0, cut));
          expect(r.ok).toBe(false);
          expect(['Malformed', 'MissingField']).toContain(r.ok ? '' : r.error.code);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads a folded boundary declaration, and does not mistake "boundary=" in a body for one', async () => {
    const prose = Buffer.from(
      'From: a@b.example\r\nSubject: x\r\n\r\nset boundary="zz" in the config\r\n',
    );
    expect((await parsed(prose)).text).toBe('set boundary="zz" in the config');
    const folded = Buffer.from(
      'From: a@b.example\r\nContent-Type: multipart/mixed;\r\n boundary="zz"\r\n\r\n--zz\r\nContent-Type: text/plain\r\n\r\nhi\r\n',
    );
    expect(await parseInboundEmail(folded)).toEqual({
      ok: false,
      error: {
        code: 'Malformed',
        message: 'the multipart boundary "zz" is never closed: the message is truncated',
      },
    });
  });

  it('never throws on random bytes or damaged messages', async () => {
    const files = ['plain.eml', 'multipart-pdf.eml', 'html-only.eml'].map(eml);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 2048 }),
          fc
            .tuple(
              fc.integer({ min: 0, max: 2 }),
              fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
            )
            .map(([i, edits]) => {
              const b = Buffer.from(files[i] as Buffer);
              for (const [p, v] of edits) b[p % b.length] = v;
              return new Uint8Array(b);
            }),
        ),
        async (bytes) => {
          const r = await parseInboundEmail(bytes);
          if (r.ok) expect(r.email.from.address).toContain('@');
          else expect(r.error.message.length).toBeGreaterThan(5);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('intake event payloads', () => {
  it('email.received carries the parsed email without bytes, plus document ids', async () => {
    const e = await parsed(eml('multipart-pdf.eml'));
    const payload = emailReceivedPayload({
      channel: 'folder',
      email: e,
      documents: [
        {
          filename: 'statement-table.pdf',
          sha256: e.attachments[0]?.sha256 ?? '',
          documentId: 'doc-1',
          status: 'ready',
          error: null,
        },
      ],
      skipped: [{ filename: 'logo.png', contentType: 'image/png', reason: 'not a document type' }],
    });
    expect(INTAKE_EVENT_TYPES.emailReceived).toBe('email.received');
    expect(EmailReceivedPayloadSchema.parse(JSON.parse(JSON.stringify(payload)))).toEqual(payload);
    expect(JSON.stringify(payload)).not.toContain('"bytes"');
    // Bytes are refused by the schema, so they can never slip into an event.
    const withBytes = { ...payload, email: { ...payload.email, attachments: e.attachments } };
    expect(EmailReceivedPayloadSchema.safeParse(withBytes).error?.issues[0]?.path).toEqual([
      'email',
      'attachments',
      0,
    ]);
  });

  it('connector.statement_imported is one payload per statement, with the file hash, JSON-safe', () => {
    const bytes = readFileSync(
      join(__dirname, 'fixtures', 'statements', 'mt940', 'two-statements.sta'),
    );
    const r = importStatementFile({ file: 'two-statements.sta', bytes });
    if (!r.ok) throw new Error(r.error.message);
    const payloads = statementImportedPayloads({
      connectorId: 'bank-sftp-1',
      fileName: 'two-statements.sta',
      bytes,
      statements: r.statements,
    });
    expect(
      payloads.map((p) => [
        p.file.statementIndex,
        p.file.statementCount,
        p.statement.statementId,
        p.statement.lines.length,
      ]),
    ).toEqual([
      [0, 2, 'STMT-0301', 2],
      [1, 2, 'STMT-0302', 1],
    ]);
    expect(payloads[0]?.file.sha256).toBe(sha(bytes));
    for (const p of payloads)
      expect(StatementImportedPayloadSchema.parse(JSON.parse(JSON.stringify(p)))).toEqual(p);
  });
});
