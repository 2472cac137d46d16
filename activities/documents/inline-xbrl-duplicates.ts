/**
 * Duplicate inline XBRL facts (same concept, period, dimensions and unit) folded into one: the
 * fact key, rounding to a fact's decimals, and the fold itself.
 */
import { canonicalDecimal, shiftDecimal } from './inline-xbrl-formats';
import type { InlineFact, InlineXbrlIssue } from '../../workflows/inline-fact';

/** Sort key of a fact's aspects other than the value: one fact per key. */
export function factKey(
  f: Pick<InlineFact, 'concept' | 'conceptNs' | 'period' | 'dimensions' | 'unit'>,
): string {
  const p = f.period;
  const period =
    p.type === 'instant' ? p.instant : p.type === 'duration' ? `${p.start}/${p.end}` : 'forever';
  const dims = f.dimensions
    .map((d) => `${d.dimension}=${d.member ?? `{${d.typedValue ?? ''}}`}`)
    .join(',');
  return `${f.conceptNs}#${f.concept.slice(f.concept.indexOf(':') + 1)}|${period}|${dims}|${f.unit ?? ''}`;
}

const precision = (d: string | null): number =>
  d === null ? -Infinity : d.toUpperCase() === 'INF' ? Infinity : Number(d);

/** `value` rounded half away from zero to `decimals` places (negative: tens, hundreds …). */
export function roundDecimal(value: string, decimals: number): string {
  if (!Number.isFinite(decimals)) return canonicalDecimal(value);
  const neg = value.startsWith('-');
  const abs = neg ? value.slice(1) : value;
  const scaled = shiftDecimal(abs, decimals);
  const [int = '0', frac = ''] = scaled.split('.');
  let n = BigInt(int);
  if ((frac[0] ?? '0') >= '5') n += 1n;
  const r = shiftDecimal(n.toString(), -decimals);
  return neg && r !== '0' ? `-${r}` : r;
}

/**
 * Facts with the same concept, period, dimensions and unit are one fact: the most precise
 * reading (highest decimals) stands, the first in the document among equals; the others'
 * ids are kept on it. Readings that disagree beyond rounding are an issue, not a silent pick.
 */
export function collapseDuplicates(facts: InlineFact[], issues: InlineXbrlIssue[]): InlineFact[] {
  const byKey = new Map<string, InlineFact>();
  const out: InlineFact[] = [];
  for (const f of facts) {
    const key = factKey(f);
    const kept = byKey.get(key);
    if (!kept) {
      byKey.set(key, f);
      out.push(f);
      continue;
    }
    let winner = kept;
    let loser = f;
    if (f.numeric && precision(f.decimals) > precision(kept.decimals)) {
      winner = f;
      loser = kept;
    }
    if (f.numeric && winner.value !== null && loser.value !== null) {
      const d = precision(loser.decimals);
      if (roundDecimal(winner.value, d) !== roundDecimal(loser.value, d))
        issues.push({
          type: 'InconsistentDuplicate',
          factId: loser.id,
          message: `${loser.concept} ${loser.value} (decimals ${loser.decimals}) disagrees with ${winner.id} ${winner.value}`,
        });
    }
    if (winner !== kept) {
      Object.assign(kept, { ...winner, duplicateIds: [...kept.duplicateIds, kept.id] });
    } else kept.duplicateIds.push(f.id);
  }
  return out;
}
