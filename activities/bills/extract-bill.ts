import {
  amountsIn,
  centsToDecimal,
  centsToMinor,
  currencyOfMarker,
  isIsoCurrency,
} from './amounts';
import { datesIn, resolveDate, type DateMatch, type DateOrder } from './dates';
import {
  BillExtractionSchema,
  type BillCheck,
  type BillExtraction,
} from '../../workflows/bills/extraction';
import {
  CURRENCY_CUES,
  CUSTOMER_MARKERS,
  NOT_A_BILL,
  INCLUDED_COMPONENT,
  LEGAL_FORM,
  SELLER_LABEL,
  TABLE_HEADER,
  labelsIn,
  type LabelKind,
} from './labels';

/**
 * Reads a supplier bill's text (one string per page) into its fields and runs the independent
 * checks: net + tax = gross to the cent, tax consistent with a stated rate, lines summing to
 * net or gross, the gross printed under a total label, one invoice number, a parseable issue
 * date, a known ISO currency, an issuer. Pure and deterministic.
 */

interface Line {
  page: number;
  text: string;
  /** Made from a header row and the row below it ("Factuur: VF100"), not printed as is. */
  synthetic: boolean;
}

interface MoneyHit {
  cents: bigint;
  label: string;
  rate?: number; // percent
  base?: bigint;
}

const cells = (line: string) =>
  line
    .split(/\s{2,}|\t/)
    .map((c) => c.trim())
    .filter(Boolean);
/**
 * Cells a layout split apart but that print one value or one label: a lone currency marker
 * joins the figure after it (or before it, when last), a lone rate ("19%", "(0%)") the label
 * before it.
 */
function mergeCells(cs: string[]): string[] {
  const out: string[] = [];
  const hasMarker = (c: string) => amountsIn(c).some((a) => a.currency !== null);
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    const prev = out[out.length - 1];
    const marker = /^\S{1,3}$/.test(c) && currencyOfMarker(c) !== null;
    // A date the layout split at its spaces ("27. Juni   2016"): the cells joined again.
    let dateCells = 0;
    for (const n of [3, 2]) {
      if (i + n > cs.length || datesIn(c).length > 0) continue;
      const joined = cs.slice(i, i + n).join(' ');
      const d = datesIn(joined)[0];
      if (d && d.index === 0 && d.end === joined.length) {
        dateCells = n;
        break;
      }
    }
    if (dateCells > 0) {
      out.push(cs.slice(i, i + dateCells).join(' '));
      i += dateCells - 1;
    } else if (marker && prev !== undefined && /\d$/.test(prev) && !hasMarker(prev)) {
      // A marker after a bare figure is its suffix ("314,86   €"), else a prefix.
      out[out.length - 1] += ` ${c}`;
    } else if (marker && i + 1 < cs.length && /^[-−(]?\d/.test(cs[i + 1]!)) {
      out.push(`${c} ${cs[++i]!}`);
    } else if (
      /^\(?\d{1,2}(?:[.,]\d{1,2})?\s?%\)?$/.test(c) &&
      prev !== undefined &&
      /\p{L}/u.test(prev)
    ) {
      out[out.length - 1] += ` ${c}`;
    } else out.push(c);
    // "zzgl. 7%" then "MwSt.": a qualifier cell belongs to the label after it.
    const last = out[out.length - 1]!;
    if (
      /^(?:zzgl|zuzügl|zuzüglich|inkl|incl|plus|dont|davon)\.?(?:\s+\d{1,2}(?:[.,]\d{1,2})?\s?%)?$/iu.test(
        last,
      ) &&
      i + 1 < cs.length &&
      labelsIn(cs[i + 1]!).length > 0
    )
      out[out.length - 1] = `${last} ${cs[++i]!}`;
  }
  return out;
}
const headerHits = (line: string) => (line.match(TABLE_HEADER) ?? []).length;
/** The cells of a line with where each starts and ends. */
function cellSpans(line: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const m of line.matchAll(/\S+(?:\s(?!\s)\S+)*/g)) {
    const text = m[0];
    if (text.includes('\t')) continue;
    out.push({ text, start: m.index, end: m.index + text.length });
  }
  return out;
}
/**
 * The cell of `below` under the cell of `line` that holds position `at`: same index when both
 * lines have as many cells, else the last under a last cell, else the one starting nearest.
 */
function cellBelow(line: string, at: number, below: string): string | null {
  const top = cellSpans(line);
  const bottom = cellSpans(below);
  const k = top.findIndex((c) => at >= c.start && at < c.end);
  if (k < 0 || bottom.length === 0) return null;
  if (top.length === bottom.length) return bottom[k]!.text;
  if (k === top.length - 1 && top.length > 1) return bottom[bottom.length - 1]!.text;
  if (k === 0 && bottom.length === 1) return bottom[0]!.text;
  const near = [...bottom].sort(
    (a, b) => Math.abs(a.start - top[k]!.start) - Math.abs(b.start - top[k]!.start),
  )[0]!;
  return Math.abs(near.start - top[k]!.start) <= 4 ? near.text : null;
}
/**
 * A space-grouped amount that the page layout split at its group spaces ("2   180,00" for
 * "2 180,00"): the groups joined again. Only for a money label's own value, where a bare small
 * integer before an amount has no other reading; the arithmetic checks still apply.
 */
