import type { AgentContext } from '../../workflows/agent-runs/context';
import type { ToolOutput } from '../../workflows/agent-runs/tools';
import { companyKey, searchTerm } from '../../workflows/bills/company-name';
import { decimalToMinor } from '../../workflows/bills/minor-units';
import { BIC, IBAN } from '../../workflows/gateway/writes';
import type { BillOutcome, Extraction } from './outcome';

/**
 * One bill read and checked, up to the write that posts it: the bill_read tool, the vendor by
 * its name (master data read once per run and vendor), its AP context and open bills, and the
 * posting lines — from a structured invoice's VAT breakdown, or from the printed lines that add
 * up to the net. Every check that fails is an outcome for a person or master data, never a guess.
 */
/** An invoice number as compared for duplicates: no spaces, no leading #, upper case. */
export const billNumberKey = (n: string) => n.replace(/\s+/g, '').replace(/^#/, '').toUpperCase();

/** A bill that passed every check: the write that posts it. */
export interface ReadyBill {
  ready: true;
  base: Omit<BillOutcome, 'outcome' | 'reasons' | 'extraction'>;
  ex: Extraction;
  documentId: string;
  write: { kind: string; payload: Record<string, unknown> };
  vendorName: string;
}

/**
 * The run's reads of master data, each asked once: a batch of one vendor's bills searches the
 * vendor and reads its AP context once, not once per bill.
 */
export interface Lookups {
  vendors(query: string): Promise<ToolOutput<'master_data_search'>>;
  ap(vendorId: string): Promise<ToolOutput<'ap_context'>>;
}
export function lookupsFor(ctx: AgentContext): Lookups {
  const vendors = new Map<string, Promise<ToolOutput<'master_data_search'>>>();
  const ap = new Map<string, Promise<ToolOutput<'ap_context'>>>();
  const once = <T>(m: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => {
    const hit = m.get(key);
    if (hit) return hit;
    const p = read();
    m.set(key, p);
    return p;
  };
  return {
    vendors: (query) =>
      once(vendors, query, () =>
        ctx.tool('master_data_search', { entity: 'vendor', query, limit: 50 }),
      ),
    ap: (vendorId) => once(ap, vendorId, () => ctx.tool('ap_context', { vendorId })),
  };
}

/** Reads and checks one bill: an outcome for a person or master data, or the write to post. */
export async function prepareBill(
  ctx: AgentContext,
  documentId: string,
  vendorHint: string | undefined,
  taxDescription: string,
  lookups: Lookups,
): Promise<BillOutcome | ReadyBill> {
  const base = {
    documentId,
    vendorId: null,
    submissionId: null,
    delegation: null,
    requestId: null,
  };
  const ex = await ctx.tool('bill_read', { documentId });
  await ctx.log(`read ${documentId}: ${ex.outcome}`, {
    invoiceNumber: ex.invoiceNumber,
    amount: ex.amount,
    currency: ex.currency,
    reasons: ex.reasons,
  });
  // Nothing bill-like at all: not this agent's document. Triage finds its owner.
  if (ex.outcome !== 'ready' && !ex.invoiceNumber && !ex.amount)
    return { ...base, outcome: 'not_a_bill', reasons: ex.reasons, extraction: ex };
  if (
    ex.outcome !== 'ready' ||
    !ex.minor ||
    !ex.issuer ||
    !ex.invoiceNumber ||
    !ex.issueDate ||
    !ex.currency
  )
    return { ...base, outcome: 'human_review', reasons: ex.reasons, extraction: ex };

  // The vendor: an exact match of the name without legal form, or the one the resume names.
  let vendorId = vendorHint ?? null;
  if (!vendorId) {
    const found = await lookups.vendors(searchTerm(ex.issuer));
    const key = companyKey(ex.issuer);
    const same = found.rows.filter((r) => companyKey(r.label) === key);
    if (same.length > 1)
      return {
        ...base,
        outcome: 'human_review',
        reasons: [
          `vendor: ${same.length} vendors are named ${ex.issuer} (${same.map((r) => r.id).join(', ')})`,
        ],
        extraction: ex,
      };
    if (same.length === 0) {
      await ctx.log(`vendor ${ex.issuer} is unknown: handed to master data`);
      return {
        ...base,
        outcome: 'vendor_unknown',
        reasons: [`vendor: no vendor named ${ex.issuer}`],
        extraction: ex,
        delegation: {
          agentType: 'master_data',
          entity: 'vendor',
          name: ex.issuer,
          emails: ex.contacts.emails,
          taxIds: ex.contacts.taxIds,
          ...(payeeAccountOf(ex) ? { bankAccount: payeeAccountOf(ex) } : {}),
          sourceDocumentId: documentId,
        },
      };
    }
    vendorId = same[0]!.id;
  }

  const ap = await lookups.ap(vendorId);
  const ready = (write: ReadyBill['write']): ReadyBill => ({
    ready: true,
    base: { ...base, vendorId },
    ex,
    documentId,
    write,
    vendorName: ap.vendor.name,
  });
  // A credit note is numbered apart from the vendor's invoices: bill.credit refuses its own
  // duplicates (per vendor and credit-note number).
  const credit = ex.documentKind === 'credit';
  const dup = credit
    ? undefined
    : ap.openBills.find((b) => billNumberKey(b.billNumber) === billNumberKey(ex.invoiceNumber!));
  if (dup)
    return {
      ...base,
      vendorId,
      outcome: 'duplicate',
      reasons: [`duplicate: ${ap.vendor.name} already has bill ${dup.billNumber} (${dup.id})`],
      extraction: ex,
    };

  // Lines: the printed lines when they add up to the net, else one line for the net; the tax on
  // its own line to the input-tax account. Every amount is checked against the gross again.
  const gross = BigInt(ex.minor.gross);
  const tax = ex.minor.tax === null ? 0n : BigInt(ex.minor.tax);
  const net = ex.minor.net === null ? gross - tax : BigInt(ex.minor.net);
  const inputTax = ap.accounts.find((a) => a.systemRole === 'input_tax');
  if (credit && !ex.structured)
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: ['credit: only a structured credit note is posted as a vendor credit'],
      extraction: ex,
    };
  if (tax > 0n && !inputTax)
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: ['tax: the org has no input-tax account'],
      extraction: ex,
    };
  if (ex.structured) {
    // A structured e-invoice posts from its VAT breakdown: net per rate, input VAT per rate. A
    // correction with a negative total states the credit's amounts negated.
    const lines = structuredLines(
      ex,
      inputTax?.id ?? null,
      taxDescription,
      credit && gross < 0n ? -1n : 1n,
    );
    if ('error' in lines)
      return {
        ...base,
        vendorId,
        outcome: 'human_review',
        reasons: [`lines: ${lines.error}`],
        extraction: ex,
      };
    return ready(
      credit ? creditWrite(ex, vendorId, lines.lines) : billWrite(ex, vendorId, lines.lines),
    );
  }
  const printed =
    ex.linesBasis === 'net'
      ? ex.lines.map((l) => ({ description: l.description, minor: toMinor(l.amount) }))
      : [];
  const usable =
    printed.length > 0 &&
    printed.every((l) => l.minor !== null && l.minor >= 0n) &&
    printed.reduce((a, l) => a + (l.minor ?? 0n), 0n) === net &&
    ex.currency !== null &&
    minorIsCents(ex.minor.gross, ex.amount);
  const lines = (
    usable
      ? printed.filter((l) => l.minor! > 0n)
      : [{ description: `Bill ${ex.invoiceNumber} (net)`, minor: net }]
  ).map((l) => ({
    description: l.description.slice(0, 500) || 'line',
    amountMinor: l.minor!.toString(),
  }));
  if (tax > 0n)
    lines.push({
      description: `${taxDescription}${ex.taxRatePercent ? ` ${ex.taxRatePercent}%` : ''}`,
      amountMinor: tax.toString(),
      accountId: inputTax!.id,
    } as (typeof lines)[number]);
  const total = lines.reduce((a, l) => a + BigInt(l.amountMinor), 0n);
  if (total !== gross || lines.some((l) => BigInt(l.amountMinor) <= 0n))
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: [`lines: the posting would total ${total}, the bill ${gross}`],
      extraction: ex,
    };

  return ready(billWrite(ex, vendorId, lines));
}

