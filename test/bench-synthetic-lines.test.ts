import { merchantKey } from '../agents/bank_transaction_processor/classify';
import { CardLineSchema } from '../agents/bank_transaction_processor/handler';
import { SYNTHETIC_MERCHANTS, syntheticCardLines } from '../scripts/lib/synthetic-card-lines';
import { runPool } from '../scripts/lib/bench-pool';

describe('bench helpers', () => {
  it('generates the same valid card lines for a seed, each known one matched by its rule only', () => {
    const lines = syntheticCardLines(2000);
    expect(syntheticCardLines(2000)).toEqual(lines);
    expect(syntheticCardLines(2000, { seed: 7 })).not.toEqual(lines);
    expect(new Set(lines.map((l) => l.id)).size).toBe(2000);
    const rules = SYNTHETIC_MERCHANTS.map((m) => ({
      re: new RegExp(m.match),
      code: m.accountCode,
    }));
    for (const l of lines) {
      const { expectedCode, ...payload } = l;
      expect(CardLineSchema.safeParse(payload).success).toBe(true);
      expect(BigInt(l.amountMinor)).toBeGreaterThanOrEqual(100n);
      expect(BigInt(l.amountMinor)).toBeLessThanOrEqual(40_000n);
      const matched = rules.filter((r) => r.re.test(merchantKey(l.merchant))).map((r) => r.code);
      expect(matched).toEqual(expectedCode === null ? [] : [expectedCode]);
    }
    const unknown = lines.filter((l) => l.expectedCode === null).length;
    expect(unknown).toBeGreaterThan(50); // ~5%
    expect(unknown).toBeLessThan(150);
    expect(syntheticCardLines(100, { unknownShare: 0 }).every((l) => l.expectedCode)).toBe(true);
  });

  it('runs every item once with at most `size` calls in flight', async () => {
    let inFlight = 0;
    let peak = 0;
    const seen: number[] = [];
    await runPool([...Array(25).keys()], 4, async (item, i) => {
      expect(item).toBe(i);
      peak = Math.max(peak, ++inFlight);
      await new Promise((r) => setTimeout(r, 1));
      seen.push(item);
      inFlight -= 1;
    });
    expect(seen.sort((a, b) => a - b)).toEqual([...Array(25).keys()]);
    expect(peak).toBe(4);
  });
});
