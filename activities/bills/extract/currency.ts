import { amountsIn, currencyOfMarker, isIsoCurrency } from '../amounts';
import { CURRENCY_CUES } from '../labels';
import type { CheckLog } from './check-log';
import { cells, headerHits, type Line } from './layout';

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

/**
 * The currencies a bill prints, beyond those seen with its figures and labels: in
 * words ("euros"), and apart from the figures: a cell of its own on a line with amounts
 * ("Total   €   119,00"), under a currency label ("Währung: EUR"), in a note ("amounts in
 * EUR") or a column head ("Betrag (EUR)"). Ambiguous markers stay as "?$", "?¥", "?kr".
 */
export function collectCurrencies(
  lines: readonly Line[],
  text: string,
  seen: ReadonlySet<string>,
): Set<string> {
  const currencies = new Set(seen);
  for (const [re, code] of CURRENCY_WORDS) if (re.test(text)) currencies.add(code);
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
  return currencies;
}

/** The bill's currency when exactly one is printed, and every candidate. */
export interface CurrencyReading {
  currency: string | null;
  candidates: string[];
}

/**
 * One currency, or none: a lone '$' is read as USD only when no other dollar country
 * is named; a '¥' or 'kr' that no code settles keeps the bill ambiguous. Checks
 * currency_known.
 */
export function settleCurrency(
  currencies: ReadonlySet<string>,
  text: string,
  log: CheckLog,
): CurrencyReading {
  const resolved = new Set<string>();
  let currencyNote = '';
  for (const c of currencies) {
    if (!c.startsWith('?')) resolved.add(c);
  }
  if (currencies.has('?$') && ![...resolved].some((c) => /D$/.test(c) || c === 'MXN')) {
    const others = DOLLAR_COUNTRIES.filter(([re]) => re.test(text)).map(([, c]) => c);
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
  log.check(
    'currency_known',
    currency ? 'pass' : 'fail',
    currency
      ? `${currency}${currencyNote}`
      : currencyList.length === 0
        ? 'no currency is printed'
        : `ambiguous: ${currencyList.join(', ')}`,
  );
  return { currency, candidates: currencyList };
}