export interface BillLine {
  description: string;
  amountMinor: string;
  accountId?: string;
}

/** A bill to pay: `bill.post`. */
function billWrite(ex: Extraction, vendorId: string, lines: BillLine[]) {
  return {
    kind: 'bill.post',
    payload: {
      vendorId,
      billNumber: ex.invoiceNumber,
      billDate: ex.issueDate,
      ...(ex.dueDate ? { dueDate: ex.dueDate } : {}),
      currency: ex.currency,
      // One IBAN stated by the XML: the gateway compares it with the vendor's stored one.
      ...(payeeIbanOf(ex) ? { payeeIban: payeeIbanOf(ex) } : {}),
      lines,
    },
  };
}

/**
 * A vendor credit: `bill.credit`, naming the invoice it corrects when the XML names exactly
 * one (BT-25); the gateway applies it against that bill when the vendor has it open.
 */
function creditWrite(ex: Extraction, vendorId: string, lines: BillLine[]) {
  const preceding = [...new Set(ex.structured?.invoice.references.precedingInvoices ?? [])];
  return {
    kind: 'bill.credit',
    payload: {
      vendorId,
      creditNumber: ex.invoiceNumber,
      creditDate: ex.issueDate,
      currency: ex.currency,
      ...(preceding.length === 1 ? { precedingBillNumber: preceding[0]!.slice(0, 100) } : {}),
      lines,
    },
  };
}

/**
 * The posting lines of a structured e-invoice, from its VAT breakdown (BG-23): one net line per
 * VAT category and rate to the vendor's expense account (the invoice lines named in it), and
 * one input-tax line per rate. A breakdown with a negative group (a document-level allowance
 * in its own category) posts its net as one line; the lines must add up to the gross exactly.
 */
