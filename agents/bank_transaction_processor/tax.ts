/**
 * Tax codes for bank and card lines, pure. A feed prints a VAT descriptor per line (e.g. "VR");
 * the org maps descriptors to its own tax codes (settings.tax_codes) — nothing is guessed from
 * the descriptor's letters. A mapped line's gross splits into net and the tax a VAT-inclusive
 * amount holds at the code's rate (the VAT fraction: gross × rate / (1 + rate), half up to the
 * minor unit); the tax goes to the tax code's own account. A descriptor mapped to a code that
 * is not in effect on the line's date is not split on a guess: the line is asked.
 */
export interface OrgTaxCode {
  id: string;
  code: string;
  rateBasisPoints: number;
  effectiveFrom: string;
  effectiveTo: string | null;
  accountId: string;
}

export type TaxResolution =
  | { kind: 'none' }
  | { kind: 'split'; taxCodeId: string; code: string; accountId: string; rateBasisPoints: number }
  | { kind: 'unresolved'; reason: string };

/** The org's tax code for a line's descriptor on its date. */
export function resolveTax(
  descriptor: string | null,
  date: string,
  map: Readonly<Record<string, string>>,
  codes: readonly OrgTaxCode[],
): TaxResolution {
  if (!descriptor) return { kind: 'none' };
  const wanted = Object.entries(map).find(
    ([d]) => d.trim().toUpperCase() === descriptor.trim().toUpperCase(),
  )?.[1];
  if (wanted === undefined) return { kind: 'none' };
  const inEffect = codes.filter(
    (c) =>
      c.code === wanted &&
      c.effectiveFrom <= date &&
      (c.effectiveTo === null || date < c.effectiveTo),
  );
  if (inEffect.length !== 1)
    return {
      kind: 'unresolved',
      reason: `tax code ${wanted} (for ${descriptor}) is ${inEffect.length === 0 ? 'not in effect' : 'ambiguous'} on ${date}`,
    };
  const c = inEffect[0]!;
  if (c.rateBasisPoints === 0) return { kind: 'none' };
  return {
    kind: 'split',
    taxCodeId: c.id,
    code: c.code,
    accountId: c.accountId,
    rateBasisPoints: c.rateBasisPoints,
  };
}

/** The tax inside a tax-inclusive gross (minor units, positive), half up. */
export function taxOfGross(grossMinor: bigint, rateBasisPoints: number): bigint {
  if (grossMinor <= 0n) throw new Error('taxOfGross: a positive gross');
  const rate = BigInt(rateBasisPoints);
  const den = 10_000n + rate;
  return (2n * grossMinor * rate + den) / (2n * den);
}
