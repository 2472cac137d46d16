import { amountsIn, isIsoCurrency } from '../amounts';
import { datesIn } from '../dates';
import type { LabelKind } from '../labels';
import { joinSpacedGroups } from './layout';

/** Words that may qualify a tax label before it in its cell ("zzgl. 19 % MwSt."). */
const BEFORE_TAX =
  /^(?:zzgl|zuzügl|zuzüglich|plus|inkl|incl|including|inclusive|enthaltene?|davon|hiervon|dont|darin|total|totale|totaal|summe|gesamt|montant|importe|importo|bedrag|betrag|amount|cuota|imposta|the)$/iu;
/** Words that may follow a total label before its figure ("Gesamtbetrag inkl. MwSt."). */
const AFTER_TOTAL =
  /^(?:inkl|incl|inklusive|including|inclusive|incluido|incluida|incluso|inclusa|inclusief|compris|comprise|ttc|brutto|gross|vat|tax|taxes|tasse|mwst|ust|tva|btw|iva|und|and|all|alle|toutes|tutte|todos|for|this|invoice|der|des|van|del|della|de|la|le|el|il|het|die|the)$/iu;

/**
 * Whether a money label on a line is the label of a figure, not a word inside a description:
 * a tax label preceded in its cell by other words ("Road tax", "Bemessungsgrundlage und
 * Umsatzsteuer") names an item; a total label followed by unknown words before its figure
 * ("Total líneas", "Total amount excluding VAT") is a different total.
 */
export function trustedMoneyLabel(
  t: string,
  h: { kind: LabelKind; index: number; end: number },
  prior: { kind: LabelKind; end: number }[] = [],
): boolean {
  if (h.kind !== 'tax' && h.kind !== 'gross' && h.kind !== 'due') return true;
  const gap = t.lastIndexOf('  ', h.index);
  const cellStart = gap < 0 ? 0 : gap + 2;
  if (h.kind === 'tax') {
    const before = t.slice(cellStart, h.index).match(/\p{L}{3,}/gu) ?? [];
    // "Gesamtbetrag   (inkl. 19% MwSt.)   119,00 €": the tax included in a total printed
    // just before is part of that total's label, not a tax figure of its own.
    const total = prior.filter((p) => p.kind === 'gross' || p.kind === 'due').pop();
    if (
      total &&
      amountsIn(t.slice(total.end, h.index)).length === 0 &&
      /(?:inkl|incl|including|inclusive|inklusive|incluida|incluso|inclusief|dont|davon|TTC)\.?[\s\d.,%()]*$/iu.test(
        t.slice(total.end, h.index),
      )
    )
      return false;
    return before.every((w) => BEFORE_TAX.test(w));
  }
  const rest = t.slice(h.end);
  const first = amountsIn(joinSpacedGroups(rest))[0];
  let span = first ? rest.slice(0, first.index) : '';
  // "Total amount due on August 3, 2014": a date qualifies a total, it does not change it.
  for (const d of datesIn(span).reverse()) span = span.slice(0, d.index) + span.slice(d.end);
  return (span.match(/\p{L}{3,}/gu) ?? []).every((w) => AFTER_TOTAL.test(w) || isIsoCurrency(w));
}
