import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { z } from 'zod';
import { htmlToPages } from '../documents/html-text';

/**
 * Inbound email: raw RFC 5322 MIME (posted to the API or dropped in a watched folder) parsed
 * with mailparser into one zod shape. A message is all or nothing: too large, too many or too
 * large attachments, no sender, or a multipart cut before its closing boundary is refused with
 * a typed error, never read in part.
 */

export const EmailLimitsSchema = z.object({
  maxMessageBytes: z
    .number()
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  maxAttachmentBytes: z
    .number()
    .int()
    .positive()
    .default(10 * 1024 * 1024),
  maxAttachments: z.number().int().positive().default(20),
});
export type EmailLimits = z.infer<typeof EmailLimitsSchema>;

const MAILBOX = /^[^\s@<>"]+@[^\s@<>"]+$/;
export const EmailAddressSchema = z.object({
  address: z.string().regex(MAILBOX, 'a mailbox address such as name@example.com'),
  name: z.string(),
});
export type EmailAddress = z.infer<typeof EmailAddressSchema>;

/** Attachment types kept as documents (ingested): what the ingestion reads. */
export const DOCUMENT_CONTENT_TYPES = [
  'application/pdf',
  'text/html',
  'application/xhtml+xml',
  'text/plain',
  // Structured e-invoices (XRechnung, PEPPOL UBL, CII) arrive as XML attachments.
  'application/xml',
  'text/xml',
] as const;
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];

export const EmailAttachmentMetaSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** Whether the type is one the ingestion reads (PDF, HTML, text): kept as a document. */
  isDocument: z.boolean(),
});
export type EmailAttachmentMeta = z.infer<typeof EmailAttachmentMetaSchema>;

export const EmailAttachmentSchema = EmailAttachmentMetaSchema.extend({
  bytes: z.instanceof(Uint8Array),
});
export type EmailAttachment = z.infer<typeof EmailAttachmentSchema>;

export const InboundEmailSchema = z.object({
  /** The Message-ID header, without angle brackets; null when the sender set none. */
  messageId: z.string().nullable(),
  /** SHA-256 of the raw message: the same bytes are the same email. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  from: EmailAddressSchema,
  to: z.array(EmailAddressSchema),
  cc: z.array(EmailAddressSchema),
  subject: z.string(),
  /** The Date header as an ISO timestamp; null when absent or unreadable. */
  date: z.string().nullable(),
  /** The text part, or the HTML part as text when the message has no text part. */
  text: z.string(),
  html: z.string().nullable(),
  /** The HTML part as text (the same conversion the document ingestion uses). */
  htmlText: z.string().nullable(),
  attachments: z.array(EmailAttachmentSchema),
});
export type InboundEmail = z.infer<typeof InboundEmailSchema>;

export const EmailParseErrorCodeSchema = z.enum([
  'TooLarge',
  'AttachmentTooLarge',
  'TooManyAttachments',
  'Malformed',
  'MissingField',
]);
export type EmailParseErrorCode = z.infer<typeof EmailParseErrorCodeSchema>;
export const EmailParseErrorSchema = z.object({
  code: EmailParseErrorCodeSchema,
  message: z.string(),
});
export type EmailParseError = z.infer<typeof EmailParseErrorSchema>;

export type EmailParseResult =
  { ok: true; email: InboundEmail } | { ok: false; error: EmailParseError };

const refuse = (code: EmailParseErrorCode, message: string): EmailParseResult => ({
  ok: false,
  error: { code, message },
});

function addresses(v: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const objs = v === undefined ? [] : Array.isArray(v) ? v : [v];
  const out: EmailAddress[] = [];
  const visit = (a: {
    address?: string;
    name: string;
    group?: { address?: string; name: string }[];
  }) => {
    if (a.group) a.group.forEach(visit);
    // mailparser keeps whatever the header held (a NUL byte dropped, say); only real mailboxes count.
    else if (a.address && MAILBOX.test(a.address))
      out.push({ address: a.address.toLowerCase(), name: a.name });
  };
  for (const o of objs) o.value.forEach(visit);
  return out;
}

