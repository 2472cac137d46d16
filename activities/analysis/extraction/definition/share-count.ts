import {
  abs,
  cmp,
  dec,
  div,
  isZero,
  sub,
  toFixed,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import { extractMetricFromIndex, type Citation, type DocumentIndex } from '../extract-metric';
import { convertScale } from '../scale';

/**
 * A share count a question's definition divides by ("dividends paid divided by diluted
 * weighted-average common shares outstanding"): which count the filing prints, and a check
 * that the count read is a share count in the scale the arithmetic assumes.
 *
 * A count is not an amount: its rows say "shares", their scale is often their own ("in
 * millions, except per share data; shares in thousands"), and an operand read in the wrong
 * scale is off by a thousand. So a count is read only by the catalog's share rows, and an
 * amount divided by it is delivered only when the filing's own earnings per share agree:
 * net income over the same count must land near the printed EPS.
 */

export type ShareCountMetric = 'shares_basic' | 'shares_diluted' | 'shares_outstanding';

/** The words that make an operand a count of shares, not an amount paid for shares. */
const COUNT_WORDS =
  /\b(?:weighted|average|outstanding|number of)\b|\bused in (?:the )?(?:calculation|calculating|computing|computation)\b/;
const AMOUNT_WORDS =
  /\b(?:repurchas\w*|purchas\w*|issu\w*|proceeds|dividends?|values?|costs?|paid|compensation|price|premium|amount)\b/;

/**
 * The catalog's share count an operand names, null when it names no count of shares, or a
 * review reason when it names one the filing prints twice (weighted-average without saying
 * basic or diluted).
 */
export function shareCountOf(name: string): ShareCountMetric | { review: string } | null {
  const n = name.toLowerCase().replace(/-/g, ' ');
  if (!/\bshares\b/.test(n) || !COUNT_WORDS.test(n) || AMOUNT_WORDS.test(n)) return null;
  if (/\bper (?:common )?share\b/.test(n)) return null;
  const averaged = /\b(?:weighted|average)\b|\bused in\b/.test(n);
  const basic = /\bbasic\b/.test(n);
  const diluted = /\bdiluted\b/.test(n);
  if (basic && diluted) return { review: `"${name}" names both the basic and the diluted count` };
  if (basic) return 'shares_basic';
  if (diluted) return 'shares_diluted';
  if (averaged)
    return {
      review: `"${name}" is a weighted-average share count without saying basic or diluted`,
    };
  return 'shares_outstanding';
}

/** How far net income over the count may land from the printed EPS (a wrong scale is 1,000×). */
const EPS_TOLERANCE = dec('0.2');

export type ShareCountCheck =
  | { ok: true; statement: string; citations: Citation[] }
  | { ok: false; reason: string; hints: Citation[] };

/**
 * The filing's own earnings per share for the period must agree with net income divided by
 * the count read (in units): within 20% of the basic or the diluted EPS, the one the count
 * names first. Without a printed EPS or net income the count cannot be checked: review.
 */
export function checkShareCount(
  doc: DocumentIndex,
  metric: ShareCountMetric,
  /** The period read, its label, and the confidence below which a reading is not used. */
  at: { period: { fiscalYear: number; quarter?: number }; label: string; floor: number },
  countUnits: Decimal,
): ShareCountCheck {
  const { period, label, floor } = at;
  if (cmp(countUnits, dec('0')) <= 0)
    return { ok: false, reason: `the share count for ${label} is not positive`, hints: [] };
  const income = extractMetricFromIndex(doc, { metric: 'net_income', period });
  if (income.status !== 'found' || income.confidence < floor)
    return {
      ok: false,
      reason: `the share count for ${label} cannot be checked: no net income read to compare with the printed EPS`,
      hints: [],
    };
  const incomeUnits = dec(convertScale(income.value.amount, income.value.scale, 'units'));
  const implied = div(incomeUnits, countUnits, 12);
  const order: ('eps_basic' | 'eps_diluted')[] =
    metric === 'shares_diluted' ? ['eps_diluted', 'eps_basic'] : ['eps_basic', 'eps_diluted'];
  const seen: string[] = [];
  for (const id of order) {
    const eps = extractMetricFromIndex(doc, { metric: id, period });
    if (eps.status !== 'found' || eps.confidence < floor) continue;
    const printed = dec(eps.value.amount);
    if (isZero(printed)) continue;
    const off = abs(div(sub(implied, printed), printed, 12));
    if (cmp(off, EPS_TOLERANCE) <= 0)
      return {
        ok: true,
        statement: `net income ${label} / the share count = ${toFixed(implied, 2)} per share, within 20% of the printed ${id === 'eps_basic' ? 'basic' : 'diluted'} EPS ${eps.value.amount}`,
        citations: [income.citation, eps.citation],
      };
    seen.push(`${id === 'eps_basic' ? 'basic' : 'diluted'} EPS ${eps.value.amount}`);
  }
  return {
    ok: false,
    reason: seen.length
      ? `the share count for ${label} disagrees with the printed EPS: net income over it does not land within 20% of ${seen.join(' or ')} (a count in another scale?)`
      : `the share count for ${label} cannot be checked: no printed EPS for the period`,
    hints: [income.citation],
  };
}
