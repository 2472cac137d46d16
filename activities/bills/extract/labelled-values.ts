import { amountsIn, isIsoCurrency } from '../amounts';
import { datesIn, type DateMatch, type DateOrder } from '../dates';
import { labelsIn, type LabelHit, type LabelKind } from '../labels';
import { cellBelow, joinSpacedGroups, type Line } from './layout';
import { trustedMoneyLabel } from './money-label';

/** An amount printed under a money label. */
export interface MoneyHit {
  cents: bigint;
  label: string;
  rate?: number; // percent
  base?: bigint;
}

/** An invoice number printed under a number label (strong) or after the document's title. */
export interface NumberHit {
  value: string;
  strong: boolean;
  spaced: boolean;
}

/** A date printed under a date label, or after the invoice number ("Facture F12 du 3/4/21"). */
export interface DateHit {
  kind: LabelKind | 'number_dated';
  d: DateMatch;
}

/** Everything the bill prints under a label, and what its lines say beside the labels. */
export interface LabelledValues {
  gross: MoneyHit[];
  due: MoneyHit[];
  net: MoneyHit[];
  tax: MoneyHit[];
  numbers: NumberHit[];
  dateHits: DateHit[];
  /** Dates whose day and month can only be read one way, proving the bill's order. */
  proofs: { sep: string; order: DateOrder }[];
  /** Currencies printed with a figure, or as an ISO code beside a money label. */
  currencies: Set<string>;
}

const isMoney = (kind: LabelKind) =>
  kind === 'gross' || kind === 'due' || kind === 'net' || kind === 'tax';

/** Every trusted label on every line, with the value it labels. */
export function readLabelledValues(lines: readonly Line[]): LabelledValues {
  const out: LabelledValues = {
    gross: [],
    due: [],
    net: [],
    tax: [],
    numbers: [],
    dateHits: [],
    proofs: [],
    currencies: new Set<string>(),
  };
  lines.forEach((line, li) => {
    const t = line.text;
    for (const a of amountsIn(t)) if (a.currency) out.currencies.add(a.currency);
    for (const d of datesIn(t)) if (d.proves) out.proofs.push(d.proves);
    const hits = labelsIn(t).filter((h, k, all) => trustedMoneyLabel(t, h, all.slice(0, k)));
    hits.forEach((h, i) => {
      const segEnd = hits[i + 1]?.index ?? t.length;
      const seg = t.slice(h.end, segEnd);
      if (isMoney(h.kind)) readMoneyHit(t, hits, i, seg, out);
      else if (h.kind === 'number' || h.kind === 'doctype') readNumberHit(lines, li, h, out);
      else if (
        h.kind === 'issue_date' ||
        h.kind === 'due_date' ||
        h.kind === 'generic_date' ||
        h.kind === 'other_date'
      )
        readDateHit(lines, li, h, seg, out);
    });
  });
  return out;
}

/**
 * The amount after a money label (its last figure before the next label): a gross or due
 * label over a row "net tax gross" also gives that net and tax; a tax label keeps its rate.
 */
function readMoneyHit(
  t: string,
  hits: LabelHit[],
  i: number,
  seg: string,
  out: LabelledValues,
): void {
  const h = hits[i]!;
  const amounts = amountsIn(joinSpacedGroups(seg));
  if (/[A-Z]{3}/.test(seg))
    for (const w of seg.match(/\b[A-Z]{3}\b/g) ?? []) if (isIsoCurrency(w)) out.currencies.add(w);
  if (amounts.length === 0) return;
  const last = amounts[amounts.length - 1]!.cents;
  const label = h.text.toLowerCase().replace(/\s+/g, ' ');
  if ((h.kind === 'gross' || h.kind === 'due') && amounts.length >= 3) {
    for (let k = 0; k + 2 < amounts.length; k++) {
      const [a, b, c] = [amounts[k]!.cents, amounts[k + 1]!.cents, amounts[k + 2]!.cents];
      if (a + b === c && c > 0n) {
        out.net.push({ cents: a, label: `${label} (row)` });
        out.tax.push({ cents: b, label: `${label} (row)` });
      }
    }
  }
  if (h.kind === 'tax') {
    // The rate may stand before the label ("zzgl. 20 % MwSt.", "zzgl.   25%   MwSt."),
    // after the previous label on the line if any.
    const pre = t.slice(hits[i - 1]?.end ?? 0, h.index);
    const rate =
      /(\d{1,2}(?:[.,]\d{1,3})?)\s?%/.exec(`${h.text} ${seg}`) ??
      [...pre.matchAll(/(\d{1,2}(?:[.,]\d{1,3})?)\s?%/g)].pop() ??
      null;
    out.tax.push({
      cents: last,
      label,
      rate: rate ? Number(rate[1]!.replace(',', '.')) : undefined,
      base: amounts.length === 2 ? amounts[0]!.cents : undefined,
    });
  } else
    (h.kind === 'gross' ? out.gross : h.kind === 'due' ? out.due : out.net).push({
      cents: last,
      label,
    });
}

