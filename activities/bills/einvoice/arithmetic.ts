import type { RuleFinding, StructuredInvoice } from '../../../workflows/bills/structured-invoice';

// A structured invoice's own arithmetic, exact: what decides for syntaxes and profiles the
// official EN 16931 rules cannot fully check (ZUGFeRD 1.x, MINIMUM / BASIC WL, an invoice that
// claims no EN 16931).

/** Hundredths (or finer) as a bigint at a fixed scale, for exact sums. */
const SCALE = 4;
export function scaled(v: string | null): bigint | null {
  if (v === null) return null;
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(v);
  if (!m || (m[3] ?? '').length > SCALE) return null;
  const n = BigInt(m[2]! + (m[3] ?? '').padEnd(SCALE, '0'));
  return m[1] ? -n : n;
}

/**
 * The totals' own arithmetic (EN 16931's BR-CO-10…16 in substance), for syntaxes and profiles
 * the official rules cannot fully check: Σ lines = line total (when lines exist), line total −
 * allowances + charges = net, Σ breakdown taxable = net, Σ breakdown tax = tax, net + tax =
 * gross, gross − prepaid + rounding = due.
 */
export function arithmeticFindings(inv: StructuredInvoice): RuleFinding[] {
  const t = inv.totals;
  const out: RuleFinding[] = [];
  const add = (id: string, text: string) => out.push({ id, flag: 'fatal', text, location: null });
  const lineNet = scaled(t.lineNet);
  const allow = scaled(t.allowances);
  const charge = scaled(t.charges);
  const net = scaled(t.net);
  const tax = scaled(t.tax);
  const gross = scaled(t.gross);
  const prepaid = scaled(t.prepaid);
  const rounding = scaled(t.rounding);
  const due = scaled(t.due);
  if (gross === null) add('CS-TOTAL-GROSS', 'The invoice total with VAT (BT-112) is missing');
  if (net === null) add('CS-TOTAL-NET', 'The invoice total without VAT (BT-109) is missing');
  if (inv.lines.length > 0 && lineNet !== null) {
    const sum = inv.lines.reduce((a, l) => a + (scaled(l.net) ?? 0n), 0n);
    if (sum !== lineNet)
      add('CS-LINES', `The lines add up to ${fmt(sum)}, the line total (BT-106) is ${t.lineNet}`);
  }
  if (lineNet !== null && net !== null && lineNet - (allow ?? 0n) + (charge ?? 0n) !== net)
    add(
      'CS-NET',
      `Line total ${t.lineNet} − allowances ${t.allowances ?? 0} + charges ${t.charges ?? 0} ≠ net ${t.net}`,
    );
  if (inv.vatBreakdown.length > 0) {
    const taxable = inv.vatBreakdown.reduce((a, v) => a + (scaled(v.taxable) ?? 0n), 0n);
    const vat = inv.vatBreakdown.reduce((a, v) => a + (scaled(v.tax) ?? 0n), 0n);
    if (net !== null && taxable !== net)
      add(
        'CS-VAT-BASE',
        `The VAT breakdown's taxable amounts add up to ${fmt(taxable)}, the net is ${t.net}`,
      );
    if (tax !== null && vat !== tax)
      add(
        'CS-VAT-SUM',
        `The VAT breakdown's tax amounts add up to ${fmt(vat)}, the tax total is ${t.tax}`,
      );
  } else add('CS-VAT-BREAKDOWN', 'The invoice has no VAT breakdown (BG-23)');
  if (net !== null && gross !== null && net + (tax ?? 0n) !== gross)
    add('CS-GROSS', `Net ${t.net} + tax ${t.tax ?? 0} ≠ gross ${t.gross}`);
  if (gross !== null && due !== null && gross - (prepaid ?? 0n) + (rounding ?? 0n) !== due)
    add(
      'CS-DUE',
      `Gross ${t.gross} − prepaid ${t.prepaid ?? 0} + rounding ${t.rounding ?? 0} ≠ amount due ${t.due}`,
    );
  return out;
}
const fmt = (v: bigint) => {
  const neg = v < 0n;
  const a = (neg ? -v : v).toString().padStart(SCALE + 1, '0');
  return `${neg ? '-' : ''}${a.slice(0, -SCALE)}.${a.slice(-SCALE)}`.replace(/\.?0+$/, '');
};
