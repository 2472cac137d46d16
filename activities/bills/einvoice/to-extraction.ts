import type { BillCheck, BillExtraction } from '../../../workflows/bills/extraction';
import {
  CREDIT_NOTE_TYPE_CODES,
  type StructuredReading,
} from '../../../workflows/bills/structured-invoice';
import { centsToDecimal, centsToMinor, isIsoCurrency } from '../amounts';
import { toCents } from './cross-check';

/** Invoice type codes (UNTDID 1001) the processor posts as a bill: invoices, corrected, self-billed, debit notes, prepayment invoices. */
const POSTABLE_TYPE_CODES = new Set([
  '380',
  '383',
  '384',
  '386',
  '389',
  '751',
  '326',
  '875',
  '876',
  '877',
]);

/**
 * A structured reading into the bill model the processor posts. `ready` only when the rules
 * found nothing fatal, the page agrees with the XML (for a PDF), the document is a bill or a
 * vendor credit (`documentKind`: documentKindOf), and every field a posting needs is there; every other case goes to a
 * person with the reasons, rule ids included.
 */
export function structuredToExtraction(reading: StructuredReading): BillExtraction {
  const inv = reading.invoice;
  const reasons: string[] = [];
  const checks: BillCheck[] = [];
  const check = (name: BillCheck['name'], ok: boolean | null, detail: string) => {
    checks.push({ name, status: ok === null ? 'not_applicable' : ok ? 'pass' : 'fail', detail });
    if (ok === false) reasons.push(`${name}: ${detail}`);
  };

  const v = reading.validation;
  if (v.status === 'unavailable') {
    check('rules_valid', false, `the ${v.ruleset} rules could not run: ${v.error ?? 'unknown'}`);
  } else {
    check(
      'rules_valid',
      v.status === 'valid',
      v.status === 'valid'
        ? `${v.ruleset}: no fatal finding${v.warnings.length ? `, ${v.warnings.length} warning(s) recorded` : ''}${v.outOfProfile.length ? `, ${v.outOfProfile.length} line rule(s) outside the ${inv.profile} profile` : ''}`
        : `${v.ruleset}: ${v.fatal
            .slice(0, 8)
            .map((f) => `[${f.id}] ${f.text}`)
            .join('; ')}${v.fatal.length > 8 ? ` (+${v.fatal.length - 8} more)` : ''}`,
    );
  }
  check(
    'visible_text_agrees',
    reading.crossCheck.status === 'not_applicable' ? null : reading.crossCheck.status === 'agrees',
    reading.crossCheck.detail,
  );
  const type = inv.typeCode ?? '';
  const credit = CREDIT_NOTE_TYPE_CODES.has(type);
  // A missing or unreadable gross fails its own checks below; the type alone decides the kind.
  const grossCents = toCents(inv.totals.gross);
  const grossSign = grossCents === null ? 1 : Math.sign(Number(grossCents));
  const kind = documentKindOf(type, credit, grossSign);
  check('document_type_postable', kind.ok, kind.detail);
  const currency = inv.currency;
  const currencyOk = currency !== null && isIsoCurrency(currency);
  check('currency_known', currencyOk, currencyOk ? currency! : `currency ${currency ?? '(none)'}`);
  check('issuer_found', !!inv.seller.name, inv.seller.name ?? 'no seller name (BT-27)');
  check(
    'invoice_number_unique',
    !!inv.invoiceNumber,
    inv.invoiceNumber ?? 'no invoice number (BT-1)',
  );
  check('issue_date_parsed', !!inv.issueDate, inv.issueDate ?? 'no issue date (BT-2)');

  const gross = toCents(inv.totals.gross);
  const net = toCents(inv.totals.net);
  const tax = toCents(inv.totals.tax ?? '0');
  const sumOk = gross !== null && net !== null && tax !== null && net + tax === gross;
  check(
    'net_plus_tax_equals_gross',
    sumOk,
    `${inv.totals.net ?? '?'} + ${inv.totals.tax ?? '0'} = ${inv.totals.gross ?? '?'}`,
  );

  const minor = (c: bigint | null) =>
    c === null || !currencyOk ? null : centsToMinor(c, currency!);
  const grossMinor = minor(gross);
  if (currencyOk && gross !== null && grossMinor === null)
    check('currency_known', false, `${inv.totals.gross} has more decimals than ${currency} allows`);
  const rates = [...new Set(inv.vatBreakdown.map((b) => b.ratePercent ?? '0'))];
  const dec = (c: bigint | null) => (c === null ? null : centsToDecimal(c));
  return {
    outcome: reasons.length === 0 ? 'ready' : 'human_review',
    reasons,
    issuer: inv.seller.name,
    invoiceNumber: inv.invoiceNumber,
    issueDate: inv.issueDate,
    dueDate: inv.dueDate,
    currency: currencyOk ? currency : null,
    amount: dec(gross),
    amountUntaxed: dec(net),
    amountTax: dec(tax),
    minor:
      grossMinor === null
        ? null
        : {
            gross: grossMinor.toString(),
            net: minor(net)?.toString() ?? null,
            tax: minor(tax)?.toString() ?? null,
          },
    taxRatePercent: rates.length === 1 ? rates[0]! : null,
    lines: inv.lines.flatMap((l) => {
      const c = toCents(l.net);
      return c === null ? [] : [{ description: l.name.slice(0, 500), amount: centsToDecimal(c) }];
    }),
    linesBasis: inv.lines.length ? 'net' : null,
    checks,
    candidates: {
      invoiceNumber: inv.invoiceNumber ? [inv.invoiceNumber] : [],
      gross: gross === null ? [] : [centsToDecimal(gross)],
      issueDate: inv.issueDate ? [inv.issueDate] : [],
      currency: currency ? [currency] : [],
    },
    contacts: {
      emails: inv.seller.emails,
      taxIds: [...inv.seller.vatIds, ...inv.seller.taxIds],
    },
    language: null,
    documentKind: kind.documentKind,
    source: 'xml',
    structured: reading,
  };
}

/**
 * What a document type and the sign of its gross ask of the books. A bill: an invoice type
 * with a positive total. A vendor credit: a credit note with a positive total, or an invoice
 * type with a negative one (a correction of an earlier invoice, as PEPPOL BIS and XRechnung
 * allow). A zero total moves nothing; a credit note with a negative total asks for money: both
 * go to a person.
 */
function documentKindOf(
  type: string,
  credit: boolean,
  grossSign: number,
): { ok: boolean; detail: string; documentKind: 'bill' | 'credit' } {
  const invoice = POSTABLE_TYPE_CODES.has(type);
  if (!credit && !invoice)
    return {
      ok: false,
      detail: `type ${type || '(none)'} is not an invoice type the processor posts`,
      documentKind: 'bill',
    };
  if (grossSign === 0)
    return {
      ok: false,
      detail: `type ${type} with a gross total of zero moves nothing: a person files it`,
      documentKind: credit ? 'credit' : 'bill',
    };
  if (credit && grossSign < 0)
    return {
      ok: false,
      detail: `type ${type} is a credit note with a negative total (it asks for money): a person posts it`,
      documentKind: 'credit',
    };
  if (credit)
    return {
      ok: true,
      detail: `type ${type} is a credit note: posted as a vendor credit`,
      documentKind: 'credit',
    };
  if (grossSign < 0)
    return {
      ok: true,
      detail: `type ${type} with a negative total corrects an earlier invoice: posted as a vendor credit`,
      documentKind: 'credit',
    };
  return { ok: true, detail: `type ${type}`, documentKind: 'bill' };
}
