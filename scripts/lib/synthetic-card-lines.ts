/**
 * Synthetic card lines for the bank-lines bench: no shared dataset, the same lines for the same
 * seed on any clone. Most lines come from a few known merchants, each with an org rule (a
 * regular expression over the agent's normalized merchant key → a chart code) so the agent
 * posts them on its own; `unknownShare` of them come from merchants nobody has coded, which
 * the agent asks a person about. Amounts are integer minor units (1.00–400.00), below every
 * default risk threshold, so a batch stays in the low lane once its accounts are warm.
 */
export interface SyntheticMerchant {
  /** The descriptor printed on the statement; a store number is appended per line. */
  descriptor: string;
  /** The org rule: a regular expression over the merchant key (see merchantKey). */
  match: string;
  accountCode: string;
}

export const SYNTHETIC_MERCHANTS: readonly SyntheticMerchant[] = [
  { descriptor: 'SHELL KINGS', match: '^shell\\b', accountCode: '6500' },
  { descriptor: 'TRAINLINE.COM', match: '^trainline\\b', accountCode: '6500' },
  { descriptor: 'PREMIER INN', match: '^premier inn\\b', accountCode: '6500' },
  { descriptor: 'VIKING DIRECT', match: '^viking direct\\b', accountCode: '6200' },
  { descriptor: 'STAPLES UK', match: '^staples\\b', accountCode: '6200' },
  { descriptor: 'ADOBE SYSTEMS', match: '^adobe\\b', accountCode: '6300' },
  { descriptor: 'GITHUB INC', match: '^github\\b', accountCode: '6300' },
  { descriptor: 'BRITISH GAS', match: '^british gas\\b', accountCode: '6100' },
  { descriptor: 'FACEBK ADS', match: '^facebk ads\\b', accountCode: '6600' },
  { descriptor: 'BARCLAYS CARD FEE', match: '^barclays card fee\\b', accountCode: '6700' },
];

export const SYNTHETIC_CARDS: readonly string[] = [
  '4929********1111',
  '4929********2222',
  '4929********3333',
  '4929********4444',
];

export interface SyntheticCardLine {
  id: string;
  date: string;
  amountMinor: string;
  merchant: string;
  card: string;
  taxCode: null;
  /** The merchant's rule account code; null for an unknown merchant (asked). */
  expectedCode: string | null;
}

/** mulberry32: a small deterministic PRNG, [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticCardLines(
  n: number,
  opts: { seed?: number; unknownShare?: number } = {},
): SyntheticCardLine[] {
  const rnd = prng(opts.seed ?? 13);
  const unknownShare = opts.unknownShare ?? 0.05;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  return Array.from({ length: n }, (_, i) => {
    const unknown = rnd() < unknownShare;
    const m = pick(SYNTHETIC_MERCHANTS);
    const store = 100 + Math.floor(rnd() * 900);
    const day = 1 + Math.floor(rnd() * 28);
    return {
      id: `bench.${i}`,
      date: `2025-06-${String(day).padStart(2, '0')}`,
      amountMinor: String(100 + Math.floor(rnd() * 39_901)),
      // An unknown merchant: a descriptor no rule matches and no person has coded.
      merchant: unknown
        ? `MARKET STALL ${String.fromCharCode(65 + (i % 26))}${store}`
        : `${m.descriptor} ${store}`,
      card: pick(SYNTHETIC_CARDS),
      taxCode: null,
      expectedCode: unknown ? null : m.accountCode,
    };
  });
}