export function structuredLines(
  ex: Extraction,
  inputTaxAccountId: string | null,
  taxDescription: string,
  /** -1n for a correction stated with a negative total: its amounts are the credit's, negated. */
  sign: 1n | -1n = 1n,
): { lines: BillLine[] } | { error: string } {
  const inv = ex.structured!.invoice;
  const currency = ex.currency!;
  const minor = (decimal: string) => {
    const m = decimalToMinor(decimal, currency);
    return m === null ? null : m * sign;
  };
  const gross = BigInt(ex.minor!.gross) * sign;
  const groups = inv.vatBreakdown.map((b) => ({
    ...b,
    taxableMinor: minor(b.taxable),
    taxMinor: minor(b.tax),
  }));
  if (groups.length === 0) return { error: 'the invoice has no VAT breakdown' };
  if (groups.some((g) => g.taxableMinor === null || g.taxMinor === null))
    return { error: `an amount of the VAT breakdown has more decimals than ${currency} allows` };
  if (groups.some((g) => g.taxMinor! < 0n))
    return { error: 'a VAT group has negative tax: a person posts it' };
  const label = (g: (typeof groups)[number]) =>
    `${g.category}${g.ratePercent !== null ? ` ${g.ratePercent}%` : ''}`;
  const namesOf = (g: (typeof groups)[number]) =>
    inv.lines
      .filter((l) => l.vatCategory === g.category && (l.vatRatePercent ?? null) === g.ratePercent)
      .map((l) => l.name)
      .filter(Boolean);
  const lines: BillLine[] = [];
  if (groups.every((g) => g.taxableMinor! >= 0n)) {
    for (const g of groups) {
      if (g.taxableMinor! === 0n) continue;
      const names = namesOf(g);
      lines.push({
        description:
          `${ex.invoiceNumber} net ${label(g)}${names.length ? `: ${names.join(', ')}` : ''}`.slice(
            0,
            500,
          ),
        amountMinor: g.taxableMinor!.toString(),
      });
    }
  } else {
    const net = groups.reduce((a, g) => a + g.taxableMinor!, 0n);
    if (net <= 0n) return { error: 'the net total is not positive' };
    lines.push({
      description:
        `${ex.invoiceNumber} net (${groups.map((g) => `${label(g)} ${g.taxable}`).join(', ')})`.slice(
          0,
          500,
        ),
      amountMinor: net.toString(),
    });
  }
  // Lines a breakdown left out (an invoice that does not claim EN 16931 may: the rules
  // checked the rest): the net beyond the breakdown, outside VAT.
  const netTotal = inv.totals.net === null ? null : minor(inv.totals.net);
  const covered = groups.reduce((a, g) => a + g.taxableMinor!, 0n);
  if (netTotal !== null && netTotal > covered)
    lines.push({
      description: `${ex.invoiceNumber} net outside the VAT breakdown`,
      amountMinor: (netTotal - covered).toString(),
    });
  for (const g of groups) {
    if (g.taxMinor! === 0n) continue;
    if (!inputTaxAccountId) return { error: 'the org has no input-tax account' };
    lines.push({
      description: `${taxDescription} ${label(g)}`,
      amountMinor: g.taxMinor!.toString(),
      accountId: inputTaxAccountId,
    });
  }
  const total = lines.reduce((a, l) => a + BigInt(l.amountMinor), 0n);
  if (lines.length === 0 || total !== gross)
    return {
      error: `the VAT breakdown posts ${total}, the invoice's gross is ${gross} (minor units)`,
    };
  return { lines };
}

/**
 * The payee account a structured invoice states, for a new vendor's master data: its one IBAN,
 * with its BIC when it names exactly one. Stored, it is what the vendor's next invoices are
 * compared with (a different IBAN fires the payee-change rule).
 */
const payeeAccountOf = (ex: Extraction) => {
  const iban = payeeIbanOf(ex);
  if (!iban || !ex.currency) return undefined;
  const bics = [...new Set(ex.structured?.invoice.payment.bics ?? [])].filter((b) => BIC.test(b));
  return { iban, ...(bics.length === 1 ? { bic: bics[0] } : {}), currency: ex.currency };
};

const payeeIbanOf = (ex: Extraction): string | undefined => {
  const ibans = [...new Set(ex.structured?.invoice.payment.ibans ?? [])].filter((i) =>
    IBAN.test(i),
  );
  return ibans.length === 1 ? ibans[0] : undefined;
};

/** "12.50" in hundredths; lines are printed with two decimals. */
function toMinor(decimal: string): bigint | null {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(decimal);
  if (!m) return null;
  const v = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] ? -v : v;
}
/** Whether the currency's minor units are hundredths (line amounts are read in hundredths). */
function minorIsCents(grossMinor: string, grossDecimal: string | null): boolean {
  return grossDecimal !== null && toMinor(grossDecimal) === BigInt(grossMinor);
}