/**
 * The invoice number after its label, or in the cell under it, or on the next line after a
 * bare document title ("INVOICE" then "# 1042"); a date right after it dates the invoice.
 */
function readNumberHit(lines: readonly Line[], li: number, h: LabelHit, out: LabelledValues): void {
  const t = lines[li]!.text;
  let r = readNumber(t.slice(h.end));
  if (!r && h.kind === 'number' && t.slice(h.end).trim().replace(/[:#]/g, '') === '') {
    const nextLine = lines[li + 1];
    if (nextLine && !nextLine.synthetic) {
      const under = cellBelow(t, h.index, nextLine.text);
      if (under && labelsIn(under).length === 0) r = readNumber(under);
    }
  }
  if (!r && h.kind === 'doctype' && t.slice(h.end).trim() === '') {
    const nextLine = lines[li + 1];
    if (nextLine && /^\s*#/.test(nextLine.text)) r = readNumber(nextLine.text);
  }
  if (!r) return;
  out.numbers.push({ value: r.value, strong: h.kind === 'number', spaced: r.spaced });
  const dated = /^\s*(?:du|vom|van|of|dated|from|z\s+dnia|del)\s+(.*)$/iu.exec(r.after);
  if (dated) {
    const d = datesIn(dated[1]!)[0];
    if (d && d.index === 0) out.dateHits.push({ kind: 'number_dated', d });
  }
}

/** The number a label's remaining text starts with, up to a column gap or a following word. */
function readNumber(rest: string): { value: string; spaced: boolean; after: string } | null {
  // "N° de facture ASSOCIÉE : F…", "Rechnungsnummer ORIGINAL: …": a word between the label
  // and its colon makes it another document's number.
  if (/^\s*\p{L}{3,}\s*:/u.test(rest)) return null;
  const m = /^[\s:#.°º-]*(?:#\s*)?([^\s].*?)(?=\s{2,}|\t|$)/u.exec(rest);
  if (!m) return null;
  const words = m[1]!.split(' ');
  const kept: string[] = [];
  for (const w of words) {
    if (/^(?:du|vom|van|of|dated|from|z|del|dal|de|le|-|–|\/|page|seite|pagina|strona)$/i.test(w))
      break;
    if (kept.length > 0 && (labelsIn(w).length > 0 || /^\p{Ll}{2,}[.,;:]?$/u.test(w))) break;
    kept.push(w.replace(/[,;]$/, ''));
  }
  const value = kept.join(' ').replace(/^#\s*/, '');
  if (!/\d/.test(value) || value.length < 2 || value.length > 40) return null;
  if (datesIn(value).length > 0 || /%$/.test(value) || amountsIn(value).some((a) => a.currency))
    return null;
  return {
    value,
    spaced: kept.length > 1,
    after: rest.slice(rest.indexOf(m[1]!) + kept.join(' ').length),
  };
}

/** The date after a date label, or printed under it in the same column. */
function readDateHit(
  lines: readonly Line[],
  li: number,
  h: LabelHit,
  seg: string,
  out: LabelledValues,
): void {
  const line = lines[li]!;
  const t = line.text;
  const d = datesIn(seg)[0];
  if (d && /^[\s:.\-–]*$/.test(seg.slice(0, d.index))) out.dateHits.push({ kind: h.kind, d });
  else if (!d && /^[\s:.]*$/.test(seg) && !line.synthetic) {
    // The date printed under its label, in the same column.
    const nextLine = lines[li + 1];
    const under = nextLine && !nextLine.synthetic ? cellBelow(t, h.index, nextLine.text) : null;
    // The date may run over cells the layout split ("21   juin   2016").
    const from = under ? nextLine!.text.indexOf(under) : -1;
    const rest = from >= 0 ? nextLine!.text.slice(from) : '';
    const dn = under && labelsIn(under).length === 0 ? datesIn(rest)[0] : undefined;
    if (dn && dn.index === 0 && /^(?:\s{2,}|$)/.test(rest.slice(dn.end)))
      out.dateHits.push({ kind: h.kind, d: dn });
  }
}
