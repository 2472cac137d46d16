import { z } from 'zod';

/**
 * A structured e-invoice (UN/CEFACT CII — ZUGFeRD 1.x, ZUGFeRD 2.x / Factur-X, XRechnung CII —
 * or OASIS UBL 2.1 Invoice / CreditNote — PEPPOL BIS 3.0, XRechnung UBL) read into the
 * EN 16931 semantic model. Amounts are the XML's own decimal text, exact (never a float);
 * business terms are named by their EN 16931 ids (BT-n) where one exists.
 */
const Decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const EInvoiceSyntaxSchema = z.enum([
  'cii',
  'cii-zugferd1',
  'ubl-invoice',
  'ubl-creditnote',
]);
export type EInvoiceSyntax = z.infer<typeof EInvoiceSyntaxSchema>;

export const PartySchema = z.object({
  name: z.string().nullable(),
  /** BT-31 / BT-48: VAT identifiers (schemeID VA); BT-32 other tax ids (FC). */
  vatIds: z.array(z.string()),
  taxIds: z.array(z.string()),
  /** BT-30 legal registration id. */
  legalId: z.string().nullable(),
  address: z.object({
    lines: z.array(z.string()),
    city: z.string().nullable(),
    postcode: z.string().nullable(),
    country: z.string().nullable(),
  }),
  emails: z.array(z.string()),
});
export type Party = z.infer<typeof PartySchema>;

export const VatBreakdownSchema = z.object({
  /** BT-118 VAT category code (S, Z, E, AE, K, G, O, L, M). */
  category: z.string(),
  /** BT-119, percent; null for categories without a rate (O). */
  ratePercent: Decimal.nullable(),
  /** BT-116 taxable amount, BT-117 tax amount. */
  taxable: Decimal,
  tax: Decimal,
  exemptionReason: z.string().nullable(),
});
export type VatBreakdown = z.infer<typeof VatBreakdownSchema>;

export const InvoiceLineSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  quantity: Decimal.nullable(),
  /** BT-131 line net amount. */
  net: Decimal,
  vatCategory: z.string().nullable(),
  vatRatePercent: Decimal.nullable(),
});

export const StructuredInvoiceSchema = z.object({
  syntax: EInvoiceSyntaxSchema,
  /** BT-24 specification identifier (the profile: Factur-X MINIMUM … EXTENDED, XRechnung …). */
  specification: z.string().nullable(),
  /** The profile family read from BT-24. */
  profile: z.enum([
    'minimum',
    'basic-wl',
    'basic',
    'en16931',
    'extended',
    'xrechnung',
    'peppol',
    'zugferd1',
    'other',
  ]),
  invoiceNumber: z.string().nullable(),
  /** BT-3, UNTDID 1001 (380 invoice, 381 credit note, 384 corrected, 389 self-billed, …). */
  typeCode: z.string().nullable(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  paymentTerms: z.string().nullable(),
  currency: z.string().nullable(),
  seller: PartySchema,
  buyer: PartySchema,
  /** BT-84 / BT-86: the payee's accounts. */
  payment: z.object({
    ibans: z.array(z.string()),
    bics: z.array(z.string()),
    reference: z.string().nullable(),
  }),
  lines: z.array(InvoiceLineSchema),
  vatBreakdown: z.array(VatBreakdownSchema),
  totals: z.object({
    lineNet: Decimal.nullable(), // BT-106
    allowances: Decimal.nullable(), // BT-107
    charges: Decimal.nullable(), // BT-108
    net: Decimal.nullable(), // BT-109
    tax: Decimal.nullable(), // BT-110 (in the invoice currency)
    gross: Decimal.nullable(), // BT-112
    prepaid: Decimal.nullable(), // BT-113
    rounding: Decimal.nullable(), // BT-114
    due: Decimal.nullable(), // BT-115
  }),
  references: z.object({
    order: z.string().nullable(), // BT-13
    contract: z.string().nullable(), // BT-12
    buyer: z.string().nullable(), // BT-10
    precedingInvoices: z.array(z.string()), // BT-25
  }),
});
export type StructuredInvoice = z.infer<typeof StructuredInvoiceSchema>;

/** UNTDID 1001 codes of credit notes (EN 16931's credit note code list). */
export const CREDIT_NOTE_TYPE_CODES = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);

/** One finding of the EN 16931 rules (or the syntax's own checks) on an invoice. */
export const RuleFindingSchema = z.object({
  id: z.string(),
  flag: z.enum(['fatal', 'warning', 'information']),
  text: z.string(),
  location: z.string().nullable(),
});
export type RuleFinding = z.infer<typeof RuleFindingSchema>;

/**
 * What the bill reader did with a structured invoice: where the XML came from, the official
 * rules' verdict, and whether the page a person sees shows the same invoice.
 */
export const StructuredReadingSchema = z.object({
  /** `attachment:<name>` of a PDF/A-3, or `document` for an uploaded XML. */
  origin: z.string(),
  invoice: StructuredInvoiceSchema,
  validation: z.object({
    /** `en16931-1.3.16`, `zugferd1-arithmetic`, or `unavailable` with the reason in `error`. */
    ruleset: z.string(),
    status: z.enum(['valid', 'invalid', 'unavailable']),
    fatal: z.array(RuleFindingSchema),
    warnings: z.array(RuleFindingSchema),
    /**
     * Fatal findings of rules the document does not claim: about parts its profile does not
     * carry (lines of a MINIMUM invoice), or EN 16931 itself for an invoice without BT-24.
     */
    outOfProfile: z.array(RuleFindingSchema),
    error: z.string().nullable(),
    ms: z.number(),
  }),
  crossCheck: z.object({
    status: z.enum(['agrees', 'disagrees', 'not_applicable']),
    invoiceNumberOnPage: z.boolean().nullable(),
    grossOnPage: z.boolean().nullable(),
    detail: z.string(),
  }),
});
export type StructuredReading = z.infer<typeof StructuredReadingSchema>;
