import {
  DEFAULT_POLICY,
  decide,
  evidenceOf,
  merchantKey,
} from '../agents/bank_transaction_processor/classify';

/**
 * The bank transaction processor's classification, pure: auto only on unanimous, sufficient
 * evidence; thin, new, multi-purpose and ambiguous patterns are asked.
 */
const ctx = (
  rows: { merchantKey: string; cardKey: string; accountId: string; count: number }[],
  extra: Partial<Parameters<typeof decide>[1]> = {},
) => ({
  evidence: evidenceOf(rows),
  rules: [],
  vendors: new Map<string, string>(),
  policy: DEFAULT_POLICY,
  ...extra,
});

it('normalizes descriptors without store numbers, references and punctuation', () => {
  expect(merchantKey('SHELL KINGS 587')).toBe('shell kings');
  expect(merchantKey('Tesco PFS 6119')).toBe('tesco pfs');
  expect(merchantKey('www.example-shop.com*A12B')).toBe('www example shop com');
  expect(merchantKey('12345')).toBe('12345');
  expect(merchantKey('  ')).toBe('unknown');
});

it('auto-posts a (merchant, card) pattern resolved the same way often enough', () => {
  const d = decide(
    { merchantKey: 'fuel co', cardKey: '1111' },
    ctx([{ merchantKey: 'fuel co', cardKey: '1111', accountId: 'fuel', count: 4 }]),
  );
  expect(d).toMatchObject({ kind: 'auto', accountId: 'fuel', source: 'memory' });
});

it('asks again when the pattern was resolved two ways (ambiguous), however often', () => {
  const d = decide(
    { merchantKey: 'hardware', cardKey: '1111' },
    ctx([
      { merchantKey: 'hardware', cardKey: '1111', accountId: 'tools', count: 9 },
      { merchantKey: 'hardware', cardKey: '1111', accountId: 'stationery', count: 1 },
    ]),
  );
  expect(d).toMatchObject({ kind: 'ask', reason: expect.stringMatching(/^ambiguous/) });
});

it('asks on thin evidence, a new card, a new merchant, and a multi-purpose merchant', () => {
  const rows = [
    { merchantKey: 'fuel co', cardKey: '1111', accountId: 'fuel', count: 3 },
    { merchantKey: 'megastore', cardKey: '1111', accountId: 'a', count: 6 },
    { merchantKey: 'megastore', cardKey: '2222', accountId: 'b', count: 3 },
    { merchantKey: 'megastore', cardKey: '3333', accountId: 'c', count: 3 },
  ];
  expect(decide({ merchantKey: 'fuel co', cardKey: '1111' }, ctx(rows)).kind).toBe('ask');
  expect(decide({ merchantKey: 'fuel co', cardKey: '9999' }, ctx(rows)).kind).toBe('ask');
  expect(decide({ merchantKey: 'never seen', cardKey: '1111' }, ctx(rows)).kind).toBe('ask');
  expect(decide({ merchantKey: 'megastore', cardKey: '1111' }, ctx(rows))).toMatchObject({
    kind: 'ask',
    reason: expect.stringMatching(/^multi-purpose/),
  });
});

it("asks when the card's account is a minority of the merchant's resolutions", () => {
  const rows = [
    { merchantKey: 'cafe', cardKey: '1111', accountId: 'meals', count: 4 },
    { merchantKey: 'cafe', cardKey: '2222', accountId: 'catering', count: 20 },
  ];
  expect(decide({ merchantKey: 'cafe', cardKey: '1111' }, ctx(rows))).toMatchObject({
    kind: 'ask',
    reason: expect.stringMatching(/^merchant share/),
  });
});

it('applies an org rule first, and a vendor default only without conflicting resolutions', () => {
  const rule = { re: /^parking/, accountId: 'travel' };
  expect(
    decide({ merchantKey: 'parking city', cardKey: '1' }, ctx([], { rules: [rule] })),
  ).toMatchObject({
    kind: 'auto',
    source: 'rule',
  });
  const vendors = new Map([['acme supplies', 'office']]);
  expect(
    decide({ merchantKey: 'acme supplies', cardKey: '1' }, ctx([], { vendors })),
  ).toMatchObject({
    kind: 'auto',
    accountId: 'office',
    source: 'vendor',
  });
  const conflicting = [
    { merchantKey: 'acme supplies', cardKey: '2', accountId: 'equipment', count: 2 },
  ];
  expect(
    decide({ merchantKey: 'acme supplies', cardKey: '1' }, ctx(conflicting, { vendors })).kind,
  ).toBe('ask');
});
