import { createHash } from 'node:crypto';
import type { BillExtraction } from '../../workflows/bills/extraction';
import type { StructuredReading } from '../../workflows/bills/structured-invoice';
import { DEFAULT_EXTRACTION_LIMITS } from '../documents/ingest';
import {
  extractAttachmentsIsolated,
  type ExtractionLimits,
} from '../documents/isolated-extraction';
import { ExtractionRefusal } from '../documents/page-extraction';
import { PdfTextError } from '../documents/pdf-text';
import { crossCheckVisibleText } from './einvoice/cross-check';
import { validateInvoice } from './einvoice/en16931-validation';
import { looksLikeInvoiceXml, readStructuredInvoice } from './einvoice/read-structured';
import { structuredToExtraction } from './einvoice/to-extraction';
import { decodeXml, EInvoiceRefusal, MAX_INVOICE_XML_BYTES } from './einvoice/xml';
import { extractBill } from './extract-bill';

/**
 * Reads one stored bill document. A structured e-invoice is read exactly — an uploaded XML,
 * or the XML a PDF/A-3 carries (Factur-X / ZUGFeRD / XRechnung) — validated with the official
 * EN 16931 rules and, for a PDF, checked against the page a person sees. A document without
 * one is read from its visible text. "Code for arithmetic, a model for reading": the XML
 * needs no reading at all.
 */
export interface BillDocument {
  mimeType: string;
  /** The stored file (null when only the pages are at hand). */
  bytes: Uint8Array | null;
  /** The text of each page, as ingestion stored it. */
  pages: readonly string[];
}

/** Attachment names e-invoice standards use; any other XML is read when its root is an invoice. */
const INVOICE_ATTACHMENT =
  /^(?:factur-x|zugferd-invoice|zugferd_invoice|xrechnung|order-x|invoice)\.xml$/i;

/**
 * Limits of reading a PDF's attachments (on a worker thread, like its pages at ingestion): a
 * PDF's embedded-file tree is as hostile an input as its pages, and an invoice XML is small.
 * The thread's memory matches ingestion's, so both share the pooled threads.
 */
export const ATTACHMENT_LIMITS: ExtractionLimits & { maxAttachmentBytes: number } = {
  timeLimitMs: 30_000,
  maxMemoryMb: DEFAULT_EXTRACTION_LIMITS.maxMemoryMb,
  maxAttachmentBytes: MAX_INVOICE_XML_BYTES,
};

export async function readBillDocument(
  doc: BillDocument,
  limits: typeof ATTACHMENT_LIMITS = ATTACHMENT_LIMITS,
): Promise<BillExtraction> {
  const text = () => ({ ...extractBill(doc.pages), source: 'text' as const });
  if (!doc.bytes) return text();
  if (isXml(doc.mimeType)) {
    return readXml(decodeXml(doc.bytes), 'document', null);
  }
  if (doc.mimeType !== 'application/pdf') return text();

  let attachments: { filename: string; content: Uint8Array }[];
  try {
    attachments = await extractAttachmentsIsolated(doc.bytes, limits);
  } catch (err) {
    // The page text was read at ingestion; a PDF whose attachments cannot be listed is read
    // from that text like any other.
    if (err instanceof PdfTextError) return text();
    // Past a limit the attachments are unknown: the XML that may be the invoice was not read,
    // so the page alone does not post it. A person looks.
    if (err instanceof ExtractionRefusal)
      return {
        ...text(),
        outcome: 'human_review',
        reasons: [`attachments (${err.errorType}): ${err.message}`],
      };
    throw err;
  }
  const xmls = new Map<string, { filename: string; xml: string }>();
  for (const a of attachments) {
    const content = decodeXml(a.content);
    const named = INVOICE_ATTACHMENT.test(a.filename.split(/[\\/]/).pop() ?? '');
    if (!named && !(/\.xml$/i.test(a.filename) || content.trimStart().startsWith('<'))) continue;
    if (!named && !looksLikeInvoiceXml(content.slice(0, 4096))) continue;
    xmls.set(createHash('sha256').update(a.content).digest('hex'), {
      filename: a.filename,
      xml: content,
    });
  }
  if (xmls.size === 0) return text();
  if (xmls.size > 1) {
    const names = [...xmls.values()].map((x) => x.filename).join(', ');
    return {
      ...text(),
      outcome: 'human_review',
      reasons: [
        `attachments: the PDF carries ${xmls.size} different invoice XMLs (${names}); which one is the invoice is for a person to say`,
      ],
    };
  }
  const [only] = [...xmls.values()];
  return readXml(only!.xml, `attachment:${only!.filename}`, doc.pages);
}

function readXml(xml: string, origin: string, pages: readonly string[] | null): BillExtraction {
  let invoice;
  try {
    invoice = readStructuredInvoice(xml);
  } catch (err) {
    if (!(err instanceof EInvoiceRefusal)) throw err;
    return refusal(`${origin === 'document' ? 'the XML' : origin}: ${err.message}`, err.code);
  }
  const reading: StructuredReading = {
    origin,
    invoice,
    validation: validateInvoice(invoice, xml),
    crossCheck: pages
      ? crossCheckVisibleText(invoice, pages)
      : {
          status: 'not_applicable',
          invoiceNumberOnPage: null,
          grossOnPage: null,
          detail: 'an XML document: there is no page to compare',
        },
  };
  return structuredToExtraction(reading);
}

/** A structured invoice that cannot be read: a person looks; nothing is guessed from it. */
function refusal(reason: string, code: EInvoiceRefusal['code']): BillExtraction {
  return {
    outcome: 'human_review',
    reasons: [`e-invoice (${code}): ${reason}`],
    issuer: null,
    invoiceNumber: null,
    issueDate: null,
    dueDate: null,
    currency: null,
    amount: null,
    amountUntaxed: null,
    amountTax: null,
    minor: null,
    taxRatePercent: null,
    lines: [],
    linesBasis: null,
    checks: [],
    candidates: { invoiceNumber: [], gross: [], issueDate: [], currency: [] },
    contacts: { emails: [], taxIds: [] },
    language: null,
    source: 'xml',
  };
}

export const isXml = (mimeType: string) =>
  mimeType === 'application/xml' || mimeType === 'text/xml';
