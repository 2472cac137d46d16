import { amountsIn } from '../amounts';
import type { MoneyHit } from './labelled-values';
import { cells, type Line } from './layout';

/** Column heads of a VAT breakdown table: the base, the tax. */
const VAT_BASE_HEAD =
  /(?<![\p{L}])(?:base|basis|bemessungsgrundlage|grundlage|netto(?:betrag)?|net(?:\s+amount)?|nettobetrag|taxable(?:\s+amount)?|ht|imponibile|grondslag|base\s+imponible|importe\s+neto|montant\s+ht|total\s+ht)(?![\p{L}])/iu;
const VAT_TAX_HEAD =
  /(?<![\p{L}])(?:montant\s+(?:de\s+la\s+)?tva|tva|mwst\.?(?:-?betrag)?|ust\.?(?:-?betrag)?|steuerbetrag|steuer|vat(?:\s+amount)?|tax(?:\s+amount)?|btw(?:-?bedrag)?|iva|cuota|imposta|importo\s+iva)(?![\p{L}])/iu;

/** The net and tax a VAT breakdown table adds up to, beside the labelled ones. */
export interface VatTableTotals {
  net: MoneyHit[];
  tax: MoneyHit[];
}

/**
 * VAT breakdown tables. A head row naming a base column and a tax column ("Taux  Base
 * TVA  Montant TVA", "MwSt.-Satz  Nettobetrag  MwSt.-Betrag"), then one row per rate: a rate,
 * its base, its tax. Used only when every row's tax is its rate of its base: the bases then
 * add up to a net and the taxes to a tax, to be matched against a labelled total like any
 * other.
 */
export function readVatTables(lines: readonly Line[]): VatTableTotals {
  const net: MoneyHit[] = [];
  const tax: MoneyHit[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.synthetic || amountsIn(line.text).length > 0) continue;
    const roles = cells(line.text).map((c) =>
      VAT_BASE_HEAD.test(c) ? 'base' : VAT_TAX_HEAD.test(c) ? 'tax' : 'other',
    );
    const b = roles.indexOf('base');
    // The tax column: the first after the base column, else the last before it.
    const x =
      roles.indexOf('tax', b + 1) >= 0 ? roles.indexOf('tax', b + 1) : roles.lastIndexOf('tax');
    if (
      b < 0 ||
      x < 0 ||
      !roles.some((_, k) =>
        /%|satz|taux|rate|tarif|aliquota|tasa|tarief/i.test(cells(line.text)[k]!),
      )
    )
      continue;
    const rows: { base: bigint; tax: bigint }[] = [];
    let consistent = true;
    for (let k = i + 1; k < lines.length; k++) {
      const t = lines[k]!.text;
      if (lines[k]!.synthetic) continue;
      const rate = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s?%/.exec(t);
      const amounts = amountsIn(t.replace(/(?<![\d.,])\d{1,2}(?:[.,]\d{1,3})?\s?%/g, ' '));
      if (!rate || amounts.length < 2 || amounts.length > 3) break;
      const [first, second] = [amounts[0]!.cents, amounts[1]!.cents];
      const [base, tx] = b < x ? [first, second] : [second, first];
      const expected =
        (base * BigInt(Math.round(Number(rate[1]!.replace(',', '.')) * 1000)) + 50000n) / 100000n;
      if ((expected > tx ? expected - tx : tx - expected) > 1n) consistent = false;
      rows.push({ base, tax: tx });
    }
    if (rows.length > 0 && consistent) {
      net.push({ cents: rows.reduce((a, r) => a + r.base, 0n), label: 'vat table bases' });
      tax.push({ cents: rows.reduce((a, r) => a + r.tax, 0n), label: 'vat table taxes' });
    }
  }
  return { net, tax };
}