/** Every multipart boundary declared in the message must be closed (`--boundary--`). */
function unclosedBoundary(raw: Buffer): string | null {
  const text = raw.toString('latin1');
  // Only boundaries declared in Content-Type header fields (with their folded lines) count;
  // "boundary=" in a body's prose is not a declaration.
  for (const header of text.matchAll(/^Content-Type:[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*/gim)) {
    const m = /boundary\s*=\s*(?:"([^"\r\n]+)"|([^\s;"\r\n]+))/i.exec(header[0]);
    if (!m) continue;
    const b = m[1] ?? m[2] ?? '';
    if (!text.includes(`--${b}--`)) return b;
  }
  return null;
}

function normalType(contentType: string): string {
  return contentType.split(';')[0]?.trim().toLowerCase() ?? '';
}

export function isDocumentType(contentType: string): contentType is DocumentContentType {
  return (DOCUMENT_CONTENT_TYPES as readonly string[]).includes(normalType(contentType));
}

/** Parses a raw MIME message within the limits; never throws for bad input. */
export async function parseInboundEmail(
  raw: Uint8Array,
  limitsInput: Partial<EmailLimits> = {},
): Promise<EmailParseResult> {
  const limits = EmailLimitsSchema.parse(limitsInput);
  if (raw.byteLength > limits.maxMessageBytes)
    return refuse(
      'TooLarge',
      `the message is ${raw.byteLength} bytes, the limit is ${limits.maxMessageBytes}`,
    );
  const buf = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const firstLine = buf.subarray(0, 1000).toString('latin1').split(/\r?\n/)[0] ?? '';
  if (!/^[!-9;-~]+:/.test(firstLine))
    return refuse(
      'Malformed',
      `line 1 is not a header field ("${firstLine.slice(0, 40)}"): not an RFC 5322 message`,
    );
  if (!/\r?\n\r?\n/.test(buf.toString('latin1')))
    return refuse('Malformed', 'the message has no blank line between header and body');
  const unclosed = unclosedBoundary(buf);
  if (unclosed !== null)
    return refuse(
      'Malformed',
      `the multipart boundary "${unclosed}" is never closed: the message is truncated`,
    );
  let mail: ParsedMail;
  try {
    mail = await simpleParser(buf, {
      skipImageLinks: true,
      // mail.text then holds only a real text part; HTML becomes text by the ingestion's own rules.
      skipHtmlToText: true,
      skipTextLinks: true,
      maxHtmlLengthToParse: limits.maxMessageBytes,
    });
  } catch (err) {
    return refuse(
      'Malformed',
      `the MIME structure cannot be read: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const [from] = addresses(mail.from);
  if (!from) return refuse('MissingField', 'the message has no From address');
  if (mail.attachments.length > limits.maxAttachments)
    return refuse(
      'TooManyAttachments',
      `the message has ${mail.attachments.length} attachments, the limit is ${limits.maxAttachments}`,
    );
  const attachments: EmailAttachment[] = [];
  for (const [i, a] of mail.attachments.entries()) {
    const filename = a.filename ?? `attachment-${i + 1}`;
    if (a.content.byteLength > limits.maxAttachmentBytes)
      return refuse(
        'AttachmentTooLarge',
        `attachment "${filename}" is ${a.content.byteLength} bytes, the limit is ${limits.maxAttachmentBytes}`,
      );
    const contentType = normalType(a.contentType);
    attachments.push({
      filename,
      contentType,
      size: a.content.byteLength,
      sha256: createHash('sha256').update(a.content).digest('hex'),
      isDocument: isDocumentType(contentType),
      bytes: new Uint8Array(a.content),
    });
  }
  const html = typeof mail.html === 'string' ? mail.html : null;
  const htmlText = html === null ? null : htmlToPages(html).join('\n\n').trim();
  const date = mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : null;
  const email: InboundEmail = {
    messageId: mail.messageId ? mail.messageId.replace(/^<|>$/g, '') : null,
    sha256: createHash('sha256').update(buf).digest('hex'),
    from,
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: mail.subject ?? '',
    date,
    text: (mail.text ?? '').trim() || htmlText || '',
    html,
    htmlText,
    attachments,
  };
  return { ok: true, email: InboundEmailSchema.parse(email) };
}

/** The email without attachment bytes: what an event payload and an API answer carry. */
export function emailMetadata(
  email: InboundEmail,
): Omit<InboundEmail, 'attachments'> & { attachments: EmailAttachmentMeta[] } {
  return {
    ...email,
    attachments: email.attachments.map(({ bytes: _bytes, ...meta }) => meta),
  };
}