const joinSpacedGroups = (seg: string) =>
  seg.replace(
    /(?<![\d.,])(\d{1,3})((?:\s{1,3}\d{3})+)(?=[.,]\d{2}(?!\d))/g,
    (_, head: string, groups: string) => `${head}${groups.replace(/\s+/g, ' ')}`,
  );
const DOLLAR_COUNTRIES: [RegExp, string][] = [
  [/\bcanad[ae]\b|\bCAD\b|\bC\$/i, 'CAD'],
  [/\baustralia\b|\bAUD\b|\bA\$/i, 'AUD'],
  [/\bnew zealand\b|\bNZD\b/i, 'NZD'],
  [/\bsingapore\b|\bSGD\b/i, 'SGD'],
  [/\bhong kong\b|\bHKD\b/i, 'HKD'],
  [/\bmexico\b|\bMXN\b/i, 'MXN'],
];
const CURRENCY_WORDS: [RegExp, string][] = [
  [/\bU\.?S\.? dollars?\b|\bUS\$/i, 'USD'],
  [/\beuros?\b/i, 'EUR'],
  [/\bpounds? sterling\b/i, 'GBP'],
  [/\bindian rupees?\b|\brupees?\b|\bRs\.?\s?-?\d|₹/i, 'INR'],
  [/\bzłotych\b|\bzłote\b/i, 'PLN'],
  [/\bswiss francs?\b/i, 'CHF'],
];
const LANG_WORDS: [string, RegExp][] = [
  ['en', /\b(?:invoice|total|amount|date|due|tax|bill|price|quantity|description)\b/gi],
  ['nl', /\b(?:factuur|totaal|btw|bedrag|datum|prijs|aantal|omschrijving)\b/gi],
  ['de', /\b(?:rechnung|gesamt|mwst|betrag|datum|preis|menge|beschreibung|summe)\b/gi],
  ['fr', /\b(?:facture|montant|tva|prix|désignation|quantité|ttc|ht)\b/gi],
  ['pl', /\b(?:faktura|razem|netto|brutto|wartość|ilość|cena|nabywca|sprzedawca)\b/gi],
  ['es', /\b(?:factura|importe|fecha|precio|cantidad|iva|descripción)\b/gi],
  ['it', /\b(?:fattura|importo|totale|prezzo|quantità|iva|descrizione)\b/gi],
];

/** Column heads of a VAT breakdown table: the base, the tax. */
const VAT_BASE_HEAD =
  /(?<![\p{L}])(?:base|basis|bemessungsgrundlage|grundlage|netto(?:betrag)?|net(?:\s+amount)?|nettobetrag|taxable(?:\s+amount)?|ht|imponibile|grondslag|base\s+imponible|importe\s+neto|montant\s+ht|total\s+ht)(?![\p{L}])/iu;
