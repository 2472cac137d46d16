import { z } from 'zod';
import { StructuredReadingSchema } from './structured-invoice';

/**
 * What reading a supplier bill produced: the fields, the independent checks and their
 * verdicts, and the outcome. `ready` only when every check that can run agrees and nothing
 * required is missing; anything else is `human_review` with the reasons — never a guess.
 * Money is a decimal string in the bill's currency (and integer minor units for posting).
 */
const Decimal = z.string().regex(/^-?\d+\.\d{2}$/);
const Minor = z.string().regex(/^-?\d+$/);

export const BillCheckSchema = z.object({
  name: z.enum([
    'gross_labelled',
    'net_plus_tax_equals_gross',
    'tax_matches_rate',
    'lines_sum',
    'invoice_number_unique',
    'issue_date_parsed',
    'currency_known',
    'issuer_found',
    'gross_confirmed',
    // Structured e-invoices: the official rules, the page against the XML, the document type.
    'rules_valid',
    'visible_text_agrees',
    'document_type_postable',
  ]),
  status: z.enum(['pass', 'fail', 'not_applicable']),
  detail: z.string(),
});
export type BillCheck = z.infer<typeof BillCheckSchema>;

export const BillExtractionSchema = z.object({
  outcome: z.enum(['ready', 'human_review']),
  /** Why a person must look (empty when ready). */
  reasons: z.array(z.string()),
  issuer: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  issueDate: z.string().nullable(),
  dueDate: z.string().nullable(),
  currency: z.string().nullable(),
  /** Gross, net and tax as printed (decimal strings, two places). */
  amount: Decimal.nullable(),
  amountUntaxed: Decimal.nullable(),
  amountTax: Decimal.nullable(),
  /** The same in the currency's minor units (null when the currency is unknown). */
  minor: z.object({ gross: Minor, net: Minor.nullable(), tax: Minor.nullable() }).nullable(),
  taxRatePercent: z.string().nullable(),
  lines: z.array(z.object({ description: z.string(), amount: Decimal })),
  /** Whether the lines add up to the net (tax exclusive) or the gross (tax inclusive). */
  linesBasis: z.enum(['net', 'gross']).nullable(),
  checks: z.array(BillCheckSchema),
  candidates: z.object({
    invoiceNumber: z.array(z.string()),
    gross: z.array(Decimal),
    issueDate: z.array(z.string()),
    currency: z.array(z.string()),
  }),
  /** Evidence for master data: contact data printed on the bill. */
  contacts: z.object({ emails: z.array(z.string()), taxIds: z.array(z.string()) }),
  language: z.string().nullable(),
  /**
   * What the document asks of the books: a bill to pay, or a vendor credit (a credit note, or
   * an invoice correcting an earlier one with a negative total) that reverses one. Absent on
   * readings recorded before credits were posted: a bill.
   */
  documentKind: z.enum(['bill', 'credit']).optional(),
  /** Where the fields came from: a structured e-invoice (`xml`) or the visible text. */
  source: z.enum(['xml', 'text']).optional(),
  /** For `xml`: the invoice as the XML states it, the rules' verdict and the cross-check. */
  structured: StructuredReadingSchema.optional(),
});
export type BillExtraction = z.infer<typeof BillExtractionSchema>;