const VAT_TAX_HEAD =
  /(?<![\p{L}])(?:montant\s+(?:de\s+la\s+)?tva|tva|mwst\.?(?:-?betrag)?|ust\.?(?:-?betrag)?|steuerbetrag|steuer|vat(?:\s+amount)?|tax(?:\s+amount)?|btw(?:-?bedrag)?|iva|cuota|imposta|importo\s+iva)(?![\p{L}])/iu;
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
function trustedMoneyLabel(
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

export function extractBill(pages: readonly string[]): BillExtraction {
  const all = pages.join('\n');
  const lines: Line[] = [];
  pages.forEach((text, page) => {
    const raw = text.split(/\r?\n/);
    raw.forEach((t, i) => {
      lines.push({ page, text: t, synthetic: false });
      // A header row of labels above a row of values: pair them cell by cell.
      const head = mergeCells(cells(t));
      const next = raw.slice(i + 1).find((x) => x.trim() !== '');
      if (!next || head.length < 2) return;
      const labelled = head.filter((c) => labelsIn(c).length > 0).length;
      // A line-table header ("Description  Qty  Price  Amount") pairs with nothing; a row of
      // labels with at most one unlabelled cell is a header row of values even with such words.
      if (headerHits(t) >= 2 && labelled < head.length - 1) return;
      const values = mergeCells(cells(next));
      // Several rows of figures under such a head are line items, not one row of totals: the
      // first item's net, tax and total must not pass for the bill's.
      const after = raw.slice(raw.indexOf(next, i + 1) + 1).find((x) => x.trim() !== '');
      if (
        after !== undefined &&
        mergeCells(cells(after)).length === values.length &&
        amountsIn(after).length > 0 &&
        labelsIn(after).length === 0
      )
        return;
      if (
        labelled >= 2 &&
        values.length === head.length &&
        amountsIn(t).length === 0 &&
        datesIn(t).length === 0 &&
        values.every((v) => labelsIn(v).length === 0)
      )
        head.forEach((h, k) =>
          lines.push({ page, text: `${h.replace(/:$/, '')}: ${values[k]}`, synthetic: true }),
        );
    });
  });

  // ---- language (only to decide the day/month order of ambiguous numeric dates) ----------
  const langScores = LANG_WORDS.map(([l, re]) => [l, (all.match(re) ?? []).length] as const).sort(
    (a, b) => b[1] - a[1],
  );
  const language = langScores[0]![1] > 0 ? langScores[0]![0] : null;

  // ---- labelled values --------------------------------------------------------------------
  const gross: MoneyHit[] = [];
  const due: MoneyHit[] = [];
  const net: MoneyHit[] = [];
  const tax: MoneyHit[] = [];
  const numbers: { value: string; strong: boolean; spaced: boolean }[] = [];
  const dateHits: { kind: LabelKind | 'number_dated'; d: DateMatch }[] = [];
  const proofs: { sep: string; order: DateOrder }[] = [];
  const currencies = new Set<string>();

  const readNumber = (rest: string): { value: string; spaced: boolean; after: string } | null => {
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
  };

  lines.forEach((line, li) => {
    const t = line.text;
    for (const a of amountsIn(t)) if (a.currency) currencies.add(a.currency);
    for (const d of datesIn(t)) if (d.proves) proofs.push(d.proves);
    const hits = labelsIn(t).filter((h, k, all) => trustedMoneyLabel(t, h, all.slice(0, k)));
    hits.forEach((h, i) => {
      const segEnd = hits[i + 1]?.index ?? t.length;
      const seg = t.slice(h.end, segEnd);
      const money = h.kind === 'gross' || h.kind === 'due' || h.kind === 'net' || h.kind === 'tax';
      const amounts = amountsIn(money ? joinSpacedGroups(seg) : seg);
      if (h.kind === 'gross' || h.kind === 'due' || h.kind === 'net' || h.kind === 'tax') {
        if (/[A-Z]{3}/.test(seg))
          for (const w of seg.match(/\b[A-Z]{3}\b/g) ?? []) if (isIsoCurrency(w)) currencies.add(w);
        if (amounts.length === 0) return;
        const last = amounts[amounts.length - 1]!.cents;
        const label = h.text.toLowerCase().replace(/\s+/g, ' ');
        if ((h.kind === 'gross' || h.kind === 'due') && amounts.length >= 3) {
          for (let k = 0; k + 2 < amounts.length; k++) {
            const [a, b, c] = [amounts[k]!.cents, amounts[k + 1]!.cents, amounts[k + 2]!.cents];
            if (a + b === c && c > 0n) {
              net.push({ cents: a, label: `${label} (row)` });
              tax.push({ cents: b, label: `${label} (row)` });
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
          tax.push({
            cents: last,
            label,
            rate: rate ? Number(rate[1]!.replace(',', '.')) : undefined,
            base: amounts.length === 2 ? amounts[0]!.cents : undefined,
          });
        } else
          (h.kind === 'gross' ? gross : h.kind === 'due' ? due : net).push({ cents: last, label });
        return;
      }
      if (h.kind === 'number' || h.kind === 'doctype') {
        let r = readNumber(t.slice(h.end, segEnd === t.length ? t.length : t.length));
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
        numbers.push({ value: r.value, strong: h.kind === 'number', spaced: r.spaced });
        const dated = /^\s*(?:du|vom|van|of|dated|from|z\s+dnia|del)\s+(.*)$/iu.exec(r.after);
        if (dated) {
          const d = datesIn(dated[1]!)[0];
          if (d && d.index === 0) dateHits.push({ kind: 'number_dated', d });
        }
        return;
      }
      if (
        h.kind === 'issue_date' ||
        h.kind === 'due_date' ||
        h.kind === 'generic_date' ||
        h.kind === 'other_date'
      ) {
        const d = datesIn(seg)[0];
        if (d && /^[\s:.\-–]*$/.test(seg.slice(0, d.index))) dateHits.push({ kind: h.kind, d });
        else if (!d && /^[\s:.]*$/.test(seg) && !line.synthetic) {
          // The date printed under its label, in the same column.
          const nextLine = lines[li + 1];
          const under =
            nextLine && !nextLine.synthetic ? cellBelow(t, h.index, nextLine.text) : null;
          // The date may run over cells the layout split ("21   juin   2016").
          const from = under ? nextLine!.text.indexOf(under) : -1;
          const rest = from >= 0 ? nextLine!.text.slice(from) : '';
          const dn = under && labelsIn(under).length === 0 ? datesIn(rest)[0] : undefined;
          if (dn && dn.index === 0 && /^(?:\s{2,}|$)/.test(rest.slice(dn.end)))
            dateHits.push({ kind: h.kind, d: dn });
        }
      }
    });
  });
  for (const [re, code] of CURRENCY_WORDS) if (re.test(all)) currencies.add(code);
  // A currency printed apart from the figures: a cell of its own on a line with amounts
  // ("Total   €   119,00"), under a currency label ("Währung: EUR"), in a note ("amounts in
  // EUR") or a column head ("Betrag (EUR)").
  for (const line of lines) {
    const t = line.text;
    // A line with figures, or a table head ("Menge   Preis   EUR").
    const hasAmount = amountsIn(t).length > 0 || /\d[.,]\d{2}(?!\d)/.test(t) || headerHits(t) >= 2;
    for (const c of cells(t)) {
      const code = hasAmount && /^\S{1,3}$/.test(c) ? currencyOfMarker(c) : null;
      if (code && !code.startsWith('?')) currencies.add(code);
    }
    for (const re of CURRENCY_CUES)
      for (const m of t.matchAll(re)) {
        const code = currencyOfMarker(m[1]!);
        if (code && (code.startsWith('?') || isIsoCurrency(code))) currencies.add(code);
      }
  }

  // ---- currency ---------------------------------------------------------------------------
  const checks: BillCheck[] = [];
  const reasons: string[] = [];
  const check = (name: BillCheck['name'], status: BillCheck['status'], detail: string) => {
    checks.push({ name, status, detail });
    if (status === 'fail') reasons.push(`${name}: ${detail}`);
  };
  const resolved = new Set<string>();
  let currencyNote = '';
  for (const c of currencies) {
    if (!c.startsWith('?')) resolved.add(c);
  }
  if (currencies.has('?$') && ![...resolved].some((c) => /D$/.test(c) || c === 'MXN')) {
    const others = DOLLAR_COUNTRIES.filter(([re]) => re.test(all)).map(([, c]) => c);
    if (others.length === 0) {
      resolved.add('USD');
      currencyNote = " ('$' read as USD: no other dollar currency is indicated)";
    } else others.forEach((c) => resolved.add(c));
  }
  if (currencies.has('?¥') && !resolved.has('JPY') && !resolved.has('CNY')) resolved.add('?¥');
  if (currencies.has('?kr') && ![...resolved].some((c) => ['SEK', 'NOK', 'DKK', 'ISK'].includes(c)))
    resolved.add('?kr');
  const currencyList = [...resolved].sort();
  const currency =
    currencyList.length === 1 && !currencyList[0]!.startsWith('?') ? currencyList[0]! : null;
  check(
    'currency_known',
    currency ? 'pass' : 'fail',
    currency
      ? `${currency}${currencyNote}`
      : currencyList.length === 0
        ? 'no currency is printed'
        : `ambiguous: ${currencyList.join(', ')}`,
  );

  // ---- VAT breakdown table ----------------------------------------------------------------
  // A head row naming a base column and a tax column ("Taux  Base TVA  Montant TVA",
  // "MwSt.-Satz  Nettobetrag  MwSt.-Betrag"), then one row per rate: a rate, its base, its
  // tax. Used only when every row's tax is its rate of its base: the bases then add up to
  // a net and the taxes to a tax, to be matched against a labelled total like any other.
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

  // ---- line tables ------------------------------------------------------------------------
  type Row = { description: string; cents: bigint; alt: bigint };
  const tables: { rows: Row[] }[] = [];
  let current: { rows: Row[] } | null = null;
  let lastPage = -1;
  for (const line of lines) {
    if (line.synthetic) continue;
    if (line.page !== lastPage) {
      current = null;
      lastPage = line.page;
    }
    const t = line.text;
    const amounts = amountsIn(t);
    if (headerHits(t) >= 2 && amounts.length === 0) {
      current = { rows: [] };
      tables.push(current);
      continue;
    }
    if (!current) continue;
    // A row of total labels (the head of a totals table) ends the lines.
    if (
      labelsIn(t).filter((h) => ['gross', 'due', 'net', 'tax'].includes(h.kind)).length >= 2 &&
      amounts.length === 0
    ) {
      current = null;
      continue;
    }
    const kinds = labelsIn(t)
      .filter((h) => amountsIn(t.slice(h.end)).length > 0)
      .map((h) => h.kind);
    if (kinds.some((k) => k === 'gross' || k === 'due' || k === 'tax')) {
      current = null;
      continue;
    }
    if (kinds.includes('net') || INCLUDED_COMPONENT.test(t) || amounts.length === 0) continue;
    const last = amounts[amounts.length - 1]!;
    if (t.slice(last.end).trim() !== '' || !/\p{L}{2,}/u.test(t.slice(0, last.index))) continue;
    // The same row with space groups joined ("6   700,00" as 6 700,00): a second reading.
    const joined = amountsIn(joinSpacedGroups(t));
    const alt = joined[joined.length - 1]?.cents ?? last.cents;
    current.rows.push({ description: cells(t)[0] ?? t.trim(), cents: last.cents, alt });
  }
  const found = tables.filter((tb) => tb.rows.length > 0);
  // Each table as read, and (when some row has one) with its space-grouped second readings.
  const withRows = [
    ...found,
    ...found
      .filter((tb) => tb.rows.some((r) => r.alt !== r.cents))
      .map((tb) => ({ rows: tb.rows.map((r) => ({ ...r, cents: r.alt })) })),
  ];

  // ---- gross, net, tax --------------------------------------------------------------------
  const distinct = (xs: bigint[]) => [...new Set(xs.map(String))].map(BigInt);
  const netVals = distinct(net.map((n) => n.cents).filter((c) => c >= 0n));
  const taxVals = distinct([
    ...tax.map((x) => x.cents).filter((c) => c >= 0n),
    ...(new Set(tax.filter((x) => x.rate !== undefined).map((x) => x.rate)).size > 1
      ? [
          [
            ...new Map(
              tax.filter((x) => x.rate !== undefined).map((x) => [x.rate, x.cents]),
            ).values(),
          ].reduce((a, b) => a + b, 0n),
        ]
      : []),
  ]);
  const sums = withRows.map((tb) => tb.rows.reduce((a, r) => a + r.cents, 0n));
  const fits = (g: bigint) => netVals.some((n) => taxVals.some((x) => n + x === g));
  let grossCands = distinct((gross.length > 0 ? gross : due).map((g) => g.cents)).filter(
    (g) => g > 0n,
  );
  const allGross = grossCands;
  if (grossCands.length > 1) {
    const consistent = grossCands.filter((g) => fits(g) || sums.includes(g));
    grossCands = consistent.length === 1 ? consistent : grossCands;
  }
  const g = grossCands.length === 1 ? grossCands[0]! : null;
  check(
    'gross_labelled',
    g !== null ? 'pass' : 'fail',
    g !== null
      ? `${centsToDecimal(g)} under ${[...new Set([...gross, ...due].filter((x) => x.cents === g).map((x) => x.label))].join(', ')}`
      : allGross.length === 0
        ? 'no total is printed under a total label'
        : `several totals disagree: ${allGross.map(centsToDecimal).join(', ')}`,
  );

  let n: bigint | null = null;
  let x: bigint | null = null;
  let explicitPair = false;
  if (g !== null) {
    const pairs = netVals.flatMap((nv) =>
      taxVals.filter((xv) => nv + xv === g).map((xv) => [nv, xv] as const),
    );
    if (pairs.length > 0) {
      // Prefer the pair with a positive tax when a zero-tax reading also adds up.
      const best = pairs.find(([, xv]) => xv > 0n) ?? pairs[0]!;
      [n, x] = best;
      // Every other tax printed must be a part of this one (one rate of several): a tax total
      // that disagrees with its own breakdown leaves the bill to a person.
      const rated = tax.filter((t) => t.rate !== undefined);
      const ratedSum = [...new Map(rated.map((t) => [t.rate, t.cents])).values()].reduce(
        (a, b) => a + b,
        0n,
      );
      const parts = new Set(ratedSum === x ? rated.map((t) => String(t.cents)) : []);
      const chosen = x;
      const stray = distinct(
        tax
          .filter(
            (t) =>
              t.cents > 0n &&
              t.cents !== chosen &&
              !parts.has(String(t.cents)) &&
              !t.label.endsWith('(row)'),
          )
          .map((t) => t.cents),
      );
      explicitPair = stray.length === 0;
      check(
        'net_plus_tax_equals_gross',
        stray.length === 0 ? 'pass' : 'fail',
        stray.length === 0
          ? `${centsToDecimal(n)} + ${centsToDecimal(x)} = ${centsToDecimal(g)}`
          : `${centsToDecimal(n)} + ${centsToDecimal(x)} = ${centsToDecimal(g)}, but the bill also prints a tax of ${stray.map(centsToDecimal).join(', ')}`,
      );
    } else if (netVals.length > 0 && taxVals.length > 0) {
      check(
        'net_plus_tax_equals_gross',
        'fail',
        `no printed net (${netVals.map(centsToDecimal).join(', ')}) plus tax (${taxVals.map(centsToDecimal).join(', ')}) makes ${centsToDecimal(g)}`,
      );
    } else if (taxVals.length === 1) {
      x = taxVals[0]!;
      n = g - x;
      check(
        'net_plus_tax_equals_gross',
        'not_applicable',
        `no net printed; net = gross - tax = ${centsToDecimal(n)}`,
      );
    } else if (netVals.length === 1 && netVals[0]! <= g) {
      n = netVals[0]!;
      x = g - n;
      check(
        'net_plus_tax_equals_gross',
        'not_applicable',
        `no tax printed; tax = gross - net = ${centsToDecimal(x)}`,
      );
    } else
      check(
        'net_plus_tax_equals_gross',
        'not_applicable',
        'neither a net nor a tax amount is printed',
      );
  }

  // Tax against the stated rate (half-up; one minor unit of rounding is tolerated).
  let taxRate: number | null = null;
  if (x !== null && n !== null) {
    const rated = tax.filter((t) => t.cents === x && t.rate !== undefined);
    if (rated.length > 0) {
      const t = rated[0]!;
      taxRate = t.rate!;
      const base = t.base ?? n;
      const expected = (base * BigInt(Math.round(t.rate! * 1000)) + 50000n) / 100000n;
      const diff = expected > x ? expected - x : x - expected;
      check(
        'tax_matches_rate',
        diff <= 1n ? 'pass' : 'fail',
        `${t.rate}% of ${centsToDecimal(base)} = ${centsToDecimal(expected)}, printed ${centsToDecimal(x)}`,
      );
    } else check('tax_matches_rate', 'not_applicable', 'no rate printed beside the tax');
  }

  // Lines: some table (or all of them together) adds up to the net or the gross.
  let lines_: { description: string; cents: bigint }[] = [];
  let linesBasis: 'net' | 'gross' | null = null;
  if (withRows.length > 0 && g !== null) {
    const options = [
      ...withRows,
      { rows: found.flatMap((tb) => tb.rows) },
      { rows: found.flatMap((tb) => tb.rows.map((r) => ({ ...r, cents: r.alt }))) },
    ];
    for (const tb of options) {
      const s = tb.rows.reduce((a, r) => a + r.cents, 0n);
      if (n !== null && s === n && n !== g) {
        lines_ = tb.rows;
        linesBasis = 'net';
        break;
      }
      if (s === g) {
        lines_ = tb.rows;
        linesBasis = 'gross';
        break;
      }
    }
    check(
      'lines_sum',
      linesBasis ? 'pass' : 'fail',
      linesBasis
        ? `${lines_.length} line(s) add up to the ${linesBasis} ${centsToDecimal(linesBasis === 'net' ? n! : g)}`
        : `the lines add up to ${sums.map(centsToDecimal).join(' / ')}, neither the net nor the gross`,
    );
  } else check('lines_sum', 'not_applicable', 'no line table found');

  // The gross must be confirmed by something independent of its own label.
  const zeroTaxTwice =
    x === 0n &&
    tax.some((t) => t.cents === 0n) &&
    new Set([...gross, ...due].filter((h) => h.cents === g).map((h) => h.label)).size >= 2;
  if (g !== null)
    check(
      'gross_confirmed',
      explicitPair || linesBasis !== null || zeroTaxTwice ? 'pass' : 'fail',
      explicitPair
        ? 'printed net + printed tax'
        : linesBasis
          ? 'sum of the lines'
          : zeroTaxTwice
            ? 'a printed zero tax and two total labels agreeing'
            : 'nothing but its own label supports the total',
    );

  // ---- invoice number ---------------------------------------------------------------------
  const strong = numbers.filter((v) => v.strong);
  const chosen = strong.length > 0 ? strong : numbers;
  const norm = (v: string) => v.replace(/\s+/g, '').replace(/^#/, '').toUpperCase();
  const numberSet = [...new Map(chosen.map((v) => [norm(v.value), v])).values()];
  let invoiceNumber: string | null = null;
  if (numberSet.length === 1 && !numberSet[0]!.spaced) {
    invoiceNumber = numberSet[0]!.value;
    check('invoice_number_unique', 'pass', invoiceNumber);
  } else
    check(
      'invoice_number_unique',
      'fail',
      numberSet.length === 0
        ? 'no invoice number is printed under an invoice-number label'
        : numberSet.length > 1
          ? `several candidates: ${numberSet.map((v) => v.value).join(', ')}`
          : `"${numberSet[0]!.value}" contains spaces: where the number starts is ambiguous`,
    );

  // ---- dates ------------------------------------------------------------------------------
  const usEnglish = language === 'en' && currency === 'USD';
  const languageOrder: DateOrder | null =
    language === null ? null : language === 'en' ? (usEnglish ? 'mdy' : null) : 'dmy';
  const resolveAll = (kinds: string[]) =>
    dateHits
      .filter((h) => kinds.includes(h.kind))
      .map((h) => ({ iso: resolveDate(h.d, proofs, languageOrder), raw: h.d.raw }));
  const pick = (groups: string[][]) => {
    for (const kinds of groups) {
      const found = resolveAll(kinds);
      if (found.length > 0) return found;
    }
    return [];
  };
  const issueFound = pick([['issue_date'], ['number_dated'], ['generic_date']]);
  const issueSet = [...new Set(issueFound.map((d) => d.iso ?? `?${d.raw}`))];
  const issueDate = issueSet.length === 1 && !issueSet[0]!.startsWith('?') ? issueSet[0]! : null;
  check(
    'issue_date_parsed',
    issueDate ? 'pass' : 'fail',
    issueDate ??
      (issueSet.length === 0
        ? 'no invoice date is printed under a date label'
        : `undecided: ${issueSet.map((d) => d.replace(/^\?/, '')).join(', ')}`),
  );
  const dueSet = [
    ...new Set(
      resolveAll(['due_date'])
        .map((d) => d.iso)
        .filter((d): d is string => !!d),
    ),
  ];
  const dueDate =
    dueSet.length === 1 && (!issueDate || dueSet[0]! >= issueDate) ? dueSet[0]! : null;

  // ---- issuer -----------------------------------------------------------------------------
  const issuer = findIssuer(pages);
  check('issuer_found', issuer ? 'pass' : 'fail', issuer ?? 'no issuer name is printed');

  // ---- contacts ---------------------------------------------------------------------------
  const emails = [
    ...new Set(
      (all.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) ?? []).map((e) =>
        e.toLowerCase(),
      ),
    ),
  ];
  const taxIds = [
    ...new Set(
      (all.match(/\b(?:[A-Z]{2}\s?\d{8,12}(?:B\d{2})?|[A-Z]{2}\d{3}\s\d{3}\s\d{3})\b/g) ?? []).map(
        (v) => v.replace(/\s/g, ''),
      ),
    ),
  ];

  const toMinor = (c: bigint | null) =>
    c === null || !currency ? null : centsToMinor(c, currency);
  const gm = toMinor(g);
  if (g !== null && currency && gm === null)
    check(
      'currency_known',
      'fail',
      `${centsToDecimal(g)} has more decimals than ${currency} allows`,
    );
  if (g !== null && g <= 0n) reasons.push('gross: not positive');
  // A credit note, a correction or a pro forma prints positive totals too: posting it as a
  // bill would book it the wrong way round (or book what is not owed).
  const kind = lines
    .filter((l) => !l.synthetic)
    .flatMap((l) => cells(l.text))
    .map((c) => NOT_A_BILL.exec(c))
    .find((m) => m !== null);
  if (kind) reasons.push(`document_kind: "${kind[1]}" is printed as the document's title`);

  const outcome =
    reasons.length === 0 && g !== null && invoiceNumber && issueDate && currency && issuer
      ? 'ready'
      : 'human_review';
  if (outcome === 'human_review' && reasons.length === 0)
    reasons.push('a required field is missing');
  return BillExtractionSchema.parse({
    outcome,
    reasons,
    issuer,
    invoiceNumber,
    issueDate,
    dueDate,
    currency,
    amount: g === null ? null : centsToDecimal(g),
    amountUntaxed: n === null ? null : centsToDecimal(n),
    amountTax: x === null ? null : centsToDecimal(x),
    minor:
      gm === null
        ? null
        : {
            gross: gm.toString(),
            net: toMinor(n)?.toString() ?? null,
            tax: toMinor(x)?.toString() ?? null,
          },
    taxRatePercent: taxRate === null ? null : String(taxRate),
    lines: lines_.map((l) => ({
      description: l.description.slice(0, 500),
      amount: centsToDecimal(l.cents),
    })),
    linesBasis,
    checks,
    candidates: {
      invoiceNumber: numberSet.map((v) => v.value),
      gross: allGross.map(centsToDecimal),
      issueDate: issueSet,
      currency: currencyList,
    },
    contacts: { emails, taxIds },
    language,
  });
}

// ---- issuer ---------------------------------------------------------------------------------

const GENERIC_TOP =
  /^(?:invoice|tax invoice|factuur|facture|rechnung|faktura|factura|fattura|bill|receipt|payment receipt|kopie factuur|copy|page|seite)\b/i;

function legalName(cell: string): string | null {
  const m = LEGAL_FORM.exec(cell);
  if (!m || m.index === 0) return null;
  // Short forms (AG, KG, SA, BV) count only as printed in capitals: "1.00 kg" is no company.
  if (
    m[0].replace(/\./g, '').length <= 3 &&
    m[0] === m[0].toLowerCase() &&
    !/^(?:ltd|inc|llc|plc|spa|srl|co)\.?$/.test(m[0])
  )
    return null;
  const name = cell
    .slice(0, m.index + m[0].length)
    .replace(/[,\s]+$/, '')
    .trim();
  if (/\d/.test(cell.slice(0, m.index))) return null;
  const words = name.split(/\s+/);
  if (words.length > 8 || !/\p{L}{2,}/u.test(name)) return null;
  // Sentences that merely mention a company ("... are sold by X Inc.") keep the tail only.
  return name;
}

/**
 * The issuer: a name after a seller label; else the most frequent name with a legal form
 * outside the customer's block; else a top line matching the bill's own web or mail domain;
 * else the first top line that is a name. Names in the customer's block never qualify.
 */
export function findIssuer(pages: readonly string[]): string | null {
  const lines = pages.flatMap((p) => p.split(/\r?\n/));
  const customerLines = new Set<number>();
  lines.forEach((l, i) => {
    if (CUSTOMER_MARKERS.test(l))
      for (let k = i; k <= i + 4 && k < lines.length; k++) customerLines.add(k);
  });
  const customerNames = new Set(
    [...customerLines].flatMap((i) => cells(lines[i]!)).map((c) => c.toLowerCase()),
  );
  for (const [i, l] of lines.entries()) {
    const m = SELLER_LABEL.exec(l);
    if (!m) continue;
    // A label opens its cell and ends in a colon or a column gap ("Lieferant: X"); the same
    // word inside a name ("LE FOURNISSEUR") is no label.
    const cellStart = l.lastIndexOf('  ', m.index);
    const before = l.slice(cellStart < 0 ? 0 : cellStart, m.index);
    if (!/^[\s[(]*$/.test(before) && !/[–\-,;|·]\s*$/.test(before)) continue;
    if (!/:\s*$/.test(m[0]) && !/^\s{2,}\S/.test(l.slice(m.index + m[0].trimEnd().length)))
      continue;
    const rest = cells(l.slice(m.index + m[0].length))[0];
    const name = rest?.replace(/[,;]+$/, '').trim();
    if (
      name &&
      /\p{L}{2,}/u.test(name) &&
      name.length <= 80 &&
      !customerNames.has(name.toLowerCase())
    )
      return legalName(name) ?? name;
    void i;
  }
  // The sender line above the address window: "Name · Street 1 · 12345 City".
  for (const [i, l] of lines.entries()) {
    if (customerLines.has(i)) continue;
    const parts = l
      .replace(/\s{2,}/g, ' ')
      .trim()
      .split(/\s+[·•|–-]\s+/);
    const name = parts[0]!.trim();
    if (
      parts.length >= 3 &&
      parts.slice(1).some((p) => /(?<!\d)\d{4,5}\s+\S/u.test(p)) &&
      /^\p{L}[\p{L}\p{N}&'.,\- ]{1,60}$/u.test(name) &&
      !/\d/.test(name) &&
      !customerNames.has(name.toLowerCase())
    )
      return name;
  }
  // The name the page opens with, printed again further down (a footer, a signature).
  const firstIndex = lines.findIndex((l) => l.trim() !== '');
  const opening = firstIndex >= 0 ? cells(lines[firstIndex]!)[0] : undefined;
  if (
    opening &&
    !customerLines.has(firstIndex) &&
    !GENERIC_TOP.test(opening) &&
    /^\p{Lu}[\p{L}&'.,\- ]{1,60}$/u.test(opening) &&
    !/\d/.test(opening) &&
    labelsIn(opening).length === 0 &&
    !customerNames.has(opening.toLowerCase())
  ) {
    const key = opening.toLowerCase();
    const again = lines.some(
      (l, i) =>
        i > firstIndex + 3 &&
        cells(l).some((c) => {
          const lc = c.toLowerCase();
          return lc === key || lc.startsWith(`${key},`) || lc.startsWith(`${key} ·`);
        }),
    );
    if (again) return legalName(opening) ?? opening;
  }
  const counts = new Map<string, { n: number; first: number }>();
  const nameOf: Record<string, string> = {};
  lines.forEach((l, i) => {
    if (customerLines.has(i)) return;
    for (const c of cells(l)) {
      const sentence = /\b(?:sold by|by|of|from)\s+(.+)$/i.exec(c);
      const name = legalName(sentence ? sentence[1]! : c);
      if (!name || customerNames.has(name.toLowerCase())) continue;
      const key = name
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();
      const e = counts.get(key);
      if (e) e.n++;
      else {
        counts.set(key, { n: 1, first: i });
        nameOf[key] = name;
      }
    }
  });
  const best = [...counts.entries()].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first)[0];
  if (best) return nameOf[best[0]]!;
  const text = pages.join('\n');
  const domains = [
    ...new Set(
      [...text.matchAll(/(?:https?:\/\/(?:www\.)?|www\.|@)([a-z0-9-]+)\./gi)]
        .map((m) => m[1]!.toLowerCase().replace(/[^a-z]/g, ''))
        .filter(
          (d) =>
            d.length >= 3 &&
            !/^(?:gmail|yahoo|hotmail|outlook|mail|web|gmx|icloud|example)$/.test(d),
        ),
    ),
  ];
  const top = lines.slice(0, 12).map((l, i) => ({ i, c: cells(l) }));
  for (const { i, c } of top) {
    if (customerLines.has(i)) continue;
    for (const cell of c) {
      const letters = cell.toLowerCase().replace(/[^a-z]/g, '');
      if (letters.length >= 3 && domains.some((d) => d === letters || d.startsWith(letters)))
        return cell;
    }
  }
  for (const { i, c } of top.slice(0, 3)) {
    if (customerLines.has(i)) continue;
    const cell = c[0]
      ?.replace(GENERIC_TOP, '')
      .replace(/\b(?:invoice|factuur|facture|rechnung)\b\.?$/i, '')
      .trim();
    if (
      cell &&
      /^\p{Lu}[\p{L}&'.\- ]{2,60}$/u.test(cell) &&
      !/\d/.test(cell) &&
      !GENERIC_TOP.test(c[0]!)
    )
      return cell;
  }
  return null;
}
